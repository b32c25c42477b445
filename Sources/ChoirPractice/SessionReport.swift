import ChoirBase
import ChoirPlayback
import ChoirScore
import Glibc

/// Everything a finished (or interrupted) session says: what was practised and each note's verdict, with
/// the figures derived from them.
public struct SessionReport: Sendable, Codable, Equatable {
    public var score: String
    /// What the piece is called (``Score/name(file:)``); nil in sessions stored before it was kept.
    public var title: String?

    /// What the piece is called: its title, else its file's name.
    public var piece: String { title ?? Score.fileName(score) }
    /// The score's file as the history keys sessions (its content and path); nil when not known.
    public var identity: ScoreIdentity?
    public var part: String
    public var tempo: Double
    public var tempoPercent: Double
    public var options: NoteComparator.Options
    public var results: [NoteResult]
    public var trace: [TracePoint]
    /// Where each measure of the session starts, for drawing.
    public var measureStarts: [MeasureMark]
    /// How the audio devices fared, for a live session.
    public var audio: AudioHealth?
    /// The notes a take ended before: not sung, so neither judged nor counted as mistakes.
    public var unsung: Unsung?
    /// Seconds a take was moved by to fit the score (``TakeAlignment``): positive where its singing started late.
    public var alignment: Double?
    /// Where a session ended by a signal (or a closed window) stopped; nil for one that ran to its end or was quit.
    public var interruption: Interruption?
    /// Semitones the score was moved by for the session.
    public var transpose = 0
    /// The lyric verse sung, from 1, and the syllables sung, on the session's clock (one pass).
    public var verse = 1
    public var lyrics: [Schedule.SungSyllable] = []
    /// How the session was sung; nil in histories from before it was kept and not live.
    public var kind: Kind?

    /// The chords in the singer's line and which of their notes was judged; nil when the line has none.
    public var divisi: DivisiChoice?
    /// The singer's marks on the measures practised, in measure order (``PracticeMark``).
    public private(set) var marks: [PracticeMark] = []

    /// The names of the singer's lines ("Soprano + Descant" is two).
    public var lines: [String] { part.components(separatedBy: " + ") }

    /// Keeps those of `marks` that fall on the measures practised, in their order.
    public mutating func keep(_ marks: [PracticeMark]) {
        let order = Dictionary(measureStarts.enumerated().map { ($0.element.number, $0.offset) }, uniquingKeysWith: { a, _ in a })
        self.marks = marks.filter { order[$0.measure] != nil }.sorted { (order[$0.measure]!, $0.id) < (order[$1.measure]!, $1.id) }
    }

    /// Which note of the chords in the singer's line was judged, and how many chords there were.
    public struct DivisiChoice: Sendable, Codable, Equatable {
        public var note: Divisi
        public var chords: Int

        public init(note: Divisi, chords: Int) {
            self.note = note
            self.chords = chords
        }

        /// "your line has 3 chords; the upper note of each was judged".
        public var summary: String {
            "your line has \(chords) chord\(chords == 1 ? "" : "s"); the \(note.rawValue) note of \(chords == 1 ? "it" : "each") was judged"
        }
    }

    /// Each line's figures, in the order first sung, when the singer sang more than one line.
    public var lineFigures: [(line: String, notes: Int, correct: Int, accuracy: Double)] {
        let lines = Self.figures(of: results) { $0.note.line }
        return lines.count > 1 ? lines.map { ($0.key, $0.notes, $0.correct, $0.accuracy) } : []
    }

    /// How a session was sung.
    public enum Kind: String, Sendable, Codable {
        /// From a recorded take.
        case file
        /// At a microphone.
        case live
        /// A drill's passes at a microphone.
        case drill
    }

    /// The practised range's first and last measures, by printed number.
    public var range: (first: String, last: String)? {
        guard let first = measureStarts.first, let last = measureStarts.last else { return nil }
        return (first.number, last.number)
    }

    /// "transposed down 2 semitones", or nil.
    public var transposition: String? { Self.transposition(transpose) }

    /// "transposed up 1 semitone" for 1, nil for 0.
    public static func transposition(_ semitones: Int) -> String? {
        semitones == 0 ? nil : "transposed \(semitones > 0 ? "up" : "down") \(abs(semitones)) semitone\(abs(semitones) == 1 ? "" : "s")"
    }

    /// "the take starts 0.30 s late: aligned", when the take was moved by ``TakeAlignment/smallest`` or more; less
    /// is the judge placing a take that starts on the beat by its entrances.
    public var alignmentSummary: String? {
        alignment.flatMap { abs($0) >= TakeAlignment.smallest ? $0 : nil }.map { shift in
            "the take starts \(String(printf: "%.2f", abs(shift))) s \(shift > 0 ? "late" : "early"): aligned (--no-align judges it as recorded)"
        }
    }

