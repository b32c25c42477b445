import ChoirBase
import ChoirScore
import Glibc

extension NoteResult {
    /// The pitch sung, as a fractional MIDI number; nil when the note was missing.
    public var sungMIDI: Double? { medianCents.map { Double(note.midi) + $0 / 100 } }

    /// The pitch sung, in Hz; nil when the note was missing.
    public var sungFrequency: Double? { sungMIDI.map { PitchMath.hertz(midi: $0) } }

    /// The pitch sung as the nearest note's name in the note's key and the cents from it, "F♯3 −12¢"; nil when
    /// the note was missing.
    public var sungName: String? {
        guard let sung = sungMIDI else { return nil }
        let nearest = sung.rounded()
        return "\(note.name(of: Int(nearest))) \(String(printf: "%+.0f", (sung - nearest) * 100).signed)¢"
    }

    /// How early (below 0) or late the entrance came, in whole milliseconds; nil where it was not timed.
    public var offsetMilliseconds: Int? { note.isEntrance ? onsetError.map { Int(($0 * 1000).rounded()) } : nil }

    /// "170 ms late", "40 ms early", "on the beat"; nil where the entrance was not timed.
    public var offsetText: String? {
        offsetMilliseconds.map { $0 == 0 ? "on the beat" : "\(abs($0)) ms \($0 < 0 ? "early" : "late")" }
    }

    /// Where the note is: "m. 7 beat 2½".
    public var place: String { "m. \(note.measure) beat \(Self.beat(note.beat))" }

    /// The note in one line, what a teacher would say of it: "m. 7 beat 1 “that”: B3 sung B3 +4¢, 170 ms late — late".
    public var summary: String {
        var sung = sungName.map { "sung \($0)" } ?? "not sung"
        if let offset = offsetText, verdict != .missing { sung += ", " + offset }
        return "\(place)\(note.syllable.map { " “\($0)”" } ?? ""): \(note.name) \(sung) — \(verdict.rawValue)"
    }

    /// A beat from 1 as musicians count: whole beats as they are, halves and quarters as fractions, the rest to one
    /// decimal.
    static func beat(_ beat: Double) -> String {
        let whole = beat.rounded(.down), part = beat - whole
        for (fraction, sign) in [(0.25, "¼"), (0.5, "½"), (0.75, "¾")] where abs(part - fraction) < 0.01 {
            return "\(Int(whole))\(sign)"
        }
        return part < 0.01 || part > 0.99 ? "\(Int(beat.rounded()))" : String(printf: "%.1f", beat)
    }
}

extension String {
    /// "−12" for "-12": the minus sign a reader expects.
    fileprivate var signed: String { replacingOccurrences(of: "-", with: "−") }
}
