import ChoirPractice
import ChoirScore
import Foundation
import GRDB
import Testing

struct PracticeHistoryTests {
    static func temporaryPath() -> String {
        NSTemporaryDirectory() + "choir-history-\(UUID().uuidString)/history.sqlite"
    }

    static let header = SessionReport(
        score: "piece.musicxml", part: "Tenor", tempo: 80, options: NoteComparator.Options(), results: [], trace: [],
        measureStarts: [MeasureMark(number: "1", time: 0)])

    static let result = NoteResult(
        note: ExpectedNote(index: 0, measure: "1", measureIndex: 0, onset: 0, duration: 0.75, midi: 55, isEntrance: true),
        verdict: .flat, medianCents: -38, onsetError: 0.02, inTunePercent: 12)

    /// A stored session comes back as the report it was: notes, trace, and how a live session's audio fared.
    @Test func aSessionComesBackWithItsAudioRecord() throws {
        let history = try PracticeHistory(path: Self.temporaryPath())
        let id = try history.begin(Self.header)
        try history.record([Self.result], trace: [TracePoint(time: 0.1, midi: 54.6)], session: id)
        let audio = AudioHealth(underruns: 2, overruns: 1, droppedSamples: 256, error: "pulse: the device is gone")
        try history.finish(session: id, audio: audio)
        var expected = Self.header
        expected.results = [Self.result]
        expected.trace = [TracePoint(time: 0.1, midi: 54.6)]
        expected.audio = audio
        #expect(try history.report(session: id) == expected)
        #expect(try history.sessions().map(\.finished) == [true])
    }

    /// A history written before sessions kept their audio record opens, keeps its sessions, and takes new ones.
    @Test func anOlderHistoryGainsTheAudioColumn() throws {
        let path = Self.temporaryPath()
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let options = String(decoding: try JSONEncoder().encode(NoteComparator.Options()), as: UTF8.self)
        try DatabaseQueue(path: path).write { db in
            try db.execute(
                sql: """
                    CREATE TABLE session (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, score TEXT NOT NULL, part TEXT NOT NULL,
                        started REAL NOT NULL, tempo REAL NOT NULL, tempo_percent REAL NOT NULL,
                        options TEXT NOT NULL, measures TEXT NOT NULL, finished INTEGER NOT NULL DEFAULT 0)
                    """)
            try db.execute(
                sql:
                    "INSERT INTO session (score, part, started, tempo, tempo_percent, options, measures, finished) VALUES ('old.musicxml', 'Alto', 0, 90, 100, ?, '[]', 1)",
                arguments: [options])
        }
        let history = try PracticeHistory(path: path)
        #expect(try history.report(session: 1).audio == nil)
        let id = try history.begin(Self.header)
        try history.finish(session: id, audio: AudioHealth(underruns: 0, overruns: 0, droppedSamples: 0))
        #expect(try history.report(session: id).audio == AudioHealth(underruns: 0, overruns: 0, droppedSamples: 0))
        #expect(try history.sessions().map(\.part) == ["Alto", "Tenor"])
    }

    /// A note sung twice (a loop) is two results, each in its pass, and the session's report gives them back in
    /// the order they were sung.
    @Test func everyPassIsKept() throws {
        let history = try PracticeHistory(path: Self.temporaryPath())
        let id = try history.begin(Self.header)
        var again = Self.result
        again.pass = 2
        again.verdict = .correct
        try history.record([Self.result], trace: [], session: id)
        try history.record([again], trace: [], session: id)
        try history.finish(session: id)
        let report = try history.report(session: id)
        #expect(report.results == [Self.result, again])
        #expect(report.passes.map(\.number) == [1, 2] && report.accuracy == 50)
        #expect(try history.sessions().map(\.passes) == [2])
        #expect(try history.sessions().map(\.notes) == [2])
    }