    /// How far the singer's entrances came steadily early (below 0) or late, in seconds: the median of their
    /// offsets where there are eight or more and at least three quarters of them lie 30 ms or more to the same
    /// side. Nil when there is no such lean. For a take that was not aligned, or a live session whose latency may
    /// be off, it says what alignment says of a recording.
    public var steadyOffset: Double? {
        let offsets = results.filter { $0.note.isEntrance }.compactMap(\.onsetError).sorted()
        guard offsets.count >= 8 else { return nil }
        let median = offsets[offsets.count / 2]
        let side = offsets.count { median > 0 ? $0 >= 0.03 : $0 <= -0.03 }
        guard abs(median) >= 0.06, 4 * side >= 3 * offsets.count else { return nil }
        return median
    }

    /// The end of the range that a take shorter than it left out.
    public struct Unsung: Sendable, Codable, Equatable {
        /// How many of the singer's notes come after the take's end.
        public var notes: Int
        /// The printed number of the measure of the first of them.
        public var measure: String

        public init(notes: Int, measure: String) {
            self.notes = notes
            self.measure = measure
        }

        /// The one line that says so.
        public var summary: String {
            "the take ends in m. \(measure): its \(notes == 1 ? "last note is" : "last \(notes) notes are") not sung, "
                + "so not judged and not counted as mistakes"
        }
    }

    /// Where an interrupted session stopped: the notes after it were not reached, so neither judged nor counted.
    public struct Interruption: Sendable, Codable, Equatable {
        /// The measure being played, by printed number.
        public var measure: String
        /// The pass through the range it was in, from 1, and how many the session was to play (nil when not known: a
        /// session cut off without a word).
        public var pass: Int
        public var passes: Int?
        /// The notes of the range in all its passes; nil when not known (a session cut off without a word).
        public var notes: Int?

        public init(measure: String, pass: Int, passes: Int?, notes: Int?) {
            self.measure = measure
            self.pass = pass
            self.passes = passes
            self.notes = notes
        }

        /// Where, for a session that judged `judged` notes: "in m. 7, pass 2 of 8, after 40 of 224 notes; the rest
        /// not judged".
        public func summary(judged: Int) -> String {
            let place = measure.contains(where: \.isNumber) ? "in m. \(measure)" : "before the first beat"
            let round = if let passes, passes > 1 { ", pass \(pass) of \(passes)" } else if pass > 1 { ", pass \(pass)" } else { "" }
            return "\(place)\(round), after \(judged)" + (notes.map { " of \($0)" } ?? "") + " notes; the rest not judged"
        }
    }

    public init(
        score: String, part: String, tempo: Double, tempoPercent: Double = 100, options: NoteComparator.Options,
        results: [NoteResult], trace: [TracePoint], measureStarts: [MeasureMark], audio: AudioHealth? = nil
    ) {
        self.score = score
        self.part = part
        self.tempo = tempo
        self.tempoPercent = tempoPercent
        self.options = options
        self.results = results
        self.trace = trace
        self.measureStarts = measureStarts
        self.audio = audio
    }

    public var correct: Int { results.count { $0.verdict.isCorrect } }

    /// Correct notes as a share of all, 0…100.
    public var accuracy: Double { results.isEmpty ? 0 : 100 * Double(correct) / Double(results.count) }

    /// Each pass through the music, in order: its number and its notes' figures.
    public var passes: [(number: Int, notes: Int, correct: Int, accuracy: Double)] {
        Dictionary(grouping: results, by: \.pass).sorted { $0.key < $1.key }.map { number, results in
            let correct = results.count { $0.verdict.isCorrect }
            return (number, results.count, correct, 100 * Double(correct) / Double(results.count))
        }
    }

    public var counts: [Verdict: Int] { Dictionary(grouping: results, by: \.verdict).mapValues(\.count) }

    /// Mean absolute deviation of the sung notes, in cents, octave and wrong notes left out.
    public var meanAbsoluteCents: Double? { mean(pitched.map { abs($0) }) }

    /// Mean signed deviation: below 0 the singer tends to be flat.
    public var biasCents: Double? { mean(pitched) }

    /// How the singer tuned each interval over the other lines' bass (``ChordIntonation``), those sung at least
    /// four times.
    public var chord: [ChordIntonation.Tendency] { ChordIntonation.tendencies(results) }

    /// Deviations of the notes sung near the written pitch.
    private var pitched: [Double] {
        results.compactMap { result in
            guard let cents = result.medianCents, ![.wrong, .octave, .missing].contains(result.verdict) else { return nil }
            return cents
        }
    }

