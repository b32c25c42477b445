import ChoirBase
import ChoirPractice
import ChoirScore
import FoundationEssentials
import GRDB

/// The singer's rehearsal plans and their runs, in the history's database: a run keeps which session each item was
/// sung in, so that its summary is rebuilt from the history and compared with the run before.
public final class RehearsalPlans: Sendable {
    /// A plan that cannot be made, found or changed as asked, with what was expected.
    public struct Problem: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// One run of a plan: the items as they were when it ran, and the session each was sung in (nil where the run
    /// ended before it).
    public struct Run: Sendable {
        public var id: Int64
        public var plan: String
        public var started: Date
        public var items: [RehearsalPlan.Item]
        public var sessions: [Int64?]
        /// Whether every item was sung to its end.
        public var finished: Bool

        /// The notes and right ones over the items sung, from their `sessions` in the history.
        public func figures(_ sessions: [Int64: PracticeHistory.Session]) -> (notes: Int, correct: Int) {
            self.sessions.compactMap { $0.flatMap { sessions[$0] } }.reduce((0, 0)) { ($0.0 + $1.notes, $0.1 + $1.correct) }
        }

        /// The run's summary: each item with how it went and its session, the whole run, the run before it
        /// (`previous`) for comparison, and the weakest item.
        public func summary(number: Int, sessions: [Int64: PracticeHistory.Session], previous: (number: Int, run: Run)?) -> String {
            let sung = self.sessions.count { $0 != nil }
            var out =
                "Plan '\(plan)', run \(number) on \(PracticeHistory.day(started)): \(sung) of \(items.count) item\(items.count == 1 ? "" : "s") sung"
                + (finished ? "" : " (stopped)") + "\n"
            var weakest: (index: Int, accuracy: Double)?
            for (index, item) in items.enumerated() {
                out += "  \(index + 1). \(item.summary): "
                guard let id = self.sessions[index], let session = sessions[id] else {
                    out += "not sung\n"
                    continue
                }
                out += "\(Self.percent(session.correct, of: session.notes)), session #\(id)\n"
                if session.notes > 0, session.accuracy < weakest?.accuracy ?? .infinity { weakest = (index, session.accuracy) }
            }
            let total = figures(sessions)
            out += "Overall: \(Self.percent(total.correct, of: total.notes))"
            if let previous {
                let before = previous.run.figures(sessions)
                out +=
                    "; run \(previous.number) on \(PracticeHistory.day(previous.run.started)): \(Self.percent(before.correct, of: before.notes))"
                if total.notes > 0 && before.notes > 0 {
                    let change = 100 * (Double(total.correct) / Double(total.notes) - Double(before.correct) / Double(before.notes))
                    out += String(printf: " (%+.1f points)", change)
                }
            }
            out += "\n"
            if sung > 1, let weakest { out += "Weakest: item \(weakest.index + 1), \(String(printf: "%.1f", weakest.accuracy))%\n" }
            return out
        }

        static func percent(_ correct: Int, of notes: Int) -> String {
            notes == 0
                ? "no notes judged" : String(printf: "%.1f", 100 * Double(correct) / Double(notes)) + "% (\(correct) of \(notes) notes)"
        }
    }

    public let path: String
    private let database: DatabaseQueue

    /// Opens the plans in the history's database at `path` (``PracticeHistory/defaultPath(environment:)``).
    public init(path: String) throws(PracticeHistory.Failure) {
        self.path = path
        database = try PracticeHistory.open(path)
    }

    /// Every plan, by name.
    public func plans() throws(PracticeHistory.Failure) -> [RehearsalPlan] {
        try attempt { db in
            try Row.fetchAll(db, sql: "SELECT name, items FROM plan ORDER BY name COLLATE NOCASE").map(Self.plan)
        }
    }

    /// The plan named `name` (any case), or a problem naming the plans there are.
    public func plan(named name: String) throws -> RehearsalPlan {
        let found = try attempt { db in
            try Row.fetchOne(db, sql: "SELECT name, items FROM plan WHERE name = ?", arguments: [name]).map(Self.plan)
        }
        if let found { return found }
        let plans = try plans()
        let names = plans.map { "'\($0.name)'" }
        throw Problem(
            description: "no plan named '\(name)'\(NearestName.suggestion(name, among: plans.map(\.name))): expected "
                + (names.isEmpty
                    ? "a plan made with `choir plan new NAME` or `choir plan import FILE`" : "one of " + names.joined(separator: ", ")))
    }

    /// Refuses a name for a new plan that is nothing but spaces.
    public static func check(name: String) throws(Problem) {
        guard name.allSatisfy(\.isWhitespace) else { return }
        throw Problem(description: "the plan's name is empty: expected a name, e.g. \"Advent concert\"")
    }

    /// Keeps `plan`: a new one, or (with `replacing`) in place of the one of its name.
    public func save(_ plan: RehearsalPlan, replacing: Bool) throws {
        let exists = try attempt { db in try Bool.fetchOne(db, sql: "SELECT 1 FROM plan WHERE name = ?", arguments: [plan.name]) ?? false }
        if exists && !replacing {
            throw Problem(description: "a plan named '\(plan.name)' exists: expected a new name, or --replace to replace it")
        }
        try attempt { db in
            try db.execute(
                sql:
                    "INSERT INTO plan (name, items, created) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET name = excluded.name, items = excluded.items",
                arguments: [plan.name, try Self.json(plan.items), Date().timeIntervalSince1970])
        }
    }

