import ChoirSession
import ChoirTerminal
import Testing

/// The live tuner's line: note and octave, cents, a needle and the frequency.
struct TunerLineTests {
    @Test func inTuneA() {
        #expect(
            TunerLine.render(PitchFrame(time: 0, frequency: 440, confidence: 1))
                == "A4     0¢  ──────────●──────────   440.00 Hz")
    }

    @Test func sharpAndFlatMoveTheNeedle() {
        // 20 cents sharp of E3, 40 cents flat of C♯5.
        #expect(
            TunerLine.render(PitchFrame(time: 0, frequency: 164.814 * 1.011619, confidence: 1))
                == "E3   +20¢  ──────────┼───●──────   166.73 Hz")
        #expect(
            TunerLine.render(PitchFrame(time: 0, frequency: 554.365 * 0.977160, confidence: 1))
                == "C♯5  -40¢  ──●───────┼──────────   541.70 Hz")
    }

    @Test func silence() {
        #expect(TunerLine.render(PitchFrame(time: 0, frequency: 0, confidence: 0)) == "   –      listening…")
    }
}