    private func mean(_ values: [Double]) -> Double? { values.isEmpty ? nil : values.reduce(0, +) / Double(values.count) }

    /// Accuracy per measure, in the order the measures were first sung.
    public var measures: [(number: String, accuracy: Double)] {
        Self.figures(of: results) { $0.note.measure }.map { ($0.key, $0.accuracy) }
    }

    /// The notes of `results` grouped by `key` (those without one left out), in the order each key first comes:
    /// how many notes, how many right, and the share right, 0…100.
    public static func figures(of results: some Sequence<NoteResult>, by key: (NoteResult) -> String?)
        -> [(key: String, notes: Int, correct: Int, accuracy: Double)]
    {
        var order: [String] = []
        var tally: [String: (correct: Int, total: Int)] = [:]
        for result in results {
            guard let key = key(result) else { continue }
            if tally[key] == nil { order.append(key) }
            tally[key, default: (0, 0)].total += 1
            if result.verdict.isCorrect { tally[key, default: (0, 0)].correct += 1 }
        }
        return order.map { ($0, tally[$0]!.total, tally[$0]!.correct, 100 * Double(tally[$0]!.correct) / Double(tally[$0]!.total)) }
    }

    /// A passage worth practising: consecutive measures with mistakes, worst first.
    public struct Passage: Sendable, Equatable {
        /// The measures, as a drill takes them, and their mistakes.
        public var measures: Drill.Passage
        public var accuracy: Double
        /// A concrete next step.
        public var suggestion: String

        /// "mm. 6–7: 2 mistakes, 33%".
        public var summary: String {
            "\(measures.span): \(measures.mistakes) mistake\(measures.mistakes == 1 ? "" : "s"), \(String(printf: "%.0f", accuracy))%"
        }
    }

    /// The (up to) three weakest passages, as a drill takes them (`Drill.passages`: at most four measures
    /// each), each with a command that loops it slower, in the session's key.
    public var weakestPassages: [Passage] {
        let numbers = measures.map(\.number)
        return Drill.passages(of: self).map { drill in
            let span = numbers[numbers.firstIndex(of: drill.first)!...numbers.firstIndex(of: drill.last)!]
            let notes = results.count { span.contains($0.note.measure) }
            let accuracy = 100 * Double(notes - drill.mistakes) / Double(max(1, notes))
            let words = drill.first == drill.last ? "measure \(drill.first)" : "measures \(drill.first)–\(drill.last)"
            let tempo = Int(tempoPercent * Double(accuracy < 50 ? 70 : 80) / 100)
            return Passage(
                measures: drill, accuracy: accuracy,
                suggestion: "loop \(words) at \(tempo)%: choir practice \(score.shellQuoted) --part \(part.shellQuoted) "
                    + "--from \(drill.first.shellQuoted) --to \(drill.last.shellQuoted) --loop 3 --tempo \(tempo)"
                    + (transpose == 0 ? "" : " --transpose \(transpose)"))
        }
    }
}

/// A measure's printed number and where it starts, in seconds on the session's clock.
public struct MeasureMark: Sendable, Codable, Equatable {
    public var number: String
    public var time: Double
    public init(number: String, time: Double) {
        self.number = number
        self.time = time
    }
}

/// What went wrong with a live session's audio: gaps recovered on either device, samples the judge never saw,
/// and the error that ended the session early, if one did.
public struct AudioHealth: Sendable, Codable, Equatable {
    public var underruns: Int
    public var overruns: Int
    public var droppedSamples: Int
    public var error: String?
    /// How loud the mix came through the microphone from the loudspeakers, in dB of the mix as played; nil
    /// when it did not (headphones), or the mix did not go to a device.
    public var loudspeakersDecibels: Double?

    public init(underruns: Int, overruns: Int, droppedSamples: Int, error: String? = nil, loudspeakersDecibels: Double? = nil) {
        self.underruns = underruns
        self.overruns = overruns
        self.droppedSamples = droppedSamples
        self.error = error
        self.loudspeakersDecibels = loudspeakersDecibels
    }

    /// The loudspeakers' level from the gain at which the mix reached the microphone: nil below −40 dB, which is
    /// what a microphone hears of headphones, or of nothing.
    public static func loudspeakers(gain: Double) -> Double? {
        let decibels = 20 * log10(max(gain, 1e-9))
        return decibels > -40 ? decibels : nil
    }

    public var summary: String {
        "\(underruns) underrun\(underruns == 1 ? "" : "s"), \(overruns) overrun\(overruns == 1 ? "" : "s"), "
            + "\(droppedSamples) sample\(droppedSamples == 1 ? "" : "s") dropped"
            + (loudspeakersDecibels.map { "; the loudspeakers reached the microphone at \(String(printf: "%.0f", $0)) dB" } ?? "")
    }
}
