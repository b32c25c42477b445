/// What the comparator says about one written note.
public enum Verdict: String, Sendable, Codable, CaseIterable {
    /// In tune and in time.
    case correct
    /// Below or above the written pitch by more than the tolerance in cents.
    case flat, sharp
    /// Nearer another semitone.
    case wrong
    /// The right note an octave (or two) away.
    case octave
    /// Come in before or after the beat by more than the timing tolerance.
    case early, late
    /// Early or late at the end of a stretch of the phrase over which the singer drew steadily ahead of the beat, or
    /// fell behind it: a tempo that runs away rather than one entrance out of place.
    case rushed, dragged
    /// Not sung.
    case missing

    /// Whether the note counts as right.
    public var isCorrect: Bool { self == .correct }

    /// Whether the verdict is about time rather than pitch.
    public var isTiming: Bool { [.early, .late, .rushed, .dragged].contains(self) }

    /// A sign that tells the verdict without its colour (for the colour-blind): a tick, the way the pitch or the
    /// time went, a cross, 8 for the octave, a ring for a note not sung.
    public var mark: String {
        switch self {
        case .correct: "✓"
        case .flat: "↓"
        case .sharp: "↑"
        case .wrong: "✗"
        case .octave: "8"
        case .early: "←"
        case .late: "→"
        case .rushed: "⇐"
        case .dragged: "⇒"
        case .missing: "○"
        }
    }
}
