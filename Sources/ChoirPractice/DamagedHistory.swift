import ChoirAudio
import ChoirBase
import ChoirScore
import FoundationEssentials
import GRDB
import Glibc

/// A history file that SQLite found damaged when choir opened it (its `quick_check`, or a file that is not a
/// database), moved aside so that nothing is ever written into it: a new history takes its place, and
/// ``PracticeHistory/recover(from:)`` copies back whatever of it can still be read.
public struct DamagedHistory: Sendable, Equatable, CustomStringConvertible {
    /// Where the history was, and is again (a new one).
    public var path: String
    /// Where the damaged file is now: beside it, named with the time it was found ("history-damaged-20261125-143000.sqlite").
    public var movedTo: String
    /// What SQLite found wrong, in its words.
    public var problem: String

    public var description: String { "\(path) is damaged (\(problem)); it was moved to \(movedTo) and a new history started" }

    /// The histories checked in this process: the file as it was when checked (unchanged since, it is not checked
    /// again), and the damaged one set aside, if it was.
    private static let checked = Locked<[String: (file: FileState?, setAside: DamagedHistory?)]>([:])

    /// What tells a file's state apart cheaply: its device, inode, size and time of change.
    struct FileState: Equatable {
        var device: UInt, inode: UInt, size: Int, changed: Int

        init?(_ path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            (device, inode, size) = (UInt(status.st_dev), UInt(status.st_ino), Int(status.st_size))
            changed = status.st_mtim.tv_sec * 1_000_000_000 + status.st_mtim.tv_nsec
        }
    }

    private static let handler = Locked<(@Sendable (DamagedHistory) -> Void)?>(nil)

    /// Calls `handler` with each history set aside from now on, as it happens: a front end says so.
    public static func whenSetAside(_ handler: @escaping @Sendable (DamagedHistory) -> Void) {
        self.handler.withLock { $0 = handler }
    }

    /// The damaged history this process found at `path` and set aside, if it did.
    public static func setAside(at path: String) -> DamagedHistory? { checked.withLock { $0[path]?.setAside } }

    /// Checks the history at `path`, unless it is as it was when last checked in this process: if it is damaged,
    /// moves it (with its write-ahead log) aside and returns where to. A file that cannot be checked for another
    /// reason (no permission, another program holding it) is left for the opening to report.
    static func setAsideIfDamaged(_ path: String) -> DamagedHistory? {
        guard let state = FileState(path), checked.withLock({ $0[path]?.file != state }) else { return nil }
        guard let problem = problem(path) else {
            checked.withLock { $0[path, default: (nil, nil)].file = FileState(path) }
            return nil
        }
        let movedTo = Self.asideName(path)
        guard rename(path, movedTo) == 0 else { return nil }
        // The log holds transactions not yet in the file: they go with it. The shared memory is rebuilt from them.
        _ = rename(path + "-wal", movedTo + "-wal")
        unlink(path + "-shm")
        let damaged = DamagedHistory(path: path, movedTo: movedTo, problem: problem)
        checked.withLock { $0[path] = (nil, damaged) }
        handler.withLock { $0 }?(damaged)
        return damaged
    }

    /// What SQLite finds wrong with the database at `path`, or nil if nothing (or nothing it can call damage).
    static func problem(_ path: String) -> String? {
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(1)
            let database = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? database.close() }
            let found = try database.read { try String.fetchAll($0, sql: "PRAGMA quick_check") }
            return found == ["ok"] ? nil : "quick_check: " + (found.first ?? "no answer").split(separator: "\n").joined(separator: "; ")
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
            return error.message ?? "\(error.resultCode)"
        } catch {
            return nil
        }
    }

    /// "DIR/NAME-damaged-YYYYMMDD-HHMMSS.EXT" for "DIR/NAME.EXT", at the local time, numbered if taken.
    static func asideName(_ path: String) -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        let stamp = String(
            printf: "%04d%02d%02d-%02d%02d%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour),
            Int(parts.tm_min), Int(parts.tm_sec))
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let dot = path[slash...].lastIndex(of: ".") ?? path.endIndex
        let (stem, suffix) = (String(path[..<dot]), String(path[dot...]))
        var candidate = "\(stem)-damaged-\(stamp)\(suffix)", attempt = 1
        while FileManager.default.fileExists(atPath: candidate) {
            attempt += 1
            candidate = "\(stem)-damaged-\(stamp)-\(attempt)\(suffix)"
        }
        return candidate
    }
}
