import ChoirPlayback
import ChoirPractice
import ChoirSession
import Testing

@testable import choir

/// The live view's look-ahead, read off its rendered rows: no terminal needed, since the view is a pure function of
/// its state.
struct LiveViewTests {
    /// 3/4 at ♩ = 80 (a bar is 2.25 s): the singer rests four bars, sings a phrase of two notes, rests, and sings
    /// a phrase of three. In A♭ major.
    static let view: LiveView = {
        func note(_ index: Int, _ onset: Double, _ midi: Int, after previous: Int?) -> ExpectedNote {
            ExpectedNote(
                index: index, measure: "\(Int(onset / 2.25) + 1)", measureIndex: Int(onset / 2.25), onset: onset, duration: 0.75,
                midi: midi, isEntrance: true, previousMIDI: previous, key: -4)
        }
        let notes = [
            note(0, 9.0, 68, after: nil), note(1, 9.75, 70, after: 68),
            note(2, 12.0, 73, after: nil), note(3, 12.75, 72, after: 73), note(4, 13.5, 70, after: 72),
        ]
        let syllables = [(9.0, "Sing", false), (9.75, "now", false), (12.0, "Through", false), (12.75, "ma", true), (13.5, "ny", false)]
        return LiveView(
            title: "Test — Alto", notes: notes,
            lyrics: syllables.map { Schedule.SungSyllable(start: $0.0, text: $0.1, continues: $0.2) },
            bars: (0..<8).map { LiveView.Bar(start: 2.25 * Double($0), beats: 3) })
    }()

    static func state(at time: Double) -> LiveView.State {
        LiveView.State(
            time: time, measure: "1", beat: 1, tempo: 80, tempoPercent: 100, flags: [], sung: nil, trace: [], verdicts: [:],
            correct: 0, judged: 0, locked: false)
    }

    @Test func beforeMyLineEntersACountdownInBarsThenBeats() {
        #expect(Self.view.cue(at: 0.1) == "enters in 4 bars")
        #expect(Self.view.cue(at: 4.6) == "enters in 2 bars")
        #expect(Self.view.cue(at: 7.0) == "enters in 3 beats")
        #expect(Self.view.cue(at: 8.5) == "enters on the next beat")
        // The rest between the phrases is counted too.
        #expect(Self.view.cue(at: 10.9) == "enters in 2 beats")
    }

    @Test func nearTheEndOfAPhraseTheNextPhrasesNotesAndWords() {
        #expect(Self.view.cue(at: 9.1) == "next: D♭5 C5 B♭4  Through ma-ny", "notes spelled in A♭ major")
        // Mid-way through the last phrase there is no next one.
        #expect(Self.view.cue(at: 13.0) == nil)
    }

    @Test func theRowsShowTheCueTheDrillAndTheTargetInItsKey() {
        var view = Self.view
        view.context = "drill mm. 5–6, pass 2 at 80%"
        let rows = view.render(Self.state(at: 9.2), width: 80, height: 24, colour: false)
        #expect(rows[2] == "  drill mm. 5–6, pass 2 at 80% · next: D♭5 C5 B♭4  Through ma-ny", "\(rows)")
        #expect(rows[3].hasPrefix("  target A♭4"), "\(rows[3])")
        #expect(view.render(Self.state(at: 0.2), width: 80, height: 24, colour: false)[2].contains("enters in 4 bars"))
    }
}

extension LiveViewTests {
    /// The command that judges a live session's recording again is the session's own, with the recording as its
    /// input, the latency it was judged with, and no device or recording of its own; it runs when pasted.
    @Test func aRecordingSaysHowToJudgeItAgain() {
        let take = RecordedTake(path: "my take.flac", seconds: 36.25, latency: 0.0424, failure: nil)
        let arguments = [
            "practice", "score.musicxml", "--part", "Tenor 2", "--input", "pulse", "--record=my take.flac", "--output",
            "pulse", "--latency", "-12", "--count-in",
        ]
        #expect(
            Choir.Practice.recorded(take, arguments: arguments) == "choir: recorded 36.2 s to my take.flac; judge it again with: "
                + "choir practice score.musicxml --part 'Tenor 2' --count-in --input 'my take.flac' --latency=42.4 --output none")
        let stopped = RecordedTake(
            path: "t.flac", seconds: 3, latency: 0, failure: "t.flac: cannot be written (disk full): expected a writable path")
        #expect(
            Choir.Practice.recorded(stopped, arguments: ["practice", "s.xml"]).hasPrefix(
                "choir: recorded 3.0 s to t.flac; it stopped early: t.flac: cannot be written (disk full): expected a writable path; judge")
        )
    }
}

extension LiveViewTests {
    /// A mark shows from the bar before its measure to the measure's end, beside the cue.
    @Test func aMarkShowsAsItsMeasureNears() {
        var view = Self.view
        view.bars = (0..<12).map { LiveView.Bar(start: 2.25 * Double($0), beats: 3) }
        view.marks = [LiveView.Pencil(start: 9 * 2.25, end: 10 * 2.25, measure: "10", text: "breathe after 'grace'")]
        #expect(view.pencil(at: 7 * 2.25 + 1) == nil)
        #expect(view.pencil(at: 8 * 2.25 + 1) == "✎ m. 10: breathe after 'grace'")
        #expect(view.pencil(at: 9 * 2.25 + 2) == "✎ m. 10: breathe after 'grace'")
        #expect(view.pencil(at: 10 * 2.25 + 0.5) == nil)
    }

    /// Where the learned tracker judges, the accuracy line says how far the verdicts follow the needle; else it is
    /// as it was.
    @Test func theJudgesDelayIsShownBesideTheAccuracy() {
        var state = Self.state(at: 9.2)
        (state.correct, state.judged) = (3, 4)
        let rows = Self.view.render(state, width: 80, height: 24, colour: false)
        #expect(rows[rows.count - 2] == "accuracy 75% (3 of 4 notes)", "\(rows)")
        state.judgeDelay = 0.176
        let judged = Self.view.render(state, width: 80, height: 24, colour: false)
        #expect(judged[judged.count - 2] == "accuracy 75% (3 of 4 notes), judged 0.18 s behind the needle", "\(judged)")
        #expect(judged[0] == rows[0] && judged[0].hasSuffix("playing"))
    }
}