    /// Removes the plan named `name`; its runs stay, as the sessions they point to do.
    public func remove(named name: String) throws {
        let plan = try plan(named: name)
        try attempt { db in try db.execute(sql: "DELETE FROM plan WHERE name = ?", arguments: [plan.name]) }
    }

    /// The item of `plan` to sing next (its index from 0), from the sessions in `history`: the one after the item
    /// sung most recently (its piece, known in `library` by path or title, and its line), back to the first after the
    /// last; the first when none has been sung, nil when the plan has no items. Two items of one piece and line are
    /// the same to the history: its session counts for the later.
    public func next(in plan: RehearsalPlan, library: Library, history: PracticeHistory) throws -> Int? {
        guard !plan.items.isEmpty else { return nil }
        let sessions = try history.sessions().filter(\.sung)
        var latest: (index: Int, started: Date)?
        for (index, item) in plan.items.enumerated() {
            guard let entry = try? library.entry(named: item.piece) else { continue }
            let identity = ScoreIdentity(hash: entry.hash, path: entry.path)
            let sung = sessions.last { session in
                identity.holds(hash: session.hash, path: session.path)
                    && session.lines.contains { $0.lowercased() == item.line.lowercased() }
            }
            if let sung, sung.started >= latest?.started ?? .distantPast { latest = (index, sung.started) }
        }
        return latest.map { ($0.index + 1) % plan.items.count } ?? 0
    }

    /// Starts a run of `plan`: its items as they are now, none sung yet.
    public func begin(_ plan: RehearsalPlan, started: Date = Date()) throws(PracticeHistory.Failure) -> Run {
        let sessions = [Int64?](repeating: nil, count: plan.items.count)
        let id = try attempt { db in
            try db.execute(
                sql: "INSERT INTO plan_run (plan, started, items, sessions) VALUES (?, ?, ?, ?)",
                arguments: [plan.name, started.timeIntervalSince1970, try Self.json(plan.items), try Self.json(sessions)])
            return db.lastInsertedRowID
        }
        return Run(id: id, plan: plan.name, started: started, items: plan.items, sessions: sessions, finished: false)
    }

    /// Keeps, as it happens, which session `run`'s item `index` was sung in, and whether the run is now finished.
    public func record(_ run: Run) throws(PracticeHistory.Failure) {
        try attempt { db in
            try db.execute(
                sql: "UPDATE plan_run SET sessions = ?, finished = ? WHERE id = ?",
                arguments: [try Self.json(run.sessions), run.finished, run.id])
        }
    }

    /// The runs of the plan named `name`, oldest first.
    public func runs(of name: String) throws(PracticeHistory.Failure) -> [Run] {
        try attempt { db in
            try Row.fetchAll(db, sql: "SELECT * FROM plan_run WHERE plan = ? ORDER BY started, id", arguments: [name]).map { row in
                let decoder = JSONDecoder()
                return Run(
                    id: row["id"], plan: row["plan"], started: Date(timeIntervalSince1970: row["started"]),
                    items: try decoder.decode([RehearsalPlan.Item].self, from: Data((row["items"] as String).utf8)),
                    sessions: try decoder.decode([Int64?].self, from: Data((row["sessions"] as String).utf8)), finished: row["finished"])
            }
        }
    }

    private static func plan(_ row: Row) throws -> RehearsalPlan {
        RehearsalPlan(
            name: row["name"], items: try JSONDecoder().decode([RehearsalPlan.Item].self, from: Data((row["items"] as String).utf8)))
    }

    private static func json(_ value: some Encodable) throws -> String { String(decoding: try JSONEncoder().encode(value), as: UTF8.self) }

    private func attempt<T>(_ work: (Database) throws -> T) throws(PracticeHistory.Failure) -> T {
        try PracticeHistory.write(database, path: path, work)
    }

    /// Copies the plans of the damaged history `source` that are not here (by name), and their runs (a run already
    /// here, by plan and start, is skipped), each run's sessions under their new numbers (`sessions`, from
    /// ``PracticeHistory/recover(from:)``); returns how many plans and runs.
    public func recover(from source: DamagedHistoryReader, sessions: [Int64: Int64]) throws(PracticeHistory.Failure)
        -> (plans: Int, runs: Int)
    {
        let plans = try PracticeHistory.recover("plan", from: source, into: database, path: path)
        let known = Set(
            try PracticeHistory.write(database, path: path) { db in
                try Row.fetchAll(db, sql: "SELECT plan, started FROM plan_run").map { "\($0["plan"] as String)|\($0["started"] as Double)" }
            })
        var runs = 0
        for row in source.salvage("plan_run").rows
        where !known.contains("\(row["plan"] as DatabaseValue)|\(row["started"] as DatabaseValue)") {
            runs += try PracticeHistory.recover(row, into: "plan_run", database: database, path: path) { values in
                values["id"] = nil
                let numbers = (values["sessions"].flatMap { String.fromDatabaseValue($0) }).flatMap {
                    try? JSONDecoder().decode([Int64?].self, from: Data($0.utf8))
                }
                if let numbers, let mapped = try? JSONEncoder().encode(numbers.map { $0.flatMap { sessions[$0] } }) {
                    values["sessions"] = String(decoding: mapped, as: UTF8.self).databaseValue
                }
            }
        }
        return (plans, runs)
    }
}
