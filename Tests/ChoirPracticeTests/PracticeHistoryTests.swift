import ChoirPractice
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
}
