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
    /// The singer's line the note is from; nil in histories from before it was kept.
    public var line: String?
    /// The notes of the singer's other lines sounding with this one (a singer taking two lines): the singer is
    /// judged against whichever is nearer to what they sang.
    public var alternatives: [Other]
    /// The beat it starts on, from 1 (2.5 is halfway through the second beat).
    public var beat: Double
    /// The syllable sung on it, if one starts there (none on the later notes of a melisma).
    public var syllable: String?
    /// Seconds a quarter note lasts here, at the session's tempo: how fine timing is heard (``NoteComparator``).
    public var quarterSeconds: Double

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
        previousMIDI: Int? = nil, others: [Other] = [], key: Int = 0, line: String? = nil, alternatives: [Other] = [],
        beat: Double = 1, syllable: String? = nil, quarterSeconds: Double = 0.75
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
        self.line = line
        self.alternatives = alternatives
        self.beat = beat
        self.syllable = syllable
        self.quarterSeconds = quarterSeconds
    }

    /// The note as the singer's other line has it: `alternative`'s pitch and line, here.
    public func sung(as alternative: Other) -> ExpectedNote {
        var note = self
        note.midi = alternative.midi
        note.line = alternative.line
        return note
    }

    private enum CodingKeys: String, CodingKey {
        case index, measure, measureIndex, onset, duration, midi, isEntrance, previousMIDI, others, key, line, alternatives, beat
        case syllable, quarterSeconds
    }

    /// Reads notes stored before other lines' notes, the key, the line, the beat, the syllable and the tempo were
    /// kept, too (a note from then is on beat 1, at ♩ = 80).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            index: try c.decode(Int.self, forKey: .index), measure: try c.decode(String.self, forKey: .measure),
            measureIndex: try c.decode(Int.self, forKey: .measureIndex), onset: try c.decode(Double.self, forKey: .onset),
            duration: try c.decode(Double.self, forKey: .duration), midi: try c.decode(Int.self, forKey: .midi),
            isEntrance: try c.decode(Bool.self, forKey: .isEntrance),
            previousMIDI: try c.decodeIfPresent(Int.self, forKey: .previousMIDI),
            others: try c.decodeIfPresent([Other].self, forKey: .others) ?? [],
            key: try c.decodeIfPresent(Int.self, forKey: .key) ?? 0, line: try c.decodeIfPresent(String.self, forKey: .line),
            alternatives: try c.decodeIfPresent([Other].self, forKey: .alternatives) ?? [],
            beat: try c.decodeIfPresent(Double.self, forKey: .beat) ?? 1,
            syllable: try c.decodeIfPresent(String.self, forKey: .syllable),
            quarterSeconds: try c.decodeIfPresent(Double.self, forKey: .quarterSeconds) ?? 0.75)
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

    /// The singer's notes in `schedule`, in time order, from their lines `singers` (the first first); the
    /// count-in's pitch is not judged. A chord in one of the lines is sung as its upper or lower note, as `divisi`
    /// says. Where several of the singer's lines sound at once, the note of the line earliest in `singers` (or
    /// starting first) is the one expected, and the others' notes sounding at its middle are its alternatives.
    public static func notes(of singers: [Int], in schedule: Schedule, score: Score, divisi: Divisi = .upper) -> [ExpectedNote] {
        let names = score.lines.map(\.name)
        let rank = Dictionary(uniqueKeysWithValues: singers.enumerated().map { ($1, $0) })
        // Each line's notes, a chord kept as the one note divisi picks.
        let mine = chords(of: singers, in: schedule).map { chord in
            divisi == .upper ? chord.max { $0.midi < $1.midi }! : chord.min { $0.midi < $1.midi }!
        }.sorted { ($0.start, rank[$0.line!]!) < ($1.start, rank[$1.line!]!) }
        // A note starting while an expected one sounds is not expected on its own.
        var expected: [Schedule.NoteEvent] = []
        for note in mine where expected.last.map({ note.start >= $0.end - 0.001 }) ?? true { expected.append(note) }
        let theirs = schedule.notes.filter { $0.line != nil && rank[$0.line!] == nil }
        var result: [ExpectedNote] = []
        result.reserveCapacity(expected.count)
        for (index, note) in expected.enumerated() {
            let previous = index > 0 ? expected[index - 1] : nil
            // A gap of more than 50 ms is a rest the singer has to come in after.
            let afterRest = previous.map { note.start - $0.end > 0.05 } ?? true
            let entrance = afterRest || previous?.midi != note.midi
            let middle = (note.start + note.end) / 2
            func sounding(_ notes: [Schedule.NoteEvent]) -> [Other] {
                notes.filter { $0.start <= middle && $0.end > middle }.map { Other(line: names[$0.line!], midi: $0.midi) }
            }
            var alternatives: [Other] = []
            for other in sounding(mine.filter { $0.line != note.line || $0.start != note.start })
            where other.midi != note.midi && !alternatives.contains(where: { $0.midi == other.midi }) {
                alternatives.append(other)
            }
            // The syllable starting with the note, in whichever pass it is sung (the lyrics are one pass's).
            let inPass = schedule.passLength > 0 ? note.start.truncatingRemainder(dividingBy: schedule.passLength) : note.start
            let syllable = schedule.lyrics.first { abs($0.start - inPass) < 0.002 }?.text
            result.append(
                ExpectedNote(
                    index: index, measure: score.measures[note.measureIndex].number, measureIndex: note.measureIndex,
                    onset: note.start, duration: note.end - note.start, midi: note.midi, isEntrance: entrance,
                    previousMIDI: afterRest ? nil : previous?.midi, others: sounding(theirs),
                    key: score.measures[note.measureIndex].key.fifths, line: names[note.line!], alternatives: alternatives,
                    beat: note.beat, syllable: syllable,
                    quarterSeconds: note.quarterLength > 0 ? (note.end - note.start) / note.quarterLength : 0.75))
        }
        return result
    }

    /// The notes `singers`' lines sound from the range's first beat on, line by line in time order, those of a line
    /// that start together (within a millisecond) grouped: a group of more than one pitch is a chord (divisi).
    public static func chords(of singers: [Int], in schedule: Schedule) -> [[Schedule.NoteEvent]] {
        var groups: [[Schedule.NoteEvent]] = []
        for singer in singers {
            for note in schedule.notes.filter({ $0.line == singer && $0.start >= 0 }).sorted(by: { $0.start < $1.start }) {
                if let last = groups.last?.last, last.line == singer, abs(last.start - note.start) < 0.001 {
                    groups[groups.count - 1].append(note)
                } else {
                    groups.append([note])
                }
            }
        }
        return groups
    }

    /// The notes of one line.
    public static func notes(of singer: Int, in schedule: Schedule, score: Score, divisi: Divisi = .upper) -> [ExpectedNote] {
        notes(of: [singer], in: schedule, score: score, divisi: divisi)
    }
}

/// Which note of a chord in the singer's own line they sing.
public enum Divisi: String, Sendable, Codable, CaseIterable {
    case upper, lower
}
