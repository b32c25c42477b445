import ChoirScore

/// The General MIDI program each line plays with.
public enum Instruments {
    /// Choir Aahs, for sung lines the score gives no instrument.
    public static let voiceProgram = 52

    /// The General MIDI voices (Choir Aahs, Voice Oohs, Synth Voice), which choir retunes key by key.
    public static let voicePrograms: Set<Int> = [52, 53, 54]

    /// The score's `<midi-instrument>` program, else Choir Aahs for sung lines and a piano for the rest;
    /// `overrides` (by line index) win.
    public static func programs(for lines: [Line], in score: Score, overrides: [Int: Int] = [:]) -> [Int] {
        lines.enumerated().map { index, line in
            if let program = overrides[index] { return program }
            let part = score.parts[line.partIndex]
            return part.midiProgram ?? (part.isSung ? voiceProgram : 0)
        }
    }
}
