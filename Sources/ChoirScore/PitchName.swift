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

    /// The MIDI note a name such as "D3", "F♯4", "F#4", "Bb3" or "B♭3" stands for (middle C is C4); nil for
    /// anything else.
    public static func midi(named name: String) -> Int? {
        var rest = Substring(name.trimmed)
        guard let letter = rest.first?.uppercased(), let index = ["C", "D", "E", "F", "G", "A", "B"].firstIndex(of: letter) else {
            return nil
        }
        rest = rest.dropFirst()
        var alter = 0
        while let sign = rest.first, "#♯b♭".contains(sign) {
            alter += sign == "#" || sign == "♯" ? 1 : -1
            rest = rest.dropFirst()
        }
        guard let octave = Int(rest), (-1...9).contains(octave) else { return nil }
        return (octave + 1) * 12 + [0, 2, 4, 5, 7, 9, 11][index] + alter
    }

    /// The name of a MIDI note as a key signature of `fifths` spells it: the key's own notes as its scale has
    /// them (A♭ and D♭ in A♭ major, E♯ in C♯ major, C♭ in G♭ major), the others with sharps in sharp keys and
    /// flats in flat keys.
    public static func name(midi: Int, key fifths: Int) -> String {
        let pitchClass = ((midi % 12) + 12) % 12
        // The key's seven notes lie on the line of fifths from one below its tonic to five above.
        for step in (fifths - 1)...(fifths + 5) where ((step * 7) % 12 + 12) % 12 == pitchClass {
            let spelled = KeySignature.noteName(fifthsFromC: step)
            let alter = spelled.count { $0 == "♯" } - spelled.count { $0 == "♭" }
            // C♭5 is B4 and B♯3 is C4: the octave is the letter's.
            let natural = ((midi - alter) % 12 + 12) % 12
            return spelled + String((midi - alter - natural) / 12 - 1)
        }
        return name(midi: midi, flats: fifths < 0)
    }
}
