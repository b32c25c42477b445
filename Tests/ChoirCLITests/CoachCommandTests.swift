import ChoirPractice
import ChoirTestSupport
import Foundation
import Testing

/// `choir coach` reads a line's sessions from the history and says what they show.
struct CoachCommandTests {
    /// A data folder whose history holds four planted sessions of the piece beside it (flat on held notes from D4
    /// up but in the second, late by 200 ms after rests), each result then changed by `change(session, result)`.
    static func sessions(_ change: (Int, inout NoteResult) -> Void) throws -> String {
        let data = try PracticeCommandTests.dataHome()
        let history = try PracticeHistory(path: data + "/choir/history.sqlite")
        for index in 0..<4 {
            let report = PlantedSession.make { result in
                if index != 1 && result.note.midi >= 62 { result.medianCents = -25 }
                if result.note.previousMIDI == nil { result.onsetError = 0.2 }
                change(index, &result)
            }
            let id = try history.begin(report)
            try history.record(report.results, trace: [], session: id)
            try history.finish(session: id)
        }
        try PlantedSession.musicXML.write(toFile: data + "/" + PlantedSession.file, atomically: true, encoding: .utf8)
        return data
    }

    /// Four sessions planted in a history: flat on held notes from D4 up in three of them, and late after rests in
    /// all; the advice says both with their numbers, and nothing for another line.
    @Test func adviceFromStoredSessions() throws {
        let data = try Self.sessions { _, _ in }
        let coach = try CLI.run(["coach", "piece.musicxml", "--part", "T"], environment: ["XDG_DATA_HOME": data], directory: data)
        #expect(coach.status == 0, "\(coach.stderr)")
        #expect(
            coach.stdout == """
                Piece, Tenor, 4 sessions:
                  - You tend to go flat on held notes from D4 up (mm. 12–16, 3 of 4 sessions; 18 cents flat on average)
                  - Your entrances after rests are late by about 200 ms (median of 12 entrances over 4 sessions)

                """, "\(coach.stdout)")
        let none = try CLI.run(["coach", "piece.musicxml", "--part", "alto"], environment: ["XDG_DATA_HOME": data], directory: data)
        #expect(none.stdout == "No sessions of the Alto of Piece yet.\n")
    }

    /// Seven findings: by default the two that matter most, in three lines; `--verbose` says all of them, what
    /// matters most first (another line sung, a lean, late entrances, measures slipping, then improving).
    @Test func theDefaultKeepsToWhatMattersMost() throws {
        let data = try Self.sessions { index, result in
            if result.note.measure == "3" && index > 0 { result.verdict = .wrong }
            if result.note.measure == "5" && index < 3 { result.verdict = .wrong }
            if index == 3 && ["13", "14"].contains(result.note.measure) {
                result.verdict = .wrong
                result.evidence = NoteResult.Evidence(
                    voicedShare: 0.9, framesJudged: 80, sangOther: ExpectedNote.Other(line: "Alto", midi: 67))
            }
        }
        let environment = ["XDG_DATA_HOME": data]
        let brief = try CLI.run(["coach", "piece.musicxml", "--part", "T"], environment: environment, directory: data)
        #expect(
            brief.stdout == """
                Piece, Tenor, 4 sessions (5 more with --verbose):
                  - In your last session you sang the Alto's line in mm. 13–14 (2 of 2 notes)
                  - You tend to go flat on held notes from D4 up (mm. 12–16, 3 of 4 sessions; 17 cents flat on average)

                """, "\(brief.stdout)")
        let all = try CLI.run(["coach", "piece.musicxml", "--part", "T", "--verbose"], environment: environment, directory: data)
        #expect(
            all.stdout == """
                Piece, Tenor, 4 sessions:
                  - In your last session you sang the Alto's line in mm. 13–14 (2 of 2 notes)
                  - You tend to go flat on held notes from D4 up (mm. 12–16, 3 of 4 sessions; 17 cents flat on average)
                  - Your entrances after rests are late by about 200 ms (median of 12 entrances over 4 sessions)
                  - m. 3 has slipped from 100% to 0% over 4 sessions
                  - m. 13 has slipped from 100% to 0% over 4 sessions
                  - m. 14 has slipped from 100% to 0% over 4 sessions
                  - m. 5 has improved from 0% to 100% over 4 sessions

                """, "\(all.stdout)")
    }

    /// With --model, the sessions' figures (and nothing else: no audio, no pitch trace) go to the model the singer
    /// brings, whose words are printed with what they cost; the key stays out of everything printed.
    @Test func adviceInTheModelsWords() throws {
        let words = "Your tenor line is getting steadier. Keep the held D4 in measures 12 to 16 up: think of it rising."
        let server = try ChatServer([ChatServer.text(words, tokens: (600, 40), cost: 0.0004)])
        let home = try ScanCommandTests.Home(server)
        let history = try PracticeHistory(path: home.folder + "/data/choir/history.sqlite")
        for index in 0..<4 {
            let report = PlantedSession.make { result in
                if index != 1 && result.note.midi >= 62 { result.medianCents = -25 }
            }
            let id = try history.begin(report)
            try history.record(report.results, trace: report.trace, session: id)
            try history.finish(session: id)
        }
        try PlantedSession.musicXML.write(toFile: home.folder + "/" + PlantedSession.file, atomically: true, encoding: .utf8)
        let coach = try CLI.run(
            ["coach", "piece.musicxml", "--part", "tenor", "--model", "test/coach"], environment: home.environment, directory: home.folder)
        #expect(coach.status == 0, "\(coach.stderr)")
        #expect(
            coach.stdout == """
                Piece, Tenor, 4 sessions, in the words of test/coach (from the figures alone):
                  \(words)
                Model: 1 request: 600 tokens in, 40 out; cost $0.0004 as the server reports it.

                """)
        let requests = try server.requests()
        try #require(requests.count == 1)
        let body = requests[0].body
        #expect(body["model"] as? String == "test/coach")
        let messages = ScanCommandTests.messages(body)
        #expect(messages.map(\.role) == ["system", "user"])
        #expect(messages.allSatisfy { $0.content is String }, "text alone: no image or audio part")
        let figures = ScanCommandTests.text(messages[1].content)
        #expect(figures.hasPrefix("Piece: Piece. Line: Tenor. Sessions: 4, oldest first.\nSession 1: "), "\(figures)")
        #expect(figures.contains("Last session, % right by measure: m. "))
        #expect(figures.contains("Patterns choir's rules found:\n- You tend to go flat on held notes from D4 up"))
        let sent = try JSONSerialization.data(withJSONObject: body)
        #expect(sent.count < 8000, "figures only: \(sent.count) bytes")
        #expect(!String(decoding: sent, as: UTF8.self).contains("data:"))
        #expect(!coach.stdout.contains(ScanCommandTests.key) && !coach.stderr.contains(ScanCommandTests.key))
    }
}
