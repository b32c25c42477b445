import ChoirPitch
import ChoirScore
import Glibc

/// How the singer tunes to the chord. Each sung note is held against equal temperament (the piano's tuning) and
/// against the pure interval it makes with the lowest note the other lines sound at that moment: choirs tune
/// thirds, sixths and fifths pure to the bass, and a major third sung as the piano plays it is 14 cents wider than
/// one a choir director hears as in tune.
public enum ChordIntonation {
    /// The consonances a choir tunes pure, by semitones from the bass within an octave (a tenth is a third).
    public enum Interval: Int, Sendable, CaseIterable, Codable {
        case unison = 0, minorThird = 3, majorThird = 4, fourth = 5, fifth = 7, minorSixth = 8, majorSixth = 9

        /// The interval's pure ratio.
        private var ratio: Double {
            switch self {
            case .unison: 1
            case .minorThird: 6.0 / 5
            case .majorThird: 5.0 / 4
            case .fourth: 4.0 / 3
            case .fifth: 3.0 / 2
            case .minorSixth: 8.0 / 5
            case .majorSixth: 5.0 / 3
            }
        }

        /// How much wider the pure interval is than equal temperament's, in cents: −13.7 for a major third.
        public var pureOffset: Double { PitchMath.cents(ratio, from: 1) - Double(rawValue * 100) }

        /// "major third".
        public var name: String {
            switch self {
            case .unison: "unison"
            case .minorThird: "minor third"
            case .majorThird: "major third"
            case .fourth: "fourth"
            case .fifth: "fifth"
            case .minorSixth: "minor sixth"
            case .majorSixth: "major sixth"
            }
        }

        /// "major thirds"; unisons stand for octaves too.
        public var plural: String { self == .unison ? "unisons and octaves" : name + "s" }
    }

    /// One sung note against the chord.
    public struct Note: Sendable, Equatable {
        public var note: ExpectedNote
        /// The other lines' lowest note sounding at the note's middle.
        public var bass: ExpectedNote.Other
        public var interval: Interval
        /// Whether the singer is above that note; below it, the interval is measured down from it.
        public var above: Bool
        /// The sung pitch's distance from the written one in equal temperament, in cents (sharp above 0).
        public var equalCents: Double
        /// How much wider (above 0) or narrower the sung interval is than the pure one, in cents.
        public var pureCents: Double

        /// Where a choir puts the note, in cents from the written pitch: the pure interval's offset from the
        /// piano's, up from the bass or down from it.
        public var target: Double { above ? interval.pureOffset : -interval.pureOffset }

        /// "major third over the Bass's C3", "octave with the Bass's C3".
        public var description: String {
            let bass = "the \(bass.line)'s \(note.name(of: bass.midi))"
            if interval == .unison { return (note.midi == self.bass.midi ? "unison" : "octave") + " with " + bass }
            return "\(interval.name) \(above ? "over" : "under") \(bass)"
        }
    }

    /// `result` against its chord; nil when no other line sounds, the interval is not a consonance a choir tunes
    /// pure, or the singer did not sing near the written pitch (a wrong note, an octave, another line's note).
    public static func note(_ result: NoteResult) -> Note? {
        guard let cents = result.medianCents, [.correct, .flat, .sharp, .late].contains(result.verdict),
            result.evidence?.sangOther == nil, let bass = result.note.others.min(by: { $0.midi < $1.midi }),
            let interval = Interval(rawValue: abs(result.note.midi - bass.midi) % 12)
        else { return nil }
        let above = result.note.midi >= bass.midi
        return Note(
            note: result.note, bass: bass, interval: interval, above: above, equalCents: cents,
            pureCents: (above ? cents : -cents) - interval.pureOffset)
    }

    /// How the singer tuned one kind of interval over some notes.
    public struct Tendency: Sendable, Equatable {
        public var interval: Interval
        public var above: Bool
        public var notes: Int
        /// Mean distance from the pure interval, in cents (wide above 0), and its extremes.
        public var pureCents: Double
        public var narrowest: Double
        public var widest: Double
        /// Mean distance from equal temperament, in cents (sharp above 0).
        public var equalCents: Double

        /// How many notes lean the way the mean does, and how many are within ``near`` cents of pure.
        public var leaning: Int
        public var nearPure: Int

        /// The least distance from pure, in cents, a tendency is called off at, and the share of its notes that
        /// must lean that way (or be near pure, for it to be called pure).
        static let off = 8.0, consistency = 0.75
        /// The most mean distance from pure that is still called pure, what a trained ear lets pass, and how near a
        /// note must be.
        static let pure = 5.0, near = 10.0

        /// "major thirds over the bass".
        public var kind: String {
            interval.plural + (interval == .unison ? " with the bass" : above ? " over the bass" : " under the other lines")
        }

        /// Whether most of the notes lean the same way, far enough from pure to be heard.
        public var isOff: Bool {
            abs(pureCents) >= Self.off && Double(leaning) >= Self.consistency * Double(notes)
        }

        /// "Your major thirds over the bass are 14 cents wide (9 notes; +0 cents from equal temperament)"; "9 notes
        /// over 5 sessions" when they come from `sessions` sessions.
        public func summary(sessions: Int? = nil) -> String {
            let equal =
                "\(notes) notes" + (sessions.map { " over \($0) session\($0 == 1 ? "" : "s")" } ?? "")
                + "; \(String(printf: "%+.0f", equalCents)) cents from equal temperament"
            if isOff { return "Your \(kind) are \(Self.cents(pureCents)) (\(equal))" }
            if abs(pureCents) < Self.pure && Double(nearPure) >= Self.consistency * Double(notes) {
                return "Your \(kind) are pure, \(Self.cents(pureCents)) on average (\(equal))"
            }
            return
                "Your \(kind) vary: \(Self.cents(pureCents)) on average, from \(Self.cents(narrowest)) to \(Self.cents(widest)) (\(equal))"
        }

        /// "14 cents wide", "3 cents narrow".
        static func cents(_ value: Double) -> String {
            let rounded = Int(value.rounded())
            return rounded == 0 ? "0 cents off" : "\(abs(rounded)) cent\(abs(rounded) == 1 ? "" : "s") \(rounded > 0 ? "wide" : "narrow")"
        }
    }

    /// `results` against their chords: each interval (above or below the bass) sung at least `minimum` times,, in
    /// the order of ``Interval``.
    public static func tendencies(_ results: some Sequence<NoteResult>, minimum: Int = 4) -> [Tendency] {
        let grouped = Dictionary(grouping: results.compactMap(note)) { "\($0.interval.rawValue) \($0.above)" }
        return grouped.values.filter { $0.count >= minimum }.map { notes in
            let pure = notes.map(\.pureCents)
            let mean = pure.reduce(0, +) / Double(pure.count)
            return Tendency(
                interval: notes[0].interval, above: notes[0].above, notes: notes.count, pureCents: mean,
                narrowest: pure.min()!, widest: pure.max()!,
                equalCents: notes.map(\.equalCents).reduce(0, +) / Double(notes.count),
                leaning: pure.count { mean >= 0 ? $0 > 0 : $0 < 0 }, nearPure: pure.count { abs($0) <= Tendency.near })
        }.sorted { ($0.interval.rawValue, $0.above ? 0 : 1) < ($1.interval.rawValue, $1.above ? 0 : 1) }
    }
}
