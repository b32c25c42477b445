import ChoirBase
import ChoirScore
import ChoirSession

/// The tuner's one line: note and octave, cents, a needle and the frequency.
public enum TunerLine {
    /// The line for `frame`, or "listening…" while nothing is voiced.
    public static func render(_ frame: PitchFrame) -> String {
        guard frame.isVoiced else { return "   –      listening…" }
        let exact = PitchMath.midi(hertz: frame.frequency)
        let midi = Int(exact.rounded())
        let cents = Int(((exact - Double(midi)) * 100).rounded())
        let position = max(0, min(20, 10 + cents / 5))
        var needle = Array(repeating: "─", count: 21)
        needle[10] = "┼"
        needle[position] = "●"
        let name = PitchName.name(midi: midi)
        let signed = cents > 0 ? "+\(cents)" : "\(cents)"
        return name.padded(to: 5) + signed.padded(to: 3, alignRight: true)
            + "¢  " + needle.joined() + "  " + String(printf: "%7.2f Hz", frame.frequency)
    }
}
