import ChoirSession
import ChoirTerminal
import Testing

/// The status lines of `choir play` and `choir view`, from known snapshots.
struct PlaybackLineTests {
    static func snapshot(measure: String, beat: Int, pass: Int = 1, passes: Int = 1, paused: Bool = false) -> SessionSnapshot {
        var snapshot = SessionSnapshot()
        (snapshot.measure, snapshot.beat, snapshot.pass, snapshot.passes, snapshot.paused) = (measure, beat, pass, passes, paused)
        (snapshot.tempo, snapshot.tempoPercent) = (57.6, 80)
        return snapshot
    }

    @Test func theTempoSaysItsPercentOnlyWhenChanged() {
        #expect(PlaybackLine.tempo(72.4, percent: 100) == "♩ = 72")
        #expect(PlaybackLine.tempo(57.6, percent: 80) == "♩ = 58 (80%)")
    }

    @Test func playSaysMeasureBeatPassAndTheScoresTempo() {
        #expect(PlaybackLine.playing(Self.snapshot(measure: "-", beat: 0), tempo: 72) == "starting  ♩ = 72")
        #expect(PlaybackLine.playing(Self.snapshot(measure: "12", beat: 3), tempo: 72) == "12:3  playing  ♩ = 72")
        #expect(
            PlaybackLine.playing(Self.snapshot(measure: "4a", beat: 1, pass: 2, passes: 3, paused: true), tempo: 90.5)
                == "4a:1  pass 2 of 3  paused  ♩ = 91")
        #expect(PlaybackLine.measure(Self.snapshot(measure: "5", beat: 1)) == "measure 5")
        #expect(PlaybackLine.measure(Self.snapshot(measure: "5", beat: 1, pass: 2, passes: 3)) == "measure 5, pass 2 of 3")
    }

    @Test func viewSaysPlaceTempoAndFlags() {
        #expect(PlaybackLine.viewing(Self.snapshot(measure: "-", beat: 0)) == "starting  ♩ = 58 (80%)  playing")
        var muted = Self.snapshot(measure: "7", beat: 2, paused: true)
        muted.mineMuted = true
        #expect(PlaybackLine.viewing(muted) == "m. 7:2  ♩ = 58 (80%)  paused, my part muted")
    }
}
