import ChoirFiles
import ChoirPlayback
import ChoirScore
import FoundationEssentials
import GRDB

/// The practice history: an SQLite database of sessions and their per-note results.
///
/// Results are written while the session runs, in WAL mode, so a session that is killed keeps what it had
/// judged up to its last write (at most a second old).
public final class PracticeHistory: Sendable {
    /// A history that cannot be opened or written, or a session it does not hold, with the reason.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, for a front end to act on.
        public enum Kind: Sendable, Equatable {
            /// Another program holds the database.
            case locked
            /// The file is not a history choir can read.
            case corrupt
            /// No stored session has the number asked for.
            case noSuchSession
            /// The file named is not there.
            case missing
            /// The history itself was named where another file was expected (to recover from).
            case current
            /// Anything else: no space, no permission, a missing directory.
            case unusable
        }
        public var path: String
        public var kind: Kind
        public var reason: String
        public var description: String { "\(path): \(reason)" }

        public init(path: String, kind: Kind, reason: String) { (self.path, self.kind, self.reason) = (path, kind, reason) }
    }

    /// One stored session, as `choir history` lists it.
    public struct Session: Sendable {
        public var id: Int64
        /// The score's path as it was given.
        public var score: String
        /// The score's content hash and where it was (``ScoreIdentity``); no hash for a session stored before hashes
        /// were kept whose file could not be found, and then the path as it was given.
        public var hash: String?
        public var path: String
        /// What the piece was called; nil in sessions stored before it was kept.
        public var title: String?
        public var part: String
        public var started: Date
        public var tempo: Double
        public var notes: Int
        public var correct: Int
        /// How many times the singer went through (part of) the range: loops, steps back and drill passes.
        public var passes: Int
        public var finished: Bool
        /// How it was sung, when known.
        public var kind: SessionReport.Kind?
        public var transpose: Int
        /// The first and last measures practised, by printed number.
        public var range: (first: String, last: String)?
        /// Seconds of the score the judged notes span, every pass's added up.
        public var seconds: Double
        /// Whether anything was sung: a note heard, or a pitch traced.
        public var sung: Bool
        public var accuracy: Double { notes == 0 ? 0 : 100 * Double(correct) / Double(notes) }
        /// The names of the singer's lines ("Soprano + Descant" is two).
        public var lines: [String] { part.components(separatedBy: " + ") }

        /// What the piece is called: its title, else its file's name.
        public var piece: String { title ?? Score.fileName(score) }
        /// The piece the session is of, to group sessions by: its content, else its path.
        public var key: String { hash ?? path }
        /// Whether the session is too short to say how the singer is doing: a start abandoned after a few seconds
        /// (a range sung to its end counts, however short). It is listed, but left out of every trend.
        public var isBrief: Bool { !finished && seconds < PracticeHistory.briefSeconds }
        /// Whether the session counts in a line's trend: something sung, notes judged, over more than a few seconds.
        public var inTrend: Bool { sung && notes > 0 && !isBrief }
    }

    /// Interrupted sessions whose judged notes span fewer seconds than this are left out of trends.
    public static let briefSeconds = 10.0

    public let path: String
    private let database: DatabaseQueue

    /// `$XDG_DATA_HOME/choir/history.sqlite`, else under `~/.local/share`.
    public static func defaultPath(environment: [String: String]) -> String {
        let base =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? "/tmp") + "/.local/share"
        return base + "/choir/history.sqlite"
    }

    /// Opens (creating if need be) the history at `path`.
    public init(path: String) throws(Failure) {
        self.path = path
        database = try Self.open(path)
    }

    /// The database at `path`, opened as the history opens it (created if need be, in WAL mode, waiting a second
    /// for another writer) and brought up to date by ``HistorySchema``: the library and the rehearsal plans share
    /// the history's file. The first opening in a process checks the file (``DamagedHistory``): a damaged one is
    /// moved aside and a new one started.
    public static func open(_ path: String) throws(Failure) -> DatabaseQueue {
        _ = DamagedHistory.setAsideIfDamaged(path)
        do {
            try FileManager.default.createDirectory(
                atPath: String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]).ifEmpty("."),
                withIntermediateDirectories: true)
            var configuration = Configuration()
            configuration.busyMode = .timeout(1)
            let database = try DatabaseQueue(path: path, configuration: configuration)
            try database.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = WAL")
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
            try HistorySchema.migrator.migrate(database)
            return database
        } catch {
            throw failure(error, path: path)
        }
    }

    /// Fails as writing would now (another program holding the database, no room, no permission), without writing.
    public func checkWritable() throws(Failure) {
        do { try database.inTransaction(.immediate) { _ in .rollback } } catch { throw Self.failure(error, path: path) }
    }

    /// Starts a session and returns its id.
    public func begin(_ report: SessionReport, started: Date = Date()) throws(Failure) -> Int64 {
        try attempt { db in
            try db.execute(
                sql: """
                    INSERT INTO session (
                        score, score_hash, score_path, title, part, started, tempo, tempo_percent, options, measures, kind, transpose,
                        verse, lyrics, divisi)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    report.score, report.identity?.hash, report.identity?.path ?? report.score, report.title, report.part,
                    started.timeIntervalSince1970, report.tempo, report.tempoPercent,
                    try Self.json(report.options), try Self.json(report.measureStarts), report.kind?.rawValue, report.transpose,
                    report.verse, try Self.json(report.lyrics), try report.divisi.map { try Self.json($0) },
                ])
            return db.lastInsertedRowID
        }
    }

    /// Appends judged notes and trace points to a session, in one transaction.
    public func record(_ results: some Collection<NoteResult>, trace: some Collection<TracePoint>, session: Int64) throws(Failure) {
        guard !results.isEmpty || !trace.isEmpty else { return }
        try attempt { db in
            for result in results {
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO result (session, pass, note, idx, measure, verdict, median_cents, onset_error, in_tune_pct, evidence)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        session, result.pass, try Self.json(result.note), result.note.index, result.note.measure, result.verdict.rawValue,
                        result.medianCents, result.onsetError, result.inTunePercent, try result.evidence.map { try Self.json($0) },
                    ])
            }
            for point in trace {
                try db.execute(sql: "INSERT INTO trace VALUES (?, ?, ?)", arguments: [session, point.time, point.midi])
            }
        }
    }

    /// Marks a session as ended, with how its audio devices fared if it was live: sung to its end, or
    /// `interrupted` where it stopped (quit, a signal, a failure), keeping what was sung; a take `aligned` by
    /// that many seconds to fit the score.
    public func finish(
        session: Int64, audio: AudioHealth? = nil, interrupted: SessionReport.Interruption? = nil, aligned: Double? = nil
    ) throws(Failure) {
        try attempt { db in
            try db.execute(
                sql: "UPDATE session SET finished = ?, audio = ?, stopped = ?, aligned = ? WHERE id = ?",
                arguments: [
                    interrupted == nil, try audio.map { try Self.json($0) }, try interrupted.map { try Self.json($0) }, aligned, session,
                ])
        }
    }

    /// Sessions, oldest first; of one score when given (``ScoreIdentity/holds(hash:path:name:lines:)``).
    public func sessions(of score: ScoreIdentity? = nil) throws(Failure) -> [Session] {
        try attempt { db in
            // How long each session is: what each pass's judged notes span, added up.
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT s.id, s.score, s.score_hash, s.score_path, s.title, s.part, s.started, s.tempo, s.finished, s.kind,
                           s.transpose, s.measures, COALESCE(MAX(r.pass), 0) AS passes, COUNT(r.idx) AS notes,
                           COALESCE(SUM(r.verdict = 'correct'), 0) AS correct, COALESCE(SUM(r.verdict != 'missing'), 0) AS heard,
                           EXISTS (SELECT 1 FROM trace t WHERE t.session = s.id) AS traced,
                           (SELECT COALESCE(SUM(last - first), 0) FROM (
                               SELECT MIN(json_extract(note, '$.onset')) AS first,
                                      MAX(json_extract(note, '$.onset') + json_extract(note, '$.duration')) AS last
                               FROM result WHERE session = s.id GROUP BY pass)) AS seconds
                    FROM session s LEFT JOIN result r ON r.session = s.id GROUP BY s.id ORDER BY s.started, s.id
                    """)
            return try rows.map { row in
                let measures = try JSONDecoder().decode([MeasureMark].self, from: Data((row["measures"] as String).utf8))
                return Session(
                    id: row["id"], score: row["score"], hash: row["score_hash"], path: row["score_path"] ?? row["score"],
                    title: row["title"], part: row["part"], started: Date(timeIntervalSince1970: row["started"]), tempo: row["tempo"],
                    notes: row["notes"], correct: row["correct"], passes: row["passes"], finished: row["finished"],
                    kind: (row["kind"] as String?).flatMap(SessionReport.Kind.init(rawValue:)), transpose: row["transpose"],
                    range: measures.first.map { ($0.number, measures.last!.number) }, seconds: row["seconds"],
                    sung: row["heard"] as Int > 0 || row["traced"] as Bool)
            }.filter { session in
                score.map { $0.holds(hash: session.hash, path: session.path, name: session.title, lines: session.lines) } ?? true
            }
        }
    }

    /// The sessions of `part` of `score` that count in its trend (``Session/inTrend``), oldest first.
    public func trend(of score: ScoreIdentity, part: String) throws(Failure) -> [Session] {
        try sessions(of: score).filter { $0.part.lowercased() == part.lowercased() && $0.inTrend }
    }

    /// Deletes the session numbered `id`, with its notes and trace; returns it as it was.
    public func delete(session id: Int64) throws(Failure) -> Session {
        guard let session = try sessions().first(where: { $0.id == id }) else {
            throw Failure(
                path: path, kind: .noSuchSession, reason: "no session \(id): expected the number of a stored session (`choir history`)")
        }
        try remove([id])
        return session
    }

    /// Deletes every session in which nothing was sung (no note heard, no pitch traced: a take that was missing, a
    /// device that did not open, as earlier choirs kept them); returns them.
    public func prune() throws(Failure) -> [Session] {
        let empty = try sessions().filter { !$0.sung }
        try remove(empty.map(\.id))
        return empty
    }

    private func remove(_ ids: [Int64]) throws(Failure) {
        try attempt { db in
            for id in ids {
                for table in ["result", "trace"] { try db.execute(sql: "DELETE FROM \(table) WHERE session = ?", arguments: [id]) }
                try db.execute(sql: "DELETE FROM session WHERE id = ?", arguments: [id])
            }
        }
    }

    /// A stored session, rebuilt as a report; without `trace`, without its pitch trace (a trend needs the notes
    /// alone, and a long session's trace is most of the file).
    public func report(session: Int64, trace: Bool = true) throws(Failure) -> SessionReport {
        var report = try storedReport(session: session, trace: trace)
        // A session from before hashes whose file was not found has the marks made on its path as it was given.
        report.keep(
            try marks(lines: report.lines).filter { mark in
                report.identity.map { $0.holds(hash: mark.hash, path: mark.path) } ?? (mark.hash == nil && mark.score == report.score)
            })
        return report
    }

    private func storedReport(session: Int64, trace withTrace: Bool) throws(Failure) -> SessionReport {
        try attempt { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM session WHERE id = ?", arguments: [session]) else {
                throw Failure(path: path, kind: .noSuchSession, reason: "no session \(session): expected the number of a stored session")
            }
            let decoder = JSONDecoder()
            let results = try Row.fetchAll(db, sql: "SELECT * FROM result WHERE session = ? ORDER BY pass, rowid", arguments: [session])
                .map { row in
                    NoteResult(
                        note: try decoder.decode(ExpectedNote.self, from: Data((row["note"] as String).utf8)),
                        verdict: Verdict(rawValue: row["verdict"]) ?? .missing, medianCents: row["median_cents"],
                        onsetError: row["onset_error"], inTunePercent: row["in_tune_pct"],
                        evidence: try (row["evidence"] as String?).map {
                            try decoder.decode(NoteResult.Evidence.self, from: Data($0.utf8))
                        },
                        pass: row["pass"])
                }
            let trace =
                withTrace
                ? try Row.fetchAll(db, sql: "SELECT time, midi FROM trace WHERE session = ? ORDER BY time", arguments: [session])
                    .map { TracePoint(time: $0["time"], midi: $0["midi"]) } : []
            var report = SessionReport(
                score: row["score"], part: row["part"], tempo: row["tempo"], tempoPercent: row["tempo_percent"],
                options: try decoder.decode(NoteComparator.Options.self, from: Data((row["options"] as String).utf8)),
                results: results, trace: trace,
                measureStarts: try decoder.decode([MeasureMark].self, from: Data((row["measures"] as String).utf8)),
                audio: try (row["audio"] as String?).map { try decoder.decode(AudioHealth.self, from: Data($0.utf8)) })
            report.title = row["title"]
            if let hash = row["score_hash"] as String? { report.identity = ScoreIdentity(hash: hash, path: row["score_path"]) }
            report.kind = (row["kind"] as String?).flatMap(SessionReport.Kind.init(rawValue:))
            report.transpose = row["transpose"]
            report.verse = row["verse"]
            report.divisi = try (row["divisi"] as String?).map { try decoder.decode(SessionReport.DivisiChoice.self, from: Data($0.utf8)) }
            report.lyrics =
                try (row["lyrics"] as String?).map { try decoder.decode([Schedule.SungSyllable].self, from: Data($0.utf8)) } ?? []
            report.alignment = row["aligned"]
            report.interruption = try (row["stopped"] as String?).map {
                try decoder.decode(SessionReport.Interruption.self, from: Data($0.utf8))
            }
            // Cut off without a word (killed, or the machine went down): it stopped after its last note kept, in its
            // pass of a number not kept.
            if report.interruption == nil, !(row["finished"] as Bool), let last = results.last {
                report.interruption = SessionReport.Interruption(measure: last.note.measure, pass: last.pass, passes: nil, notes: nil)
            }
            return report
        }
    }

    /// What the score kept under `hash` and `path` is called: as its file names it (``Score/name(file:)``) when it
    /// can be read, else as its latest session does, else by its file's name.
    public func name(hash: String?, path: String) throws(Failure) -> String {
        if FileName.exists(path) { return ScoreReader.name(ofFile: path) }
        let kept = try sessions().last { ($0.hash != nil && $0.hash == hash) || $0.path == path }
        return kept?.piece ?? Score.fileName(path)
    }

    /// The report of the latest session of `part` of `score` in its trend, if there is one.
    public func latestReport(of score: ScoreIdentity, part: String) throws(Failure) -> SessionReport? {
        guard let last = try trend(of: score, part: part).last else { return nil }
        return try report(session: last.id)
    }

    /// A session's day as choir prints it, where the singer is (`zone`): "2026-11-24".
    public static func day(_ date: Date, in zone: TimeZone = .current) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: zone).year().month().day().dateSeparator(.dash))
    }

    /// When a session started, to the minute, where the singer is (`zone`): "2026-11-24 18:05".
    public static func time(_ date: Date, in zone: TimeZone = .current) -> String {
        String(
            date.formatted(
                Date.ISO8601FormatStyle(timeZone: zone).year().month().day().dateSeparator(.dash).dateTimeSeparator(.space)
                    .time(includingFractionalSeconds: false).timeSeparator(.colon)
            ).prefix(16))
    }

    func attempt<T>(_ work: (Database) throws -> T) throws(Failure) -> T { try Self.write(database, path: path, work) }

    /// Runs `work` in a transaction of `database` (the history's file at `path`); any error comes out as a failure
    /// a front end can act on.
    public static func write<T>(_ database: DatabaseQueue, path: String, _ work: (Database) throws -> T) throws(Failure) -> T {
        do {
            return try database.write(work)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Self.failure(error, path: path)
        }
    }

    /// `error` from the database at `path`, as a failure a front end can act on.
    public static func failure(_ error: any Error, path: String) -> Failure {
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return Failure(path: path, kind: .locked, reason: "the history database is locked by another program")
            case .SQLITE_CORRUPT, .SQLITE_NOTADB:
                return Failure(path: path, kind: .corrupt, reason: "the history database is corrupt (not an SQLite database)")
            default:
                return Failure(
                    path: path, kind: .unusable, reason: "the history database cannot be used (\(error.message ?? "\(error.resultCode)"))")
            }
        }
        return Failure(path: path, kind: .unusable, reason: "the history database cannot be used (\(error))")
    }

    private static func json(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }
}

extension String {
    fileprivate func ifEmpty(_ other: String) -> String { isEmpty ? other : self }
}