    /// A history from before passes were kept (one result per note) opens with its results in pass 1, and the
    /// migration is recorded so that it runs once.
    @Test func aHistoryFromBeforePassesIsMigrated() throws {
        let path = Self.temporaryPath()
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let options = String(decoding: try JSONEncoder().encode(NoteComparator.Options()), as: UTF8.self)
        let note = String(decoding: try JSONEncoder().encode(Self.result.note), as: UTF8.self)
        try DatabaseQueue(path: path).write { db in
            try db.execute(
                sql: """
                    CREATE TABLE session (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, score TEXT NOT NULL, part TEXT NOT NULL,
                        started REAL NOT NULL, tempo REAL NOT NULL, tempo_percent REAL NOT NULL,
                        options TEXT NOT NULL, measures TEXT NOT NULL, finished INTEGER NOT NULL DEFAULT 0, audio TEXT);
                    CREATE TABLE result (
                        session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE, note TEXT NOT NULL,
                        idx INTEGER NOT NULL, measure TEXT NOT NULL, verdict TEXT NOT NULL, median_cents REAL,
                        onset_error REAL, in_tune_pct REAL NOT NULL, evidence TEXT, PRIMARY KEY (session, idx));
                    CREATE TABLE trace (session INTEGER NOT NULL, time REAL NOT NULL, midi REAL NOT NULL);
                    """)
            try db.execute(
                sql:
                    "INSERT INTO session (score, part, started, tempo, tempo_percent, options, measures, finished) VALUES ('old.musicxml', 'Alto', 0, 90, 100, ?, '[]', 1)",
                arguments: [options])
            try db.execute(
                sql: "INSERT INTO result VALUES (1, ?, 0, '1', 'flat', -38, 0.02, 12, NULL)", arguments: [note])
            // A live session of the time: only live sessions kept an audio record.
            try db.execute(
                sql:
                    "INSERT INTO session (score, part, started, tempo, tempo_percent, options, measures, finished, audio) VALUES ('old.musicxml', 'Alto', 1, 90, 100, ?, '[]', 1, '{}')",
                arguments: [options])
        }
        let history = try PracticeHistory(path: path)
        #expect(try history.report(session: 1).results == [Self.result])
        #expect(try history.sessions().map(\.passes) == [1, 0])
        #expect(try history.sessions().map(\.kind) == [nil, .live])
        #expect(try history.sessions().map(\.transpose) == [0, 0])
        // Opened again, nothing is migrated twice.
        #expect(try PracticeHistory(path: path).report(session: 1).results == [Self.result])
        let applied = try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(
            applied == [
                "sessions, results and traces", "every pass kept", "title, kind, transposition, verse and divisi", "practice marks",
                "where an interrupted session stopped",
                "sessions and marks keyed by their score's content", "library", "rehearsal plans",
                "how far a take was moved to fit the score",
            ])
    }

    /// A session keeps how it was sung, its key and its range, and `sessions()` lists them.
    @Test func aSessionKeepsHowItWasSungItsKeyAndRange() throws {
        let history = try PracticeHistory(path: Self.temporaryPath())
        var header = Self.header
        header.kind = .drill
        header.transpose = -3
        header.title = "Piece"
        header.verse = 2
        header.divisi = SessionReport.DivisiChoice(note: .lower, chords: 3)
        header.measureStarts = [MeasureMark(number: "5", time: 0), MeasureMark(number: "6", time: 2), MeasureMark(number: "7", time: 4)]
        let id = try history.begin(header)
        try history.finish(session: id)
        let session = try #require(try history.sessions().first)
        #expect(session.kind == .drill && session.transpose == -3)
        #expect(session.range.map { [$0.first, $0.last] } == ["5", "7"])
        #expect(try history.report(session: id) == header)
        #expect(header.range.map { [$0.first, $0.last] } == ["5", "7"] && header.transposition == "transposed down 3 semitones")
    }

