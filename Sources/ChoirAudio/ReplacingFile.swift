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

    /// Creates the temporary file beside `path`, with the permissions a new file there would get.
    public init(path: String) throws(Failure) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var attempt = 0
        while true {
            let candidate = "\(directory).\(name).\(getpid()).\(attempt).partial"
            let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
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
            unlink(temporary)
        }
    }

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
        guard flushed && closed, rename(temporary, path) == 0 else {
            let error = failure()
            unlink(temporary)
            throw error
        }
    }

    /// Writes `text` to `path` whole, or leaves `path` as it was.
    public static func write(_ text: String, to path: String) throws(Failure) {
        let file = try ReplacingFile(path: path)
        try file.write(Array(text.utf8))
        try file.commit()
    }

    private func failure() -> Failure {
        Failure(path: path, message: "cannot be written (\(String(cString: strerror(errno)))): expected a writable path with free space")
    }
}
