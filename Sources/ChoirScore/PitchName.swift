/// Names of pitches in scientific notation (middle C is C4).
public enum PitchName {
    private static let sharps = ["C", "C♯", "D", "D♯", "E", "F", "F♯", "G", "G♯", "A", "A♯", "B"]
    private static let flats = ["C", "D♭", "D", "E♭", "E", "F", "G♭", "G", "A♭", "A", "B♭", "B"]

    /// The name of a MIDI note, e.g. "G4" or "B♭3"; black keys take flats when `flats` is set.
    public static func name(midi: Int, flats useFlats: Bool = false) -> String {
        let pitchClass = ((midi % 12) + 12) % 12
        let octave = (midi - pitchClass) / 12 - 1
        return (useFlats ? flats : sharps)[pitchClass] + String(octave)
    }
}
