import ChoirPractice
import ChoirTestSupport
import Testing

/// Coaching from a line's sessions (``PlantedSession``: a tenor's held notes, C4 in mm. 1–11, D4 and E4 in
/// mm. 12–16): each pattern planted in otherwise clean sessions brings its sentence, with its numbers; clean
/// sessions bring none.
struct CoachTests {
    static func session(_ change: (inout NoteResult) -> Void = { _ in }) -> SessionReport { PlantedSession.make(change) }

    @Test func cleanSessionsBringNoAdvice() {
        #expect(Coach.advice(Array(repeating: Self.session(), count: 11)) == [])
    }

    @Test func heldNotesFlatFromAPitchUp() {
        // Flat from D4 up in 8 sessions of 11; C4 stays in tune.
        let sessions = (0..<11).map { index in
            Self.session {
                if index % 4 != 1 && $0.note.midi >= 62 {
                    $0.medianCents = -23
                    $0.verdict = .flat
                }
            }
        }
        #expect(
            Coach.advice(sessions) == [
                "You tend to go flat on held notes from D4 up (mm. 12–16, 8 of 11 sessions; 16 cents flat on average)"
            ])
        // Flat everywhere is no pitch's doing: the lowest held note leans too, and the sentence says "from C4 up".
        let everywhere = (0..<4).map { _ in Self.session { $0.medianCents = -20 } }
        #expect(
            Coach.advice(everywhere) == [
                "You tend to go flat on held notes from C4 up (mm. 1–16, 4 of 4 sessions; 20 cents flat on average)"
            ])
        // In two sessions only, it is not a tendency.
        #expect(
            Coach.advice([
                Self.session(), Self.session { if $0.note.midi >= 62 { $0.medianCents = -30 } },
                Self.session { if $0.note.midi >= 62 { $0.medianCents = -30 } },
            ]) == [])
    }

    @Test func lateEntrancesAfterRests() {
        let sessions = (0..<4).map { _ in Self.session { if $0.note.previousMIDI == nil { $0.onsetError = 0.15 } } }
        #expect(Coach.advice(sessions) == ["Your entrances after rests are late by about 150 ms (median of 12 entrances over 4 sessions)"])
        // Late after a note just sung is not late after a rest.
        #expect(Coach.advice((0..<4).map { _ in Self.session { if $0.note.previousMIDI != nil { $0.onsetError = 0.15 } } }) == [])
    }

    @Test func aMeasureThatImproved() {
        // m. 7 has two notes' worth of verdicts: wrong, then right as the sessions go on.
        let verdicts: [[Verdict]] = [[.wrong], [.wrong], [.correct], [.correct], [.correct]]
        let sessions = verdicts.map { row in Self.session { if $0.note.measure == "7" { $0.verdict = row[0] } } }
        #expect(Coach.advice(sessions) == ["m. 7 has improved from 0% to 100% over 5 sessions"])
    }

    @Test func anotherLineSung() {
        let last = Self.session { result in
            if ["13", "14"].contains(result.note.measure) {
                result.verdict = .wrong
                result.evidence = NoteResult.Evidence(
                    voicedShare: 0.9, framesJudged: 80, sangOther: ExpectedNote.Other(line: "Alto", midi: 67))
            }
        }
        #expect(Coach.advice([Self.session(), last]) == ["In your last session you sang the Alto's line in mm. 13–14 (2 of 2 notes)"])
    }

    @Test func thirdsSungAsThePianoPlaysThem() {
        // Every note a tenth over the bass, 3 cents sharp of the piano's tuning: 17 cents wider than pure, and so
        // 17 cents sharp of where a choir puts every note.
        func session(cents: Double) -> SessionReport {
            Self.session { result in
                result.note.others = [ExpectedNote.Other(line: "Bass", midi: result.note.midi - 16)]
                result.medianCents = cents
            }
        }
        #expect(
            Coach.advice((0..<4).map { _ in session(cents: 3) }) == [
                "You tend to go sharp on held notes from C4 up (mm. 1–16, 4 of 4 sessions; 17 cents sharp on average)",
                "Your major thirds over the bass are 17 cents wide (64 notes over 4 sessions; +3 cents from equal temperament)",
            ])
        // Sung pure, 14 cents under the piano, they bring nothing (a pure third is no flat note), and neither do too
        // few of them.
        #expect(Coach.advice((0..<4).map { _ in session(cents: -14) }) == [])
        #expect(
            Coach.advice([Self.session { if $0.note.measure == "3" { $0.note.others = [ExpectedNote.Other(line: "Bass", midi: 44)] } }])
                == [])
    }
}

extension CoachTests {
    /// `choir coach`'s words: the piece, the line, how many sessions, then the advice, or that none stands out.
    @Test func theAdviceIsSaidUnderThePieceLineAndSessions() {
        #expect(Coach.text([Self.session()], piece: "Hymn", verbose: false) == "Hymn, Tenor, 1 session:\n  No pattern stands out yet.\n")
        let late = (0..<4).map { _ in Self.session { if $0.note.previousMIDI == nil { $0.onsetError = 0.15 } } }
        #expect(
            Coach.text(late, piece: "Hymn", verbose: false)
                == "Hymn, Tenor, 4 sessions:\n  - Your entrances after rests are late by about 150 ms (median of 12 entrances over 4 sessions)\n"
        )
    }
}
