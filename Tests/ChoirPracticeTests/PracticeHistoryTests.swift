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
            try db.execute(sql: """
                CREATE TABLE session (
                    id INTEGER PRIMARY KEY AUTOINCREMENT, score TEXT NOT NULL, part TEXT NOT NULL,
                    started REAL NOT NULL, tempo REAL NOT NULL, tempo_percent REAL NOT NULL,
                    options TEXT NOT NULL, measures TEXT NOT NULL, finished INTEGER NOT NULL DEFAULT 0)
                """)
            try db.execute(
                sql: "INSERT INTO session (score, part, started, tempo, tempo_percent, options, measures, finished) VALUES ('old.musicxml', 'Alto', 0, 90, 100, ?, '[]', 1)",
                arguments: [options])
        }
        let history = try PracticeHistory(path: path)
        #expect(try history.report(session: 1).audio == nil)
        let id = try history.begin(Self.header)
        try history.finish(session: id, audio: AudioHealth(underruns: 0, overruns: 0, droppedSamples: 0))
        #expect(try history.report(session: id).audio == AudioHealth(underruns: 0, overruns: 0, droppedSamples: 0))
        #expect(try history.sessions().map(\.part) == ["Alto", "Tenor"])
    }
}
