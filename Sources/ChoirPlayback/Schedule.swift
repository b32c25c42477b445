import ChoirScore

/// What to play and how: the practised range, tempo, loop, count-in, click and the singer's line.
public struct PlaybackOptions: Sendable {
    /// Follow repeats and jumps (playback order) rather than written order.
    public var unfolded = true
    /// Scales every tempo of the score, in percent.
    public var tempoPercent: Double?
    /// One quarter-note tempo for the whole piece, replacing the score's.
    public var quarterNotesPerMinute: Double?
    /// First and last measure to play, by their printed numbers.
    public var fromMeasure: String?
    public var toMeasure: String?
    /// How many times the range is played.
    public var passes = 1
    public var countIn = false
    /// Whether the count-in sounds the first note of each of the singer's lines with its first click.
    public var countInPitch = true
    public var click = false
    /// The singer's line, an index into `Score.lines`.
    public var singer: Int?
    /// All the singer's lines, when they sing more than one (the count-in sounds each one's first note); empty for
    /// `singer` alone.
    public var singers: [Int] = []
    /// The verse the singer's lyrics start at; repeats go on to the next.
    public var verse = 1

    public init() {}
}

/// A problem with the options for this score, with what was expected.
public struct PlaybackError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The notes of every line, the clicks and the count-in, in seconds from the first beat of the practised range
/// (the count-in, when there is one, comes before zero).
public struct Schedule: Sendable {
    public struct NoteEvent: Sendable, Equatable {
        /// Index into `Score.lines`; nil for the click.
        public var line: Int?
        public var midi: Int
        public var velocity: Int
        public var start: Double
        public var end: Double
        /// Quarter notes from the start of the range, for MIDI files.
        public var quarter: Double
        public var quarterLength: Double
        /// The measure this note belongs to (index into `Score.measures`).
        public var measureIndex: Int
        /// The beat it starts on, from 1, in its measure's time signature (2.5 is halfway through the second
        /// beat); a pickup's notes fall on its measure's last beats.
        public var beat: Double = 1
    }

    public var notes: [NoteEvent]
    /// Seconds before zero taken by the count-in.
    public var preroll: Double
    /// Seconds from zero to the end of the last pass.
    public var length: Double
    /// How many times the range is played (`--loop`), and the seconds each time takes.
    public var passes: Int
    public var passLength: Double { length / Double(passes) }
    /// Quarter-note tempo at the start of the range, after scaling.
    public var initialTempo: Double
    /// Measures played, in order, with the second each starts at (one pass).
    public var measures: [(index: Int, start: Double)]
    /// The singer's syllables, one pass, in time order, from the verse asked for (`Timeline.lyrics(of:verse:in:)`).
    public var lyrics: [SungSyllable] = []

    /// A syllable of the singer's lyrics on the schedule.
    public struct SungSyllable: Sendable, Equatable, Codable {
        public var start: Double
        public var text: String
        /// Whether the word goes on in the next syllable.
        public var continues: Bool

        public init(start: Double, text: String, continues: Bool) {
            self.start = start
            self.text = text
            self.continues = continues
        }
    }

    /// The GM percussion keys of the click: an accented downbeat and the other beats.
    public static let clickKeys = (downbeat: 76, beat: 77)

