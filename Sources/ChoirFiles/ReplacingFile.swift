import Glibc
import Synchronization

/// A file written under a temporary name beside its target and renamed over it once complete, so that the
/// target is never half-written: until ``commit()`` it keeps what it held before (or stays absent), and a
/// writer that fails or is dropped removes its temporary file. A process killed while writing cannot: its file is
/// removed by the next writer in that folder, or, wherever it was, by the next process that keeps a ledger
/// (``keepLedger(in:)``).
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
    /// This file's entry in the ledger, while it is open; nil without a ledger.
    private var entry: String?

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
                entry = Self.enter(candidate)
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
        if let entry { _ = FileName.withPath(entry, unlink) }
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
        defer {
            if let entry { _ = FileName.withPath(entry, unlink) }
            entry = nil
        }
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

    /// Notes every temporary file this process opens from now on in `folder` (one small file each, named by the
    /// process's number and start time and holding the temporary file's path, removed once it is committed or
    /// removed), and first removes the temporary files of the processes noted there that have ended since: a
    /// process killed while writing leaves its file wherever it was writing, and no later writer may ever go there.
    public static func keepLedger(in folder: String) {
        ledger.withLock { $0 = folder }
        for name in FileName.names(in: folder) ?? [] {
            let fields = name.split(separator: ".")
            guard fields.count == 3, let pid = pid_t(fields[0]), pid > 0, let started = Int(fields[1]), Int(fields[2]) != nil,
                Self.started(pid) != started
            else { continue }
            let noted = folder + "/" + name
            // Only what the ledger's owner could have made: its own temporary file, named with its number.
            if let bytes = FileName.contents(noted), case let path = FileName.decode(bytes),
                let slash = path.lastIndex(of: "/"), stalePID(String(path[path.index(after: slash)...])) == pid
            {
                _ = FileName.withPath(path, unlink)
            }
            _ = FileName.withPath(noted, unlink)
        }
    }

    private static let ledger = Mutex<String?>(nil)
    private static let entries = Atomic<Int>(0)
    /// This process's start time (``started(_:)``).
    private static let startTime = started(getpid()) ?? 0

    /// Notes `temporary` in the ledger, if one is kept (``keepLedger(in:)``); the entry's path, or nil.
    private static func enter(_ temporary: String) -> String? {
        guard let folder = ledger.withLock({ $0 }) else { return nil }
        var made = ""
        for part in folder.split(separator: "/") {
            made += (made.isEmpty && !folder.hasPrefix("/") ? "" : "/") + part
            _ = FileName.withPath(made) { mkdir($0, 0o700) }
        }
        let absolute = temporary.hasPrefix("/") ? temporary : (FileName.currentFolder ?? "") + "/" + temporary
        let entry = "\(folder)/\(getpid()).\(startTime).\(entries.add(1, ordering: .relaxed).oldValue)"
        let descriptor = FileName.withPath(entry) { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else { return nil }
        let bytes = FileName.encode(absolute)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == bytes.count else {
            _ = FileName.withPath(entry, unlink)
            return nil
        }
        return entry
    }

    /// When process `pid` started, in clock ticks since boot (`/proc/PID/stat`'s 22nd field): with its number, what
    /// tells it from a later process given the same number. Nil if no such process runs.
    static func started(_ pid: pid_t) -> Int? {
        guard let bytes = FileName.contents("/proc/\(pid)/stat"), let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
        return fields.count > 19 ? Int(String(decoding: fields[19], as: UTF8.self)) : nil
    }

    /// Removes the temporary files (".NAME.PID.N.partial") in `directory` whose process is gone: a process that
    /// was killed while writing leaves its file, which no one else would ever finish or remove. A file whose
    /// process still runs (or whose number another process has taken since) is left alone.
    static func removeStale(in directory: String) {
        for name in FileName.names(in: directory.isEmpty ? "." : directory) ?? [] {
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
