extension Score {
    /// The transpositions a singer may ask for, in semitones.
    public static let transpositions = -12...12

    /// The score moved by `semitones`: every note, and every key signature to the key a musician would write
    /// it in (the one with the fewest accidentals; six of them are sharps going up and flats going down).
    public func transposed(by semitones: Int) -> Score {
        guard semitones != 0 else { return self }
        var score = self
        for index in score.parts.indices {
            for note in score.parts[index].notes.indices { score.parts[index].notes[note].midi += semitones }
        }
        for index in score.measures.indices { score.measures[index].key = score.measures[index].key.transposed(by: semitones) }
        return score
    }
}

extension KeySignature {
    /// The key `semitones` away, spelled with at most six sharps or flats.
    public func transposed(by semitones: Int) -> KeySignature {
        // A semitone up is seven fifths up, modulo the twelve keys of the circle.
        var fifths = ((self.fifths + 7 * semitones) % 12 + 12) % 12
        if fifths > 6 || (fifths == 6 && semitones < 0) { fifths -= 12 }
        return KeySignature(fifths: fifths, mode: mode)
    }
}
