/// The General MIDI level 1 instrument set.
public enum GeneralMIDI {
    /// Program names, indexed by 0-based program number.
    public static let programNames: [String] = [
        "Acoustic Grand Piano", "Bright Acoustic Piano", "Electric Grand Piano", "Honky-tonk Piano",
        "Electric Piano 1", "Electric Piano 2", "Harpsichord", "Clavinet", "Celesta", "Glockenspiel", "Music Box",
        "Vibraphone", "Marimba", "Xylophone", "Tubular Bells", "Dulcimer", "Drawbar Organ", "Percussive Organ",
        "Rock Organ", "Church Organ", "Reed Organ", "Accordion", "Harmonica", "Tango Accordion",
        "Acoustic Guitar (nylon)", "Acoustic Guitar (steel)", "Electric Guitar (jazz)", "Electric Guitar (clean)",
        "Electric Guitar (muted)", "Overdriven Guitar", "Distortion Guitar", "Guitar Harmonics", "Acoustic Bass",
        "Electric Bass (finger)", "Electric Bass (pick)", "Fretless Bass", "Slap Bass 1", "Slap Bass 2",
        "Synth Bass 1", "Synth Bass 2", "Violin", "Viola", "Cello", "Contrabass", "Tremolo Strings",
        "Pizzicato Strings", "Orchestral Harp", "Timpani", "String Ensemble 1", "String Ensemble 2",
        "Synth Strings 1", "Synth Strings 2", "Choir Aahs", "Voice Oohs", "Synth Voice", "Orchestra Hit", "Trumpet",
        "Trombone", "Tuba", "Muted Trumpet", "French Horn", "Brass Section", "Synth Brass 1", "Synth Brass 2",
        "Soprano Sax", "Alto Sax", "Tenor Sax", "Baritone Sax", "Oboe", "English Horn", "Bassoon", "Clarinet",
        "Piccolo", "Flute", "Recorder", "Pan Flute", "Blown Bottle", "Shakuhachi", "Whistle", "Ocarina",
        "Lead 1 (square)", "Lead 2 (sawtooth)", "Lead 3 (calliope)", "Lead 4 (chiff)", "Lead 5 (charang)",
        "Lead 6 (voice)", "Lead 7 (fifths)", "Lead 8 (bass + lead)", "Pad 1 (new age)", "Pad 2 (warm)",
        "Pad 3 (polysynth)", "Pad 4 (choir)", "Pad 5 (bowed)", "Pad 6 (metallic)", "Pad 7 (halo)", "Pad 8 (sweep)",
        "FX 1 (rain)", "FX 2 (soundtrack)", "FX 3 (crystal)", "FX 4 (atmosphere)", "FX 5 (brightness)",
        "FX 6 (goblins)", "FX 7 (echoes)", "FX 8 (sci-fi)", "Sitar", "Banjo", "Shamisen", "Koto", "Kalimba",
        "Bagpipe", "Fiddle", "Shanai", "Tinkle Bell", "Agogo", "Steel Drums", "Woodblock", "Taiko Drum",
        "Melodic Tom", "Synth Drum", "Reverse Cymbal", "Guitar Fret Noise", "Breath Noise", "Seashore", "Bird Tweet",
        "Telephone Ring", "Helicopter", "Applause", "Gunshot",
    ]

    /// The program `text` names: a 1-based GM number ("53"), or a name or unique prefix of one, ignoring case
    /// ("choir aahs", "clarinet", "piano" for Acoustic Grand Piano).
    public static func program(named text: String) -> Int? {
        let wanted = text.trimmed.lowercased()
        if let number = Int(wanted) { return (1...128).contains(number) ? number - 1 : nil }
        let names = programNames.map { $0.lowercased() }
        if let exact = names.firstIndex(of: wanted) { return exact }
        let prefixed = names.indices.filter { names[$0].hasPrefix(wanted) }
        if prefixed.count == 1 { return prefixed[0] }
        // Plain instrument words pick the family's first, most usual member ("piano", "guitar").
        return names.firstIndex { VoiceNames.words($0).contains(wanted) }
    }

    /// Why `text` names no program: the nearest name (or instrument word) and every name known.
    public static func unknown(_ text: String) -> String {
        let words = programNames.flatMap { VoiceNames.words($0) }.filter { $0.count > 2 && program(named: $0) != nil }
        return NearestName.unknown(
            "instrument", text, among: programNames + words,
            expected: "a GM program number 1-128, a word of a name (piano, organ, strings), or a name: "
                + programNames.joined(separator: ", "))
    }
}