    public init(score: Score, lines: [Line], options: PlaybackOptions) throws(PlaybackError) {
        if let percent = options.tempoPercent, !(percent.isFinite && percent >= 10 && percent <= 400) {
            throw PlaybackError("tempo \(percent)%: expected 10 to 400")
        }
        if let bpm = options.quarterNotesPerMinute, !(bpm.isFinite && bpm >= 10 && bpm <= 400) {
            throw PlaybackError("bpm \(bpm): expected 10 to 400 quarter notes per minute")
        }
        guard (1...1000).contains(options.passes) else { throw PlaybackError("loop \(options.passes): expected 1 to 1000 passes") }
        let timeline = Timeline(score, unfolded: options.unfolded)
        let entries = try Self.range(timeline.entries, score: score, options: options)
        guard let first = entries.first, let last = entries.last else { throw PlaybackError("the score has no measures") }

        // The tempo map restricted to the range and shifted so that the range starts at quarter 0.
        let offset = first.start
        var points = timeline.tempoMap.points.filter { $0.position > offset && $0.position < last.start + last.duration }
            .map { TempoMap.Point(position: $0.position - offset, quarterNotesPerMinute: $0.quarterNotesPerMinute) }
        points.insert(TempoMap.Point(position: .zero, quarterNotesPerMinute: timeline.tempoMap.tempo(at: offset)), at: 0)
        var tempo = TempoMap(points)
        if let bpm = options.quarterNotesPerMinute {
            tempo = TempoMap([TempoMap.Point(position: .zero, quarterNotesPerMinute: bpm)])
        } else if let percent = options.tempoPercent {
            tempo = tempo.scaled(by: percent / 100)
        }
        initialTempo = tempo.initialTempo
        let rangeLength = last.start + last.duration - offset
        let passSeconds = tempo.seconds(at: rangeLength)

        var notes: [NoteEvent] = []
        var placedMeasures: [(Int, Double)] = []
        let rangeEntries = Timeline(entries: entries)
        for (index, line) in lines.enumerated() {
            for note in rangeEntries.place(line.notes, in: score) {
                let quarter = note.onset - offset
                // A note tied past the range's last measure stops where the range does: it is played and judged
                // for what of it lies in the range.
                let end = min(quarter + note.duration, rangeLength)
                notes.append(
                    NoteEvent(
                        line: index, midi: note.midi, velocity: note.velocity, start: tempo.seconds(at: quarter),
                        end: tempo.seconds(at: end), quarter: quarter.doubleValue,
                        quarterLength: (end - quarter).doubleValue, measureIndex: note.measureIndex,
                        beat: Self.beat(of: note.onset, in: entries, score: score)))
            }
        }
        for entry in entries { placedMeasures.append((entry.measureIndex, tempo.seconds(at: entry.start - offset))) }
        if let singer = options.singer {
            for lyric in rangeEntries.lyrics(of: lines[singer], verse: options.verse, in: score) {
                lyrics.append(
                    SungSyllable(
                        start: tempo.seconds(at: lyric.onset - offset), text: lyric.text,
                        continues: lyric.syllabic == .begin || lyric.syllabic == .middle))
            }
        }
        if options.click {
            for entry in entries {
                let measure = score.measures[entry.measureIndex]
                let beat = Rational(4, measure.time.beatType)
                var position = Rational.zero
                var count = 0
                while position < entry.duration {
                    let quarter = entry.start - offset + position
                    let start = tempo.seconds(at: quarter)
                    notes.append(
                        NoteEvent(
                            line: nil, midi: count == 0 ? Self.clickKeys.downbeat : Self.clickKeys.beat, velocity: 100,
                            start: start, end: start + 0.05, quarter: quarter.doubleValue, quarterLength: 0.1,
                            measureIndex: entry.measureIndex))
                    position += beat
                    count += 1
                }
            }
        }
        // Passes follow one another.
        let onePass = notes
        for pass in 1..<options.passes {
            let shift = Double(pass) * passSeconds
            let quarterShift = Double(pass) * rangeLength.doubleValue
            notes += onePass.map {
                var moved = $0
                moved.start += shift
                moved.end += shift
                moved.quarter += quarterShift
                return moved
            }
        }
        // A bar of clicks before zero, with the singer's first note to pitch from.
        var preroll = 0.0
        if options.countIn {
            let measure = score.measures[first.measureIndex]
            let beats = measure.time.beats.reduce(0, +)
            let beatSeconds = 60 / tempo.initialTempo * 4 / Double(measure.time.beatType)
            preroll = Double(beats) * beatSeconds
            for beat in 0..<beats {
                let start = -preroll + Double(beat) * beatSeconds
                notes.append(
                    NoteEvent(
                        line: nil, midi: beat == 0 ? Self.clickKeys.downbeat : Self.clickKeys.beat, velocity: 100,
                        start: start, end: start + 0.05, quarter: -Double(beats - beat), quarterLength: 0.1,
                        measureIndex: first.measureIndex))
            }
            let singers = options.singers.isEmpty ? options.singer.map { [$0] } ?? [] : options.singers
            for singer in singers where options.countInPitch {
                guard let firstNote = notes.filter({ $0.line == singer }).min(by: { $0.start < $1.start }) else { continue }
                notes.append(
                    NoteEvent(
                        line: singer, midi: firstNote.midi, velocity: firstNote.velocity, start: -preroll,
                        end: -preroll + beatSeconds * 0.9, quarter: -Double(beats), quarterLength: 0.9,
                        measureIndex: first.measureIndex))
            }
        }
        notes.sort { $0.start == $1.start ? ($0.line ?? -1) < ($1.line ?? -1) : $0.start < $1.start }
        self.notes = notes
        self.preroll = preroll
        self.length = passSeconds * Double(options.passes)
        self.passes = options.passes
        self.measures = placedMeasures
    }

