import FoundationEssentials
import GRDB
import Glibc

/// What was brought back from a damaged history into the current one (``PracticeHistory/recover(from:)``).
public struct HistoryRecovery: Sendable, Equatable {
    public var sessions = 0
    public var results = 0
    public var tracePoints = 0
    public var marks = 0
    /// Sessions the history holds already (recovered before): skipped, with their notes.
    public var alreadyThere = 0
    /// Notes and trace points of sessions whose own row could not be read: they belong to no session left.
    public var orphaned = 0
    /// Stretches of rows on damaged pages, skipped, over every table read.
    public var damagedStretches = 0
    /// Each recovered session's number in this history, by its number in the damaged one.
    public var sessionNumbers: [Int64: Int64] = [:]
}

/// A damaged history, opened for reading whatever can still be read. It reads a copy (with its write-ahead log),
/// so that the damaged file itself is never changed; the copy goes when this does.
public final class DamagedHistoryReader: @unchecked Sendable {
    public let path: String
    private let folder: String
    private let database: DatabaseQueue

    /// Opens a copy of the history at `path`; fails if it cannot be read at all.
    public init(path: String) throws(PracticeHistory.Failure) {
        self.path = path
        let template = Array((FileManager.default.temporaryDirectory.path + "/choir-recover-XXXXXX").utf8CString)
        var name = template
        guard let made = mkdtemp(&name) else {
            throw PracticeHistory.Failure(path: path, kind: .unusable, reason: "cannot make a folder to read a copy in")
        }
        folder = String(cString: made)
        let copy = folder + "/history.sqlite"
        do {
            for suffix in ["", "-wal"] where suffix.isEmpty || FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
            }
            var configuration = Configuration()
            // Find damage where it is rather than read past it.
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cell_size_check = ON") }
            database = try DatabaseQueue(path: copy, configuration: configuration)
            _ = try database.inDatabase { try String.fetchAll($0, sql: "SELECT name FROM sqlite_schema WHERE type = 'table'") }
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            let failure = PracticeHistory.failure(error, path: path)
            throw PracticeHistory.Failure(
                path: path, kind: failure.kind, reason: "cannot be read at all (\(failure.reason)): expected a history choir set aside")
        }
    }

    deinit {
        try? database.close()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Every row of `table` that can still be read, in rowid order, and how many damaged stretches were skipped. A
    /// read that fails (a damaged page, or a row that runs onto one) is resumed after the damage, at the first rowid
    /// from which a read succeeds: found by doubling the step past the failure, then halving back. A seek lands in
    /// the page that would hold its rowid, so every row of the pages that are whole is read. A table the file does
    /// not have gives nothing.
    public func salvage(_ table: String) -> (rows: [Row], damagedStretches: Int) {
        // Outside a transaction: a damaged page fails its statement alone, not everything read after it.
        (try? database.inDatabase { db -> ([Row], Int) in
            guard try db.tableExists(table) else { return ([], 0) }
            var rows: [Row] = []
            var from = Int64.min, stretches = 0
            /// Whether reading from `start` gets past the seek and the first row.
            func readsFrom(_ start: Int64) -> Bool {
                do {
                    _ = try Row.fetchOne(
                        db, sql: "SELECT * FROM \(table) NOT INDEXED WHERE rowid >= ? ORDER BY rowid LIMIT 1", arguments: [start])
                    return true
                } catch {
                    return false
                }
            }
            while true {
                do {
                    let cursor = try Row.fetchCursor(
                        db, sql: "SELECT rowid AS choir_rowid, * FROM \(table) NOT INDEXED WHERE rowid >= ? ORDER BY rowid",
                        arguments: [from])
                    while let row = try cursor.next() {
                        rows.append(row.copy())
                        let rowid: Int64 = row["choir_rowid"]
                        guard rowid < .max else { return (rows, stretches) }
                        from = rowid + 1
                    }
                    return (rows, stretches)
                } catch {
                    stretches += 1
                    var failing = from, step: Int64 = 1
                    var good: Int64?
                    while good == nil {
                        let (candidate, overflow) = failing.addingReportingOverflow(step)
                        guard !overflow else { return (rows, stretches) }
                        if readsFrom(candidate) {
                            good = candidate
                        } else {
                            (failing, step) = (candidate, step > 1 << 61 ? step : step * 2)
                        }
                    }
                    while good! - failing > 1 {
                        let middle = failing + (good! - failing) / 2
                        if readsFrom(middle) { good = middle } else { failing = middle }
                    }
                    from = good!
                }
            }
        }) ?? ([], 1)
    }
}

