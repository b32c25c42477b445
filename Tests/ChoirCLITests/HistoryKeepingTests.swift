import ChoirAudio
import ChoirPractice
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
}
