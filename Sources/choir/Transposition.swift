import ArgumentParser
import ChoirScore

/// `--transpose N`, shared by every command that reads a score.
struct Transposition: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: "Transpose by N semitones, -12 to 12: the notes played, judged and named, and the keys, all move.")
    var transpose = 0

    func validate() throws {
        guard Score.transpositions.contains(transpose) else {
            throw ValidationError("--transpose \(transpose): expected -12 to 12 semitones")
        }
    }
}
