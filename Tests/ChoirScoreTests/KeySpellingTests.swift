import Testing

@testable import ChoirScore

/// Notes are named as their key spells them, and a transposed score's keys are the ones a musician would write.
struct KeySpellingTests {
    @Test(arguments: [
        // A♭ major: the scale's own flats; the live view spelled these C♯5, G♯4 and D♯4.
        (-4, 73, "D♭5"), (-4, 68, "A♭4"), (-4, 63, "E♭4"), (-4, 60, "C4"),
        // Chromatic notes: sharps in sharp keys, flats in flat keys.
        (2, 70, "A♯4"), (-1, 66, "G♭4"), (0, 61, "C♯4"),
        // Keys whose scale has a white key spelled otherwise, in the letter's octave.
        (7, 65, "E♯4"), (7, 60, "B♯3"), (-6, 59, "C♭4"), (-7, 64, "F♭4"),
    ])
    func aNoteIsSpelledByItsKey(fifths: Int, midi: Int, name: String) {
        #expect(PitchName.name(midi: midi, key: fifths) == name)
    }

    @Test(arguments: [
        (1, -2, -1), (1, 1, -4), (0, 1, -5), (0, -1, 5), (0, 6, 6), (0, -6, -6), (-3, 12, -3), (4, -12, 4), (5, 2, -5),
    ])
    func aTransposedKeyHasAtMostSixAccidentals(fifths: Int, semitones: Int, expected: Int) {
        #expect(KeySignature(fifths: fifths).transposed(by: semitones).fifths == expected)
    }

    @Test func aTransposedScoreMovesEveryNoteAndKey() throws {
        let score = try ScoreReader.read(
            contentsOf: ScoreFixtures.fixtures.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Resources/ExamplePieces/amazing_grace.musicxml").path)
        let moved = score.transposed(by: -2)
        #expect(moved.measures.allSatisfy { $0.key.fifths == -1 } && moved.measures[0].key.description == "F major")
        for (a, b) in zip(score.parts, moved.parts) {
            #expect(b.notes.map(\.midi) == a.notes.map { $0.midi - 2 })
            #expect(b.notes.map(\.onset) == a.notes.map(\.onset))
        }
        #expect(score.transposed(by: 0).parts.map(\.notes) == score.parts.map(\.notes))
    }
}
