import Glibc

/// Pitch arithmetic, written once: frequencies in Hz, MIDI note numbers (69 is A4 at 440 Hz, in equal
/// temperament; fractional numbers lie between the notes) and cents (a hundredth of a semitone).
public enum PitchMath {
    /// A4's frequency, the pitch every other is reckoned from.
    public static let a4 = 440.0

    /// The (fractional) MIDI note number of `hertz`.
    @inlinable public static func midi(hertz: Double) -> Double { 69 + 12 * log2(hertz / a4) }

    /// The frequency of MIDI note `midi`.
    @inlinable public static func hertz(midi: Double) -> Double { a4 * pow(2, (midi - 69) / 12) }

    /// The frequency of MIDI note `midi`.
    @inlinable public static func hertz(midi: Int) -> Double { hertz(midi: Double(midi)) }

    /// How many cents `hertz` lies above `reference` (below, if negative).
    @inlinable public static func cents(_ hertz: Double, from reference: Double) -> Double { 1200 * log2(hertz / reference) }

    /// The frequency ratio of an interval of `cents`.
    @inlinable public static func ratio(cents: Double) -> Double { pow(2, cents / 1200) }
}