extension PracticeHistory {
    /// Copies every session, note, trace point and mark that can still be read from the damaged history `source`
    /// into this one, each session under a new number (the history may have new sessions of its own by now). A
    /// session this history holds already (the same piece, line and start) is skipped with its notes, so that
    /// recovering twice adds nothing.
    public func recover(from source: DamagedHistoryReader) throws(Failure) -> HistoryRecovery {
        let sessions = source.salvage("session"), results = source.salvage("result"), trace = source.salvage("trace")
        let marks = source.salvage("mark"), library = source.salvage("library").rows
        var recovery = HistoryRecovery()
        recovery.damagedStretches = sessions.damagedStretches + results.damagedStretches + trace.damagedStretches + marks.damagedStretches
        try attempt { db in
            // Sessions and marks from a history written before they were keyed by their score's content are keyed as
            // the migration keys them (``HistorySchema/locate(_:library:)``), by this library's files and the damaged one's.
            let files = try HistorySchema.libraryFiles(db) + HistorySchema.libraryFiles(library)
            func keys(_ row: Row) -> [String: DatabaseValue] {
                guard !row.hasColumn("score_hash"), let score = String.fromDatabaseValue(row["score"]) else { return [:] }
                let found = HistorySchema.locate(score, library: files)
                return ["score_hash": found.hash.databaseValue, "score_path": found.path.databaseValue]
            }
            var known: [String: Int64] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, score, part, started FROM session") {
                known[Self.identity(row)] = row["id"]
            }
            var present: Set<Int64> = []
            for row in sessions.rows {
                let old: Int64 = row["choir_rowid"]
                if let existing = known[Self.identity(row)] {
                    recovery.sessionNumbers[old] = existing
                    present.insert(old)
                    recovery.alreadyThere += 1
                    continue
                }
                try Self.insert(row, into: "session", skipping: ["id"], replacing: keys(row), db)
                recovery.sessionNumbers[old] = db.lastInsertedRowID
                recovery.sessions += 1
            }
            for (table, rows) in [("result", results.rows), ("trace", trace.rows)] {
                for row in rows {
                    let old: Int64 = row["session"]
                    guard let new = recovery.sessionNumbers[old] else {
                        recovery.orphaned += 1
                        continue
                    }
                    guard !present.contains(old) else { continue }
                    try Self.insert(row, into: table, replacing: ["session": new.databaseValue], db)
                    if table == "result" { recovery.results += 1 } else { recovery.tracePoints += 1 }
                }
            }
            let existingMarks = Set(
                try Row.fetchAll(db, sql: "SELECT score, line, measure, text, created FROM mark").map { "\(Array($0.databaseValues))" })
            for row in marks.rows
            where !existingMarks.contains("\(["score", "line", "measure", "text", "created"].map { row[$0] as DatabaseValue })") {
                try Self.insert(row, into: "mark", skipping: ["id"], replacing: keys(row), db)
                recovery.marks += 1
            }
        }
        return recovery
    }

    /// Copies every row of `table` in `source` that this database does not have (by its primary key) into it: for
    /// the tables other modules keep in the history's file. Returns how many.
    public static func recover(_ table: String, from source: DamagedHistoryReader, into database: DatabaseQueue, path: String)
        throws(Failure) -> Int
    {
        var copied = 0
        for row in source.salvage(table).rows { copied += try recover(row, into: table, database: database, path: path) }
        return copied
    }

    /// Copies `row` (salvaged) into `table` unless its primary key is there already, with its values as `change`
    /// leaves them (nil: left to the column's default); returns 1 if copied.
    public static func recover(
        _ row: Row, into table: String, database: DatabaseQueue, path: String,
        changing change: (inout [String: DatabaseValue]) -> Void = { _ in }
    ) throws(Failure) -> Int {
        var values = Dictionary(uniqueKeysWithValues: row.columnNames.map { ($0, row[$0] as DatabaseValue) })
        change(&values)
        return try write(database, path: path) { db in
            let columns = try db.columns(in: table).map(\.name).filter { values[$0] != nil }
            try db.execute(
                sql:
                    "INSERT OR IGNORE INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))",
                arguments: StatementArguments(columns.map { values[$0]! }))
            return db.changesCount
        }
    }

    /// A session as it is told apart across histories: its piece, line and start.
    private static func identity(_ row: Row) -> String {
        "\(row["score"] as DatabaseValue)|\(row["part"] as DatabaseValue)|\(row["started"] as DatabaseValue)"
    }

    /// Inserts `row`'s values for the columns `table` has, but `skipping`, with `replacing`'s values instead (or as
    /// well, for columns the row has not).
    private static func insert(
        _ row: Row, into table: String, skipping: Set<String> = [], replacing: [String: DatabaseValue] = [:], _ db: Database
    ) throws {
        let columns = try db.columns(in: table).map(\.name).filter { !skipping.contains($0) && (row.hasColumn($0) || replacing[$0] != nil) }
        try db.execute(
            sql:
                "INSERT OR IGNORE INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))",
            arguments: StatementArguments(columns.map { replacing[$0] ?? row[$0] }))
    }
}
