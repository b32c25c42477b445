import ChoirBase
import ChoirFiles
import FoundationEssentials
import Glibc

/// A PDF's pages as images, rendered by poppler's `pdftoppm` (Debian's poppler-utils) in a process of its own: its
/// PDF parser, the largest part of reading a PDF, never runs inside choir, and choir links nothing more for it.
enum PDFPages {
    /// Each page of `file`, grey, scaled to `longest` pixels on its longer side, in order.
    static func render(_ file: String, longest: Int) throws(ScanError) -> [GrayImage] {
        let environment = ProcessInfo.processInfo.environment
        let temporary = (environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp") + "/choir-scan-XXXXXX"
        var template = Array(temporary.utf8CString)
        guard let made = mkdtemp(&template) else {
            throw ScanError(.input, "\(file): cannot make a folder for its pages (\(String(cString: strerror(errno))))")
        }
        let folder = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A name starting with "-" would be taken for an option.
        let input = file.hasPrefix("-") ? "./" + file : file
        let (status, errors) = try run(["pdftoppm", "-gray", "-png", "-scale-to", "\(longest)", input, folder + "/page"])
        guard status == 0 else {
            let said = errors.split(whereSeparator: \.isNewline).last.map { ": \($0)" } ?? ""
            throw ScanError(.input, "\(file): pdftoppm cannot render it (status \(status))\(said): expected a PDF of the pages")
        }
        // pdftoppm numbers its pages with as many digits as the last needs, so that they sort in order.
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".png") }.sorted()
        guard !names.isEmpty else { throw ScanError(.input, "\(file): a PDF without pages: expected a PDF of the pages") }
        return try names.map { (name: String) throws(ScanError) -> GrayImage in
            do {
                return try GrayImage.png(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))))
            } catch {
                throw ScanError(.input, "\(file): pdftoppm's page \(name) cannot be read")
            }
        }
    }

    /// Runs `arguments` (the program first, found on PATH) without a shell, and returns its exit status and what it
    /// wrote on standard error.
    private static func run(_ arguments: [String]) throws(ScanError) -> (status: Int32, errors: String) {
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw ScanError(.unavailable, "cannot start \(arguments[0]): no pipe") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 2)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        // A file's name as its bytes (``FileName``).
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { FileName.withPath($0) { strdup($0) } } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = SpawnAttributes.withSignalsReset { posix_spawnp(&pid, arguments[0], &actions, $0, argv, environ) }
        close(pipe[1])
        defer { close(pipe[0]) }
        guard spawned == 0 else {
            throw ScanError(
                .unavailable,
                "cannot start \(arguments[0]) (\(String(cString: strerror(spawned)))): expected poppler-utils installed (just setup)")
        }
        // Read to the end before waiting, so that a long complaint cannot fill the pipe and stall it.
        var errors: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = read(pipe[0], &buffer, buffer.count)
            if got > 0 {
                errors += buffer[0..<got]
            } else if got == 0 || errno != EINTR {
                break
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exited, String(decoding: errors, as: UTF8.self))
    }
}
