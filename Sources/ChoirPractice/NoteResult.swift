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
    /// What the verdict rests on; nil in histories written before it was kept.
    public var evidence: Evidence?
    /// Which time through the session the note was sung in, from 1: a loop, a step back or a drill pass starts
    /// another.
    public var pass: Int

    /// What a verdict rests on: how much of the note was sung, how many frames the pitch was judged on, and
    /// whose note the singer sang if another line's.
    public struct Evidence: Sendable, Equatable, Codable {
        /// Share of the note's frames (after its first moments) that were the singer singing, 0…1.
        public var voicedShare: Double
        /// Frames the pitch was judged on: those where the singer held it.
        public var framesJudged: Int
        /// Another line's written note that the sung pitch matches (within 50 cents) better than the singer's own.
        public var sangOther: ExpectedNote.Other?

        public init(voicedShare: Double, framesJudged: Int, sangOther: ExpectedNote.Other? = nil) {
            self.voicedShare = voicedShare
            self.framesJudged = framesJudged
            self.sangOther = sangOther
        }
    }

    public init(
        note: ExpectedNote, verdict: Verdict, medianCents: Double?, onsetError: Double?, inTunePercent: Double,
        evidence: Evidence? = nil, pass: Int = 1
    ) {
        self.note = note
        self.verdict = verdict
        self.medianCents = medianCents
        self.onsetError = onsetError
        self.inTunePercent = inTunePercent
        self.evidence = evidence
        self.pass = pass
    }
}
