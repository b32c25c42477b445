import ChoirPractice
import ChoirTestSupport
import Foundation
import Testing

/// `choir coach` reads a line's sessions from the history and says what they show.
struct CoachCommandTests {
    /// Four sessions planted in a history: flat on held notes from D4 up in three of them, and late after rests in
    /// all; the advice says both with their numbers, and nothing for another line.
    @Test func adviceFromStoredSessions() throws {
        let data = try PracticeCommandTests.dataHome()
        let history = try PracticeHistory(path: data + "/choir/history.sqlite")
        for index in 0..<4 {
            let report = PlantedSession.make { result in
                if index != 1 && result.note.midi >= 62 { result.medianCents = -25 }
                if result.note.previousMIDI == nil { result.onsetError = 0.2 }
            }
            let id = try history.begin(report)
            try history.record(report.results, trace: [], session: id)
            try history.finish(session: id)
        }
        try PlantedSession.musicXML.write(toFile: data + "/" + PlantedSession.file, atomically: true, encoding: .utf8)
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
        let data = try PracticeCommandTests.dataHome()
        let history = try PracticeHistory(path: data + "/choir/history.sqlite")
        for index in 0..<4 {
            let report = PlantedSession.make { result in
                if index != 1 && result.note.midi >= 62 { result.medianCents = -25 }
                if result.note.previousMIDI == nil { result.onsetError = 0.2 }
                if result.note.measure == "3" && index > 0 { result.verdict = .wrong }
                if result.note.measure == "5" && index < 3 { result.verdict = .wrong }
                if index == 3 && ["13", "14"].contains(result.note.measure) {
                    result.verdict = .wrong
                    result.evidence = NoteResult.Evidence(
                        voicedShare: 0.9, framesJudged: 80, sangOther: ExpectedNote.Other(line: "Alto", midi: 67))
                }
            }
            let id = try history.begin(report)
            try history.record(report.results, trace: [], session: id)
            try history.finish(session: id)
        }
        try PlantedSession.musicXML.write(toFile: data + "/" + PlantedSession.file, atomically: true, encoding: .utf8)
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
}
