import ChoirPractice

/// What a run of a practice session came to, handed from the run on the session's thread to the session, which
/// makes the report of it: what was judged, how the audio fared, how it ended and where the music was then.
struct SessionRun {
    var results: [NoteResult] = []
    var trace: [TracePoint] = []
    var audio: AudioHealth?
    var ending: PracticeSession.Ending
    /// The measure and pass the music was in at the end; nil for a run that failed before the music began.
    var place: (measure: String, pass: Int)?
    /// Seconds a take was moved by to fit the score (``TakeAlignment``).
    var alignment: Double?
    /// The notes a take ended before.
    var unsung: SessionReport.Unsung?
    /// How many of the results have been published as events.
    var published = 0
    /// The microphone's recording (``PracticePlan/record``), once finished.
    var recording: RecordedTake?
    /// The file the mix was written to, once it is in place.
    var mixFile: String?
}