    /// How long each line's first note sounds in ``startingPitch(of:)``, and the silence before the next.
    public static let pitchSeconds = 1.5, pitchGap = 0.25

    /// The starting pitch of each of `lines` (indices into `Score.lines`, in the order to sound them): its first note
    /// in the range, one line after another, each for ``pitchSeconds``; no clicks, no count-in, no other line. A line
    /// with no note in the range is left out.
    public func startingPitch(of lines: [Int]) -> Schedule {
        var pitch = self
        pitch.notes = []
        for line in lines {
            guard let first = notes.filter({ $0.line == line && $0.start >= 0 }).min(by: { $0.start < $1.start }) else { continue }
            var note = first
            note.start = Double(pitch.notes.count) * (Self.pitchSeconds + Self.pitchGap)
            note.end = note.start + Self.pitchSeconds
            pitch.notes.append(note)
        }
        pitch.preroll = 0
        pitch.passes = 1
        pitch.length = pitch.notes.last?.end ?? 0
        pitch.measures = Array(measures.prefix(1))
        pitch.lyrics = []
        return pitch
    }

    /// The beat, from 1, of the time line's quarter `onset` in the measure it falls in: a measure shorter than its
    /// time signature at the start of the piece is a pickup, whose beats are the last ones.
    static func beat(of onset: Rational, in entries: [Timeline.Entry], score: Score) -> Double {
        guard let entry = entries.last(where: { $0.start <= onset }) else { return 1 }
        let measure = score.measures[entry.measureIndex]
        let beatLength = Rational(4, measure.time.beatType)
        let pickup = entry.measureIndex == 0 ? max(.zero, measure.time.measureLength - measure.duration) : .zero
        return ((onset - entry.start + pickup) / beatLength).doubleValue + 1
    }

    /// The entries from the first occurrence of `from` to the first occurrence of `to` after it.
    private static func range(_ entries: [Timeline.Entry], score: Score, options: PlaybackOptions)
        throws(PlaybackError) -> [Timeline.Entry]
    {
        let numbers = score.measures.map(\.number)
        func occurrence(_ number: String, from start: Int) throws(PlaybackError) -> Int {
            guard numbers.contains(number) else {
                throw PlaybackError(
                    "measure \(number) is not in the score: expected \(numbers.first ?? "")–\(numbers.last ?? "")")
            }
            guard let found = entries[start...].firstIndex(where: { numbers[$0.measureIndex] == number }) else {
                throw PlaybackError("measure \(number) is not played after the start of the range")
            }
            return found
        }
        let start = try options.fromMeasure.map { (m: String) throws(PlaybackError) in try occurrence(m, from: 0) } ?? 0
        let end =
            try options.toMeasure.map { (m: String) throws(PlaybackError) in try occurrence(m, from: start) }
            ?? entries.count - 1
        guard start <= end else { throw PlaybackError("the range ends before it starts") }
        return Array(entries[start...end])
    }
}
