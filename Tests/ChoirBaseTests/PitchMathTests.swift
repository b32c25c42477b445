import Testing

@testable import ChoirBase

/// Pitch arithmetic against values from the tuning standard (A4 = 440 Hz, equal temperament).
struct PitchMathTests {
    /// MIDI numbers and frequencies of notes that any tuning table gives (to a hundredth of a hertz).
    @Test(arguments: [(21, 27.50), (36, 65.41), (48, 130.81), (60, 261.63), (69, 440.0), (70, 466.16), (84, 1046.50), (108, 4186.01)])
    func notesHaveTheirFrequencies(midi: Int, hertz: Double) {
        #expect(abs(PitchMath.hertz(midi: midi) - hertz) < 0.005)
        #expect(abs(PitchMath.midi(hertz: hertz) - Double(midi)) < 0.002)  // the table's rounding, under 0.2 cents
    }

    @Test func centsBetweenFrequencies() {
        #expect(PitchMath.cents(880, from: 440) == 1200)
        #expect(PitchMath.cents(220, from: 440) == -1200)
        #expect(abs(PitchMath.cents(440 * 1.5, from: 440) - 701.955) < 0.001)  // a pure fifth, 2 cents wide
        #expect(abs(PitchMath.ratio(cents: 100) - 1.059463) < 1e-6)
        #expect(abs(PitchMath.midi(hertz: 445) - 69.1956217) < 1e-6)  // 19.6 cents sharp
    }

    /// Half-way between two notes is a fractional MIDI number, and each conversion undoes the other.
    @Test(arguments: stride(from: 30.0, through: 100, by: 3.7).map { $0 })
    func conversionsUndoEachOther(midi: Double) {
        #expect(abs(PitchMath.midi(hertz: PitchMath.hertz(midi: midi)) - midi) < 1e-9)
        let hertz = PitchMath.hertz(midi: midi)
        #expect(abs(hertz * PitchMath.ratio(cents: PitchMath.cents(hertz * 1.01, from: hertz)) - hertz * 1.01) < 1e-9)
    }
}
