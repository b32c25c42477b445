import ChoirPractice
import Foundation
import Testing

/// `choir report N`: a stored session's report as a singer reads it, in the terminal's width.
struct ReportCommandTests {
    /// A session of a long piece, 125 measures of a note each (every seventh wrong, every eleventh flat: each a
    /// measure at 0%), each note
    /// over the bass a third (sung as the piano plays it), a fifth (14 cents flat), or an octave (in tune).
    static func longSession() throws -> String {
        let data = try PracticeCommandTests.dataHome()
        let history = try PracticeHistory(path: data + "/choir/history.sqlite")
        let results = (1...125).map { measure in
            let interval = [16, 19, 24][measure % 3]
            return NoteResult(
                note: ExpectedNote(
                    index: measure - 1, measure: "\(measure)", measureIndex: measure - 1, onset: Double(measure - 1) * 2, duration: 2,
                    midi: 60,
                    isEntrance: true, others: [ExpectedNote.Other(line: "Bass", midi: 60 - interval)]),
                verdict: measure % 7 == 0 ? .wrong : measure % 11 == 0 ? .flat : .correct,
                medianCents: measure % 7 == 0 ? 300 : measure % 11 == 0 ? -40 : interval == 19 ? -14 : 0, onsetError: 0.01,
                inTunePercent: 90)
        }
        var report = SessionReport(
            score: "long.musicxml", part: "Tenor", tempo: 60, options: NoteComparator.Options(), results: [], trace: [],
            measureStarts: (1...125).map { MeasureMark(number: "\($0)", time: Double($0 - 1) * 2) })
        report.title = "Long"
        let id = try history.begin(report)
        try history.record(results, trace: [TracePoint(time: 0.5, midi: 60)], session: id)
        try history.finish(session: id)
        return data
    }

    /// The heat map of 125 measures is two rows of whole tens (four in 60 columns), each headed by its measure, within the width;
    /// against the chord, the two intervals sung furthest off; `--verbose` gives every interval.
    @Test func aLongPieceKeepsToTheWidth() throws {
        let data = try Self.longSession()
        let report = try CLI.run(["report", "1"], environment: ["XDG_DATA_HOME": data, "COLUMNS": "100"])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout == (try CLI.golden("report-long-piece.txt", report.stdout)))
        func heatMap(_ text: String) -> [Substring] {
            text.split(separator: "\n").filter { $0.hasPrefix("Measures:") || $0.hasPrefix("          m. ") }
        }
        #expect(heatMap(report.stdout).count == 2 && heatMap(report.stdout).allSatisfy { $0.count <= 100 })
        let verbose = try CLI.run(["report", "1", "--verbose"], environment: ["XDG_DATA_HOME": data, "COLUMNS": "100"])
        #expect(verbose.stdout == (try CLI.golden("report-long-piece-verbose.txt", verbose.stdout)))
        let narrow = try CLI.run(["report", "1"], environment: ["XDG_DATA_HOME": data, "COLUMNS": "60"])
        #expect(
            narrow.stdout.contains("\nMeasures: m. 1   ██████░███ ░██░██████ ░░█████░██ ██░█░█████\n          m. 41  "), "\(narrow.stdout)")
        #expect(heatMap(narrow.stdout).count == 4 && heatMap(narrow.stdout).allSatisfy { $0.count <= 60 })
    }
}
