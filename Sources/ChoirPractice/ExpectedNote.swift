import ChoirPlayback
import ChoirScore

/// A written note of the singer's line, placed on the session's clock.
public struct ExpectedNote: Sendable, Equatable, Codable {
    /// Position in the session, from 0.
    public var index: Int
    /// The printed measure number.
    public var measure: String
    /// Index into the score's measures.
    public var measureIndex: Int
    /// Seconds from the first beat of the practised range, at the session's tempo.
    public var onset: Double
    public var duration: Double
    public var midi: Int
    /// Whether an entrance can be heard here: the first note, a note after a rest, or a change of pitch.
    /// Only entrances are judged late.
    public var isEntrance: Bool
    /// The pitch sung just before, when this note follows another without a rest.
    public var previousMIDI: Int?
    /// The other lines' written notes sounding at this note's middle.
    public var others: [Other]
    /// The key signature in force, in fifths (flats below 0), which spells the note's name.
    public var key: Int

    /// A note another line sings.
    public struct Other: Sendable, Equatable, Codable {
        public var line: String
        public var midi: Int

        public init(line: String, midi: Int) {
            self.line = line
            self.midi = midi
        }
    }

    public var end: Double { onset + duration }

    /// The note's name as its key spells it, e.g. "A♭4".
    public var name: String { PitchName.name(midi: midi, key: key) }

    /// Another pitch's name in this note's key: what the singer sang, or another line's note.
    public func name(of midi: Int) -> String { PitchName.name(midi: midi, key: key) }

    public init(
        index: Int, measure: String, measureIndex: Int, onset: Double, duration: Double, midi: Int, isEntrance: Bool,
        previousMIDI: Int? = nil, others: [Other] = [], key: Int = 0
    ) {
        self.index = index
        self.measure = measure
        self.measureIndex = measureIndex
        self.onset = onset
        self.duration = duration
        self.midi = midi
        self.isEntrance = isEntrance
        self.previousMIDI = previousMIDI
        self.others = others
        self.key = key
    }

    private enum CodingKeys: String, CodingKey {
        case index, measure, measureIndex, onset, duration, midi, isEntrance, previousMIDI, others, key
    }

    /// Reads notes stored before other lines' notes and the key were kept, too.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            index: try c.decode(Int.self, forKey: .index), measure: try c.decode(String.self, forKey: .measure),
            measureIndex: try c.decode(Int.self, forKey: .measureIndex), onset: try c.decode(Double.self, forKey: .onset),
            duration: try c.decode(Double.self, forKey: .duration), midi: try c.decode(Int.self, forKey: .midi),
            isEntrance: try c.decode(Bool.self, forKey: .isEntrance),
            previousMIDI: try c.decodeIfPresent(Int.self, forKey: .previousMIDI),
            others: try c.decodeIfPresent([Other].self, forKey: .others) ?? [],
            key: try c.decodeIfPresent(Int.self, forKey: .key) ?? 0)
    }

    /// Whether the singer rests from `start` to `end` (seconds) in `notes` (in time order): no note starts
    /// within 0.15 s after it (an entrance may come early) or ended less than 0.25 s before it (a voice and its
    /// room take a while to fade).
    public static func isRest(from start: Double, to end: Double, in notes: [ExpectedNote]) -> Bool {
        // The first note ending after `start` − 0.25 s, by bisection.
        var low = 0, high = notes.count
        while low < high {
            let middle = (low + high) / 2
            if notes[middle].end > start - 0.25 { high = middle } else { low = middle + 1 }
        }
        return low == notes.count || notes[low].onset > end + 0.15
    }

    /// Whether the singer rests at `time`; see ``isRest(from:to:in:)``.
    public static func isRest(at time: Double, in notes: [ExpectedNote]) -> Bool { isRest(from: time, to: time, in: notes) }

    /// The singer's notes in `schedule`, in time order; the count-in's pitch is not judged.
    public static func notes(of singer: Int, in schedule: Schedule, score: Score) -> [ExpectedNote] {
        let mine = schedule.notes.filter { $0.line == singer && $0.start >= 0 }.sorted { $0.start < $1.start }
        let names = score.lines.map(\.name)
        let theirs = schedule.notes.filter { $0.line != nil && $0.line != singer }
        var result: [ExpectedNote] = []
        result.reserveCapacity(mine.count)
        for (index, note) in mine.enumerated() {
            let previous = index > 0 ? mine[index - 1] : nil
            // A gap of more than 50 ms is a rest the singer has to come in after.
            let afterRest = previous.map { note.start - $0.end > 0.05 } ?? true
            let entrance = afterRest || previous?.midi != note.midi
            let middle = (note.start + note.end) / 2
            let others = theirs.filter { $0.start <= middle && $0.end > middle }.map { Other(line: names[$0.line!], midi: $0.midi) }
            result.append(
                ExpectedNote(
                    index: index, measure: score.measures[note.measureIndex].number, measureIndex: note.measureIndex,
                    onset: note.start, duration: note.end - note.start, midi: note.midi, isEntrance: entrance,
                    previousMIDI: afterRest ? nil : previous?.midi, others: others,
                    key: score.measures[note.measureIndex].key.fifths))
        }
        return result
    }
}
