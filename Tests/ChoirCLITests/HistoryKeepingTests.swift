import ChoirAudio
import ChoirPractice
import ChoirScore
import ChoirTestSupport
import Foundation
import Testing

/// What the history keeps: only sessions in which something was sung; an interrupted one as such, and out of the
/// trend when it lasted a few seconds.
struct HistoryKeepingTests {
    /// A take that is missing, a device that does not open, a line the score does not have, and a take of silence:
    /// none of them leaves a session.
    @Test func sessionsThatNeverBeganLeaveNothing() throws {
        let data = try PracticeCommandTests.dataHome()
        let silence = data + "/silence.wav"
        try AudioFile.write([Float](repeating: 0, count: 48_000 * 40), sampleRate: 48_000, to: silence)
        let attempts: [([String], Int32)] = [
            (["--part", "T", "--input", data + "/missing.wav"], 66), (["--part", "T", "--input", "nonexistent"], 69),
            (["--part", "Tenr", "--input", PracticeCommandTests.take], 64), (["--part", "T", "--input", silence], 0),
        ]
        for (arguments, status) in attempts {
            let result = try CLI.run(["practice", CLI.example] + arguments, environment: ["XDG_DATA_HOME": data])
            #expect(result.status == status, "\(arguments): \(result.stderr)")
        }
        let history = try CLI.run(["history"], environment: ["XDG_DATA_HOME": data])
        #expect(
            history.status == 0 && history.stdout == "No sessions yet: `choir practice SCORE --part LINE` sings one.\n", "\(history.stdout)"
        )
    }

    /// Two whole sessions and one interrupted after two notes (4 s, both wrong): the short one is listed as what it
    /// was, but the weakest measures, the coach and the progress page go by the other two.
    @Test func aFewSecondsAreLeftOutOfTheTrend() throws {
        let data = try PracticeCommandTests.dataHome()
        try PlantedSession.musicXML.write(toFile: data + "/" + PlantedSession.file, atomically: true, encoding: .utf8)
        let history = try PracticeHistory(path: data + "/choir/history.sqlite")
        let day = 1_793_000_000.0
        for (index, completed) in [true, true, false].enumerated() {
            var report = PlantedSession.make { result in
                if index == 0 && result.note.measureIndex >= 12 { result.verdict = .wrong }
            }
            if !completed {
                report.results = report.results.prefix(2).map {
                    var result = $0
                    result.verdict = .wrong
                    return result
                }
            }
            let id = try history.begin(report, started: Date(timeIntervalSince1970: day + Double(index) * 86_400))
            try history.record(report.results, trace: [TracePoint(time: 0.5, midi: 60)], session: id)
            try history.finish(
                session: id, interrupted: completed ? nil : SessionReport.Interruption(measure: "2", pass: 1, passes: 1, notes: nil))
        }
        let environment = ["XDG_DATA_HOME": data]
        let listed = try CLI.run(["history", "piece.musicxml"], environment: environment, directory: data)
        #expect(
            listed.stdout == """
                Piece — piece.musicxml
                  Tenor
                    #1    2026-10-26 07:33  ♩=60          mm. 1–16     75.0% ███████████████
                    #2    2026-10-27 07:33  ♩=60          mm. 1–16    100.0% ████████████████████
                    #3    2026-10-28 07:33  ♩=60          mm. 1–16      0.0%   (interrupted, 4 s: too short for the trend)
                    Weakest measures over the last 2 sessions:
                      m. 13   0% → 100%  (50% in all)
                      m. 14   0% → 100%  (50% in all)
                      m. 15   0% → 100%  (50% in all)

                """, "\(listed.stdout)")
        // Times are the singer's own: an hour on in Berlin that autumn (where the time zones are installed).
        if FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/Berlin") {
            let berlin = try CLI.run(
                ["history", "piece.musicxml"], environment: environment.merging(["TZ": "Europe/Berlin"]) { $1 }, directory: data)
            #expect(berlin.stdout.contains("    #1    2026-10-26 08:33  ♩=60 "), "\(berlin.stdout)")
        }
        let coach = try CLI.run(["coach", "piece.musicxml", "--part", "T"], environment: environment, directory: data)
        #expect(coach.stdout.hasPrefix("Piece, Tenor, 2 sessions:\n"), "\(coach.stdout)")
        let page = data + "/progress.html"
        #expect(try CLI.run(["history", "piece.musicxml", "--html", page], environment: environment, directory: data).status == 0)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.matches(of: /<circle class="session"/).count == 2 && !html.contains("#3 "))
    }

    /// Two sessions of Piece practised at `piece.musicxml` (their path from the root, as practice keeps it). Edited
    /// there (one note changed, the same title and lines), it keeps them in the coach, the history, the progress page
    /// and the drill's weakest passages; another piece saved over it (another title, or Piece's title over other
    /// lines) starts a history of its own in each.
    @Test func anotherPieceSavedOverAPathStartsItsOwnHistory() throws {
        let data = try PracticeCommandTests.dataHome(), file = data + "/" + PlantedSession.file
        let history = try PracticeHistory(path: data + "/choir/history.sqlite")
        for day in 0..<2 {
            var report = PlantedSession.make()
            report.identity?.path = ScoreIdentity.absolute(file)
            let id = try history.begin(report, started: Date(timeIntervalSince1970: 1_793_000_000 + Double(day) * 86_400))
            try history.record(report.results, trace: [], session: id)
            try history.finish(session: id)
        }
        let environment = ["XDG_DATA_HOME": data]
        func choir(_ arguments: [String]) throws -> CLI.Result { try CLI.run(arguments, environment: environment, directory: data) }
        func piece(_ title: String, _ lines: [String], first midi: Int) throws {
            let xml = ScoreWriter.musicXML(
                title: title,
                parts: lines.map { name in
                    ScoreWriter.Part(
                        name: name, notes: (0..<16).map { ScoreWriter.Note(onset: Double($0) * 2, duration: 2, midi: $0 == 0 ? midi : 60) })
                })
            try xml.write(toFile: file, atomically: true, encoding: .utf8)
        }
        func weakest() throws -> SessionReport? {
            try history.latestReport(of: try ScoreReader.identified(contentsOf: file).identity, part: "Tenor")
        }

        try piece("Piece", ["Tenor", "Alto"], first: 62)
        #expect(try choir(["coach", PlantedSession.file, "--part", "T"]).stdout.hasPrefix("Piece, Tenor, 2 sessions:\n"))
        let edited = try choir(["history", PlantedSession.file])
        #expect(
            edited.stdout.hasPrefix("Piece — piece.musicxml\n  Tenor\n    #1 ") && edited.stdout.contains("\n    #2 "), "\(edited.stdout)")
        #expect(try choir(["history", PlantedSession.file, "--html", data + "/edited.html"]).status == 0)
        #expect(try weakest()?.results.count == 16)

        try piece("Other", ["Tenor", "Alto"], first: 60)
        let coach = try choir(["coach", PlantedSession.file, "--part", "T"])
        #expect(coach.status == 0 && coach.stdout == "No sessions of the Tenor of Other yet.\n", "\(coach.stdout)")
        let listed = try choir(["history", PlantedSession.file])
        #expect(listed.status == 0 && listed.stdout == "No sessions of Other yet.\n", "\(listed.stdout)")
        let page = try choir(["history", PlantedSession.file, "--html", data + "/other.html"])
        #expect(
            page.status == 66 && page.stderr == "choir: piece.musicxml: no sessions to draw: expected a score practised at least once\n",
            "\(page.stderr)")
        #expect(try weakest() == nil)

        try piece("Piece", ["Tenor 1", "Tenor 2"], first: 60)
        #expect(try choir(["history", PlantedSession.file]).stdout == "No sessions of Piece yet.\n")
        // The whole history still holds both sessions, under the piece they were of.
        #expect(try choir(["history"]).stdout.hasPrefix("Piece — piece.musicxml\n  Tenor\n    #1 "))
    }
}
