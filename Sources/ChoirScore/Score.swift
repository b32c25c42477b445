/// A score as a musician reads it: metadata, measures, tempo marks and the sounding notes of each part.
///
/// Positions are exact quarter-note offsets from the start of the first measure, in written order
/// (repeats not unfolded); `playbackOrder` unfolds them.
public struct Score: Sendable {
    public var title: String?
    public var composer: String?
    public var parts: [Part]
    /// The measures of the score, shared by all parts, in written order.
    public var measures: [Measure]
    /// Tempo marks in written order; a score without any plays at `Score.defaultTempo`.
    public var tempos: [TempoMark]
    /// Encoding slips the reader repaired, in the order of the parts.
    public var repairs: [Repair] = []

    /// The tempo assumed before the first tempo mark, as MusicXML's `<sound tempo>` default.
    public static let defaultTempo = 120.0

    public init(title: String?, composer: String?, parts: [Part], measures: [Measure], tempos: [TempoMark]) {
        self.title = title
        self.composer = composer
        self.parts = parts
        self.measures = measures
        self.tempos = tempos
    }

    /// Total length in quarter notes, in written order.
    public var writtenLength: Rational {
        measures.last.map { $0.start + $0.duration } ?? .zero
    }

    /// What the piece is called wherever choir names it: its title (the work title, else the movement title,
    /// else the credits' title), else the name of its file at `path` without the extension.
    public func name(file path: String) -> String { title ?? Self.fileName(path) }

    /// The name of the file at `path` without its extension: "hymn" for "scores/hymn.musicxml".
    public static func fileName(_ path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
        return String(file[..<dot])
    }

    /// Number of lyric verses sung anywhere in the score.
    public var verseCount: Int {
        Set(parts.flatMap { $0.lyrics.map(\.verse) }).count
    }
}

/// One part of the score (`<score-part>`), with all its staves and voices.
public struct Part: Sendable {
    public var id: String
    public var name: String
    public var abbreviation: String?
    /// General MIDI program, 0-based, from `<midi-instrument>`.
    public var midiProgram: Int?
    /// Name of the first `<score-instrument>`.
    public var instrumentName: String?
    public var staffCount: Int
    /// Sounding notes sorted by onset, then pitch; tied notes are merged.
    public var notes: [Note]
    /// Lyric syllables sorted by onset, then verse.
    public var lyrics: [Lyric]
    /// Measures where this part's content is shorter or longer than the measure the other parts agree on
    /// (an encoding slip), by measure index: the part's length minus the measure's, in quarter notes.
    /// The part's later measures still start with everyone else's, as MusicXML measures are shared.
    public var misfitMeasures: [Int: Rational] = [:]

    public init(
        id: String, name: String, abbreviation: String? = nil, midiProgram: Int? = nil,
        instrumentName: String? = nil, staffCount: Int = 1, notes: [Note] = [], lyrics: [Lyric] = []
    ) {
        self.id = id
        self.name = name
        self.abbreviation = abbreviation
        self.midiProgram = midiProgram
        self.instrumentName = instrumentName
        self.staffCount = staffCount
        self.notes = notes
        self.lyrics = lyrics
    }
}

/// A sounding note.
public struct Note: Hashable, Sendable {
    /// Onset in quarter notes from the start of the score.
    public var onset: Rational
    /// Duration in quarter notes; tied notes are one note.
    public var duration: Rational
    /// Sounding MIDI note number, nearest to the exact pitch.
    public var midi: Int
    /// Deviation from `midi` in cents, for microtones (−50 < cents ≤ 50).
    public var cents: Double
    /// MIDI velocity from the dynamics in force.
    public var velocity: Int
    public var voice: String
    public var staff: Int
    /// Index into `Score.measures` of the measure where the note starts.
    public var measureIndex: Int

    public init(
        onset: Rational, duration: Rational, midi: Int, cents: Double = 0, velocity: Int = 80,
        voice: String = "1", staff: Int = 1, measureIndex: Int = 0
    ) {
        self.onset = onset
        self.duration = duration
        self.midi = midi
        self.cents = cents
        self.velocity = velocity
        self.voice = voice
        self.staff = staff
        self.measureIndex = measureIndex
    }

    /// The exact sounding pitch as a fractional MIDI number.
    public var pitch: Double { Double(midi) + cents / 100 }
    public var end: Rational { onset + duration }
}

/// One sung syllable.
public struct Lyric: Hashable, Sendable {
    public enum Syllabic: String, Sendable {
        case single, begin, middle, end
        /// Several syllables sung on one note, joined by elisions.
        case composite
    }

    public var onset: Rational
    /// The syllable; elided syllables are joined with "‿" (or the elision's own text).
    public var text: String
    public var syllabic: Syllabic
    public var verse: Int
    /// Whether an extender line follows (a melisma).
    public var extends: Bool
    public var voice: String
    public var staff: Int
    public var measureIndex: Int

    public init(
        onset: Rational, text: String, syllabic: Syllabic = .single, verse: Int = 1, extends: Bool = false,
        voice: String = "1", staff: Int = 1, measureIndex: Int = 0
    ) {
        self.onset = onset
        self.text = text
        self.syllabic = syllabic
        self.verse = verse
        self.extends = extends
        self.voice = voice
        self.staff = staff
        self.measureIndex = measureIndex
    }
}

/// A tempo mark: from `<sound tempo>` or a `<metronome>`, in quarter notes per minute.
public struct TempoMark: Hashable, Sendable {
    public var position: Rational
    public var measureIndex: Int
    public var quarterNotesPerMinute: Double

    public init(position: Rational, measureIndex: Int, quarterNotesPerMinute: Double) {
        self.position = position
        self.measureIndex = measureIndex
        self.quarterNotesPerMinute = quarterNotesPerMinute
    }
}
