/// What a singer can do while a session plays: a live practice session or the mix alone. A recorded take
/// ignores all but ``quit``.
public enum SessionCommand: Sendable, Equatable {
    case togglePause
    /// Moves by measures: back from the middle of a measure goes to its start first.
    case step(measures: Int)
    /// Goes to a measure as played: an index into the schedule's measures (``Schedule/measures``).
    case seek(measure: Int)
    /// Loops the phrase being sung, or ends the loop.
    case toggleLoop
    /// Loops the measures given as played (indices into the schedule's measures, as ``seek(measure:)`` takes them),
    /// going to the first of them unless the music is among them already; nil ends the loop.
    case loop(measures: ClosedRange<Int>?)
    /// Changes the tempo by percentage points (25…200%).
    case tempo(by: Int)
    /// Mutes the singer's own line, or brings it back.
    case toggleMute
    /// Sounds the singer's next note.
    case promptNextNote
    /// Ends the session as sung so far.
    case quit
}
