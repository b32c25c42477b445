import ChoirFiles
import Glibc

/// A file written under a temporary name beside its target and renamed over it once complete, so that the
/// target is never half-written: until ``commit()`` it keeps what it held before (or stays absent), and a
/// writer that fails or is dropped removes its temporary file.
public final class ReplacingFile {
    /// A file that cannot be written, with the reason and what was expected.
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public var path: String
        public var message: String
        public var description: String { "\(path): \(message)" }
    }

    /// The target.
    public let path: String
    private let temporary: String
    private var file: UnsafeMutablePointer<FILE>?

    /// Creates the temporary file beside `path`, with the permissions a new file there would get. Temporary files
    /// left in that folder by a process that was killed are removed first.
    public init(path: String) throws(Failure) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        Self.removeStale(in: directory)
        var attempt = 0
        while true {
            let candidate = "\(directory).\(name).\(getpid()).\(attempt).partial"
            let descriptor = FileName.withPath(candidate) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666) }
            if descriptor >= 0 {
                temporary = candidate
                file = fdopen(descriptor, "wb")
                break
            }
            guard errno == EEXIST, attempt < 100 else {
                throw Failure(path: path, message: "cannot be written (\(String(cString: strerror(errno)))): expected a writable path")
            }
            attempt += 1
        }
    }

    deinit {
        if let file {
            fclose(file)
            _ = FileName.withPath(temporary, unlink)
        }
    }

    /// The temporary file's descriptor, for a library that writes it itself (libsndfile); nil once committed.
    public var descriptor: Int32? { file.map(fileno) }

    /// Appends `bytes`.
    public func write(_ bytes: [UInt8]) throws(Failure) {
        guard let file else { return }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == bytes.count else { throw failure() }
    }

    /// Moves to `offset` from the start, to patch what was written there.
    public func seek(to offset: Int) throws(Failure) {
        guard let file else { return }
        guard fseek(file, offset, SEEK_SET) == 0 else { throw failure() }
    }

    /// Makes the written contents the target's, replacing what it held.
    public func commit() throws(Failure) {
        guard let file else { return }
        self.file = nil
        let flushed = fflush(file) == 0 && fsync(fileno(file)) == 0
        let closed = fclose(file) == 0
        guard flushed && closed, FileName.withPath(temporary, { from in FileName.withPath(path) { rename(from, $0) } }) == 0 else {
            let error = failure()
            _ = FileName.withPath(temporary, unlink)
            throw error
        }
    }

    /// Writes `text` to `path` whole, or leaves `path` as it was.
    public static func write(_ text: String, to path: String) throws(Failure) {
        let file = try ReplacingFile(path: path)
        try file.write(Array(text.utf8))
        try file.commit()
    }

    /// Removes the temporary files (".NAME.PID.N.partial") in `directory` whose process is gone: a process that
    /// was killed while writing leaves its file, which no one else would ever finish or remove. A file whose
    /// process still runs (or whose number another process has taken since) is left alone.
    static func removeStale(in directory: String) {
        guard let folder = FileName.withPath(directory.isEmpty ? "." : directory, opendir) else { return }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { FileName.decode($0.prefix { $0 != 0 }) }
            guard let pid = stalePID(name), kill(pid, 0) != 0, errno == ESRCH else { continue }
            _ = FileName.withPath(directory + name, unlink)
        }
    }

    /// The process that wrote `name`, if it is named as a temporary file of this type: ".NAME.PID.N.partial".
    static func stalePID(_ name: String) -> pid_t? {
        guard name.hasPrefix("."), name.hasSuffix(".partial") else { return nil }
        let fields = name.dropLast(".partial".count).split(separator: ".", omittingEmptySubsequences: false)
        guard fields.count >= 4, fields.last.flatMap({ Int($0) }) != nil, let pid = pid_t(fields[fields.count - 2]), pid > 0 else {
            return nil
        }
        return pid
    }

    private func failure() -> Failure {
        Failure(path: path, message: "cannot be written (\(String(cString: strerror(errno)))): expected a writable path with free space")
    }
}
