/// The verdict on one written note, with the measurements behind it.
public struct NoteResult: Sendable, Equatable, Codable {
    public var note: ExpectedNote
    public var verdict: Verdict
    /// Median deviation of the sung pitch from the written one, in cents (an octave low is about −1200);
    /// nil when the note was missing.
    public var medianCents: Double?
    /// Seconds from the written onset to the first in-tune frame; nil when missing or never in tune.
    public var onsetError: Double?
    /// Share of the note's voiced frames within the tolerance, 0…100.
    public var inTunePercent: Double

    public init(note: ExpectedNote, verdict: Verdict, medianCents: Double?, onsetError: Double?, inTunePercent: Double) {
        self.note = note
        self.verdict = verdict
        self.medianCents = medianCents
        self.onsetError = onsetError
        self.inTunePercent = inTunePercent
    }
}
