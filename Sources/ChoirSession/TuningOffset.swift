/// How far a sung pitch is from the note to sing, as a live view's needle shows it: in cents, a note sung an octave
/// (or more) away folded onto the written one, since a singer in another octave is singing the right note.
public struct TuningOffset: Sendable, Equatable {
    /// Cents from the note, after folding.
    public var cents: Double
    /// The whole octaves folded away (negative below); 0 when not folded.
    public var octaves: Int

    /// The offset of `sung` (a fractional MIDI number) from the MIDI note `target`; it is folded when it lies within
    /// 100 cents of an octave of the target.
    public init(sung: Double, target: Int) {
        let cents = (sung - Double(target)) * 100
        let octaves = (cents / 1200).rounded()
        let folded = abs(cents - octaves * 1200) < 100
        self.cents = folded ? cents - octaves * 1200 : cents
        self.octaves = folded ? Int(octaves) : 0
    }

    /// -1 below the needle's ±100 cents, 1 above, 0 within.
    public var beyond: Int { cents.rounded() < -100 ? -1 : cents.rounded() > 100 ? 1 : 0 }

    /// Whether it is within `tolerance` cents (the judge's, ``LiveCues/tolerance``): shown in tune.
    public func isInTune(within tolerance: Double) -> Bool { abs(cents) <= tolerance }
}
