/// What the comparator says about one written note.
public enum Verdict: String, Sendable, Codable, CaseIterable {
    case correct, flat, sharp, wrong, octave, late, missing

    /// Whether the note counts as right.
    public var isCorrect: Bool { self == .correct }
}
