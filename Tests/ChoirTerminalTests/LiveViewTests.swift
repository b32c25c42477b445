import ChoirPractice
import ChoirSession
import ChoirTerminal
import ChoirTestSupport
import Testing

/// The live view, read off its rendered rows: no terminal needed, since the view is a pure function of its state.
/// What the cues say is ChoirSession's (LiveCuesTests); here, where the view puts them.
struct LiveViewTests {
    static let view = LiveView(
        title: "Test — Alto",
        cues: LiveCues(
            notes: RestingAlto.notes, lyrics: RestingAlto.lyrics,
            bars: (0..<8).map { LiveCues.Bar(start: RestingAlto.bar * Double($0), beats: 3) }))

    static func state(at time: Double) -> LiveView.State {
        LiveView.State(
            time: time, measure: "1", beat: 1, tempo: 80, tempoPercent: 100, flags: [], sung: nil, trace: [], verdicts: [:],
            accuracy: "accuracy –", locked: false)
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
    /// The header says which time round a `--loop` the music is in, before what else differs from playing on.
    @Test func theHeaderShowsThePassOfALoop() {
        var snapshot = SessionSnapshot()
        snapshot.pass = 2
        snapshot.passes = 3
        snapshot.paused = true
        var state = Self.state(at: 9.0)
        state.flags = snapshot.flags
        #expect(Self.view.render(state, width: 80, height: 12, colour: false)[0].hasSuffix("m. 1:1   ♩ = 80   pass 2 of 3, paused"))
    }

    /// The needle spans ±100 cents; a note sung further off pins it at the end, an arrow pointing the way, and the
    /// number stops at 100 (the note sung says the rest); an octave away is folded.
    @Test(arguments: [
        (68.2, "  target A♭4    sung A♭4    +20¢ [·····|●····]"),
        (58.12, "  target A♭4    sung B♭3  ◀-100¢ [◀····|·····]"),
        (71.0, "  target A♭4    sung B4    +100¢▶[·····|····▶]"),
        (80.3, "  target A♭4    sung A♭5    +30¢ [·····|●····] 8va"),
    ])
    func theTunerNeedleStaysWithinAHundredCents(sung: Double, line: String) {
        var state = Self.state(at: 9.0)
        state.sung = sung
        #expect(Self.view.render(state, width: 40, height: 12, colour: false)[3] == line)
    }

    /// The needle is green when the note sung is within the judge's tolerance (`--tolerance`), yellow beyond it: 30
    /// cents sharp is out of tune at the default 25 cents and in tune at 40.
    @Test func theNeedleIsInTuneWithinTheJudgesTolerance() {
        var state = Self.state(at: 9.0)
        state.sung = 68.3
        let green = "\u{1B}[32m", yellow = "\u{1B}[33m"
        #expect(Self.view.render(state, width: 40, height: 12, colour: true)[3].contains(yellow))
        var lenient = Self.view
        lenient.cues.tolerance = 40
        let row = lenient.render(state, width: 40, height: 12, colour: true)[3]
        #expect(row.contains(green) && !row.contains(yellow), "\(row)")
    }
}