    /// A history that has some of a migration's columns already (a development build added them) still opens: each
    /// column is added only if missing.
    @Test func aHistoryWithSomeNewColumnsAlreadyOpens() throws {
        let path = Self.temporaryPath()
        _ = try PracticeHistory(path: path)
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'title, kind, transposition, verse and divisi'")
            try db.execute(sql: "ALTER TABLE session DROP COLUMN divisi")
        }
        let history = try PracticeHistory(path: path)
        var header = Self.header
        header.divisi = SessionReport.DivisiChoice(note: .upper, chords: 1)
        header.kind = .live
        let id = try history.begin(header)
        #expect(try history.report(session: id) == header)
    }

    /// A history of 40 sessions with random bytes over four of its pages in the middle (a page of sessions, one of
    /// notes and two of the pitch trace): the first opening finds it damaged, moves it aside with a timestamp and
    /// starts a new one; recovering copies back every row that is not on a damaged page, under new session
    /// numbers after the new history's own, each session's report as it was less the rows lost, and the notes of
    /// a session whose own row was lost counted as orphaned. Recovering twice adds nothing.
    @Test func aDamagedHistoryIsSetAsideAndEveryReadableRowRecovered() throws {
        let path = Self.temporaryPath()
        var originals: [Int64: SessionReport] = [:]
        do {
            let history = try PracticeHistory(path: path)
            _ = try history.add(
                PracticeMark(score: "piece-0.musicxml", identity: Self.piece(0), line: "Tenor", measure: "1", text: "breathe"))
            for n in 0..<40 {
                var header = Self.header
                header.score = "piece-\(n % 3).musicxml"
                // Half the sessions keyed by their score's content, half as a history from before content keys has them.
                if n % 2 == 0 { header.identity = Self.piece(n % 3) }
                let id = try history.begin(header, started: Date(timeIntervalSince1970: 1_700_000_000 + Double(n) * 3600))
                let results = (0..<30).map { index -> NoteResult in
                    var result = Self.result
                    result.note.index = index
                    result.note.onset = Double(index)
                    result.medianCents = Double((n * 31 + index * 7) % 90 - 45)
                    result.verdict = [.correct, .flat, .sharp, .late][(n + index) % 4]
                    return result
                }
                let trace = (0..<300).map { TracePoint(time: Double($0) * 0.1, midi: 55 + Double(($0 + n) % 20) / 10) }
                try history.record(results, trace: trace, session: id)
                try history.finish(session: id)
                originals[id] = try history.report(session: id)
            }
        }
        // Which rows each page holds, and the page size, read before the damage.
        let (pages, rowids, pageSize) = try DatabaseQueue(path: path).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            let leaves = try Row.fetchAll(
                db,
                sql: "SELECT name, pageno FROM dbstat WHERE name IN ('session', 'result', 'trace') AND pagetype = 'leaf' ORDER BY pageno")
            var byTable: [String: [Int]] = [:]
            for leaf in leaves { byTable[leaf["name"], default: []].append(leaf["pageno"]) }
            var rowids: [String: [Int64: Int64]] = [:]
            for table in ["result", "trace"] {
                rowids[table] = Dictionary(
                    uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT rowid, session FROM \(table)").map { ($0[0], $0[1]) })
            }
            return (byTable, rowids, try Int.fetchOne(db, sql: "PRAGMA page_size")!)
        }
        let damaged = [
            ("session", pages["session"]!), ("result", pages["result"]!), ("trace", pages["trace"]!),
            ("trace", pages["trace"]!.dropFirst(7).map { $0 }),
        ]
        .map { (table: $0.0, page: $0.1[$0.1.count / 2]) }
        var file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var lost: [String: Set<Int64>] = [:]
        var random = SystemRandomNumberGenerator()
        for (table, page) in damaged {
            let start = (page - 1) * pageSize
            lost[table, default: []].formUnion(Self.rowids(onLeaf: Array(file[start..<(start + pageSize)])))
            for i in start..<(start + pageSize) { file[i] = UInt8.random(in: 0...255, using: &random) }
        }
        try Data(file).write(to: URL(fileURLWithPath: path))
        #expect(lost.values.allSatisfy { !$0.isEmpty }, "\(lost)")

        // Opened, it is set aside, and a new, empty history takes its place.
        let history = try PracticeHistory(path: path)
        let aside = try #require(DamagedHistory.setAside(at: path))
        #expect(aside.problem.hasPrefix("quick_check: ") || aside.problem.contains("malformed"), "\(aside.problem)")
        #expect(aside.movedTo.hasPrefix(String(path.dropLast(".sqlite".count)) + "-damaged-") && aside.movedTo.hasSuffix(".sqlite"))
        #expect(FileManager.default.fileExists(atPath: aside.movedTo))
        #expect(try history.sessions().isEmpty)
        let newer = try history.begin(Self.header)
        try history.finish(session: newer)

        let recovered = try history.recover(from: DamagedHistoryReader(path: aside.movedTo))
        let lostSessions = lost["session"]!
        let kept = originals.keys.filter { !lostSessions.contains($0) }.sorted()
        #expect(recovered.sessions == kept.count && kept.count == 40 - lostSessions.count)
        #expect(Set(recovered.sessionNumbers.keys) == Set(kept) && recovered.sessionNumbers.values.allSatisfy { $0 > newer })
        for old in kept {
            let report = try history.report(session: try #require(recovered.sessionNumbers[old]))
            let original = originals[old]!
            let resultRowids = rowids["result"]!.filter { $0.value == old }.keys.sorted()
            let traceRowids = rowids["trace"]!.filter { $0.value == old }.keys.sorted()
            var expected = original
            expected.results = zip(resultRowids, original.results).filter { !lost["result"]!.contains($0.0) }.map(\.1)
            expected.trace = zip(traceRowids, original.trace).filter { !lost["trace"]!.contains($0.0) }.map(\.1)
            #expect(report == expected, "session \(old)")
        }
        let keptResults = rowids["result"]!.filter { !lostSessions.contains($0.value) && !lost["result"]!.contains($0.key) }.count
        let keptTrace = rowids["trace"]!.filter { !lostSessions.contains($0.value) && !lost["trace"]!.contains($0.key) }.count
        let orphans = rowids.values.flatMap { $0 }.filter { lostSessions.contains($0.value) }.count { row in
            !lost["result"]!.contains(row.key) && !lost["trace"]!.contains(row.key)
        }
        #expect(recovered.results == keptResults && recovered.tracePoints == keptTrace && recovered.marks == 1)
        // The mark is still the piece's, by its content.
        #expect(try history.marks(of: ScoreIdentity(hash: Self.piece(0).hash, path: "/moved/piece.musicxml")).map(\.text) == ["breathe"])
        #expect(recovered.orphaned <= orphans && recovered.orphaned > 0, "\(recovered.orphaned) of \(orphans)")
        #expect(try history.sessions().count == kept.count + 1)

        let again = try history.recover(from: DamagedHistoryReader(path: aside.movedTo))
        #expect(again.sessions == 0 && again.results == 0 && again.tracePoints == 0 && again.marks == 0 && again.alreadyThere == kept.count)
        #expect(try history.sessions().count == kept.count + 1)
    }

    /// The content key of "piece-N.musicxml", as the damaged history keeps it.
    static func piece(_ n: Int) -> ScoreIdentity {
        ScoreIdentity(hash: String(repeating: "0", count: 15) + "\(n)", path: "/scores/piece-\(n).musicxml")
    }

    /// A file that is not a database at all (its header overwritten) is set aside too; recovering from it says it
    /// cannot be read at all.
    @Test func aFileThatIsNoDatabaseIsSetAside() throws {
        let path = Self.temporaryPath()
        _ = try PracticeHistory(path: path).begin(Self.header)
        var file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for i in 0..<100 { file[i] = UInt8(truncatingIfNeeded: i &* 37) }
        try Data(file).write(to: URL(fileURLWithPath: path))
        try? FileManager.default.removeItem(atPath: path + "-wal")
        let history = try PracticeHistory(path: path)
        let aside = try #require(DamagedHistory.setAside(at: path))
        #expect(try history.sessions().isEmpty)
        #expect(throws: PracticeHistory.Failure.self) { try DamagedHistoryReader(path: aside.movedTo) }
    }

    /// The rowids of the cells of a table's leaf page (SQLite's file format: the page type 13, the cell count at
    /// offset 3, the cells' offsets from offset 8, each cell a payload size and a rowid as varints).
    static func rowids(onLeaf page: [UInt8]) -> [Int64] {
        guard page[0] == 13 else { return [] }
        func varint(_ at: inout Int) -> Int64 {
            var value: Int64 = 0
            for i in 0..<9 {
                let byte = page[at]
                at += 1
                if i == 8 { return value << 8 | Int64(byte) }
                value = value << 7 | Int64(byte & 0x7F)
                if byte & 0x80 == 0 { break }
            }
            return value
        }
        let cells = Int(page[3]) << 8 | Int(page[4])
        return (0..<cells).map { cell in
            var at = Int(page[8 + 2 * cell]) << 8 | Int(page[9 + 2 * cell])
            _ = varint(&at)
            return varint(&at)
        }
    }

    /// A session of `notes` results `verdict`, a note a second from `start` in each of `passes` passes, with a trace
    /// point per note unless `traced` is false.
    static func stored(
        _ history: PracticeHistory, score: ScoreIdentity?, part: String = "Tenor", notes: Int, passes: Int = 1, verdict: Verdict = .correct,
        traced: Bool = true, completed: Bool = true
    ) throws -> Int64 {
        var header = Self.header
        header.part = part
        header.identity = score
        let id = try history.begin(header)
        let results = (1...passes).flatMap { pass in
            (0..<notes).map { index in
                NoteResult(
                    note: ExpectedNote(
                        index: index, measure: "\(index + 1)", measureIndex: index, onset: Double(index), duration: 1, midi: 60,
                        isEntrance: true),
                    verdict: verdict, medianCents: 0, onsetError: 0, inTunePercent: 100, pass: pass)
            }
        }
        try history.record(results, trace: traced ? results.map { TracePoint(time: $0.note.onset, midi: 60) } : [], session: id)
        try history.finish(
            session: id,
            interrupted: completed ? nil : SessionReport.Interruption(measure: "\(notes)", pass: passes, passes: passes, notes: nil))
        return id
    }

    /// A session's length is what each pass's judged notes span, added up; an interrupted one of a few seconds is
    /// left out of the trend, and one in which nothing was sung is told apart.
    @Test func briefAndSilentSessionsAreToldApart() throws {
        let history = try PracticeHistory(path: Self.temporaryPath())
        let score = ScoreIdentity(hash: "0123456789abcdef", path: "/scores/hymn.musicxml")
        let whole = try Self.stored(history, score: score, notes: 12)
        let looped = try Self.stored(history, score: score, notes: 4, passes: 3, completed: false)
        let brief = try Self.stored(history, score: score, notes: 4, verdict: .wrong, completed: false)
        let short = try Self.stored(history, score: score, notes: 4)
        let silent = try Self.stored(history, score: score, notes: 12, verdict: .missing, traced: false, completed: false)
        let other = try Self.stored(history, score: score, part: "Alto", notes: 12)
        let sessions = Dictionary(uniqueKeysWithValues: try history.sessions().map { ($0.id, $0) })
        #expect([whole, looped, brief, short, silent].map { sessions[$0]!.seconds } == [12, 12, 4, 4, 12])
        #expect([whole, looped, brief, short, silent].map { sessions[$0]!.isBrief } == [false, false, true, false, false])
        #expect([whole, looped, brief, short, silent].map { sessions[$0]!.sung } == [true, true, true, true, false])
        #expect([whole, looped, brief, short, silent].map { sessions[$0]!.finished } == [true, false, false, true, false])
        #expect(try history.trend(of: score, part: "tenor").map(\.id) == [whole, looped, short])
        #expect(try history.latestReport(of: score, part: "Tenor")?.results.count == 4)
        #expect(try history.trend(of: score, part: "Alto").map(\.id) == [other])

        #expect(try history.prune().map(\.id) == [silent])
        #expect(try history.delete(session: brief).id == brief)
        #expect(try history.sessions().map(\.id) == [whole, looped, short, other])
        #expect(try history.report(session: looped).results.count == 12)
        #expect(throws: PracticeHistory.Failure.self) { try history.delete(session: brief) }
        #expect(try history.prune().isEmpty)
    }

    /// Sessions belong to their score's content: a copy moved and renamed keeps them, an edited file at the same
    /// path keeps them, another file of the same name has its own; a session stored without a hash is found by the
    /// relative path it was typed as.
    @Test func sessionsFollowTheScoreItself() throws {
        let history = try PracticeHistory(path: Self.temporaryPath())
        let hymn = ScoreIdentity(hash: "00000000000000aa", path: "/choir/a/hymn.musicxml")
        let other = ScoreIdentity(hash: "00000000000000bb", path: "/choir/b/hymn.musicxml")
        let first = try Self.stored(history, score: hymn, notes: 12)
        let second = try Self.stored(history, score: other, notes: 12)
        let legacy = try Self.stored(history, score: nil, notes: 12)
        var header = Self.header
        header.score = "a/hymn.musicxml"
        let typed = try history.begin(header)
        #expect(try history.sessions(of: hymn).map(\.id) == [first, typed])
        #expect(try history.sessions(of: other).map(\.id) == [second])
        let moved = ScoreIdentity(hash: hymn.hash, path: "/elsewhere/renamed.musicxml")
        #expect(try history.sessions(of: moved).map(\.id) == [first])
        let edited = ScoreIdentity(hash: "00000000000000cc", path: hymn.path)
        #expect(try history.sessions(of: edited).map(\.id) == [first, typed])
        let sessions = try history.sessions()
        #expect(sessions.map(\.key) == [hymn.hash, other.hash, "piece.musicxml", "a/hymn.musicxml"])
        #expect(try history.sessions(of: ScoreIdentity(hash: "00000000000000dd", path: "/x/piece.musicxml")).map(\.id) == [legacy])
        // The file is not here: the piece is named as its latest session was, by the file it was given as.
        #expect(try history.name(hash: hymn.hash, path: hymn.path) == "piece")
    }
}
