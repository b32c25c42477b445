/// A measure of the score, with what playback needs to unfold repeats and jumps.
public struct Measure: Sendable {
    /// The printed measure number (`number` attribute); may be text such as "12a".
    public var number: String
    /// Start in quarter notes from the beginning of the score, in written order.
    public var start: Rational
    /// Actual length: a pickup or an irregular measure is shorter than its time signature.
    public var duration: Rational
    /// Time signature in force.
    public var time: TimeSignature
    /// Key signature in force.
    public var key: KeySignature
    /// A measure that does not count in the numbering, such as a pickup (`implicit="yes"`).
    public var isImplicit: Bool

    public var repeatForward = false
    /// Whether the measure ends with a backward repeat.
    public var repeatBackward = false
    /// How many times the repeated section is played, when the barline says (`times`).
    public var repeatTimes: Int?
    /// Volta numbers when this measure belongs to an ending (`<ending number="1, 2">`).
    public var endingNumbers: [Int] = []
    /// Whether the ending this measure belongs to starts here.
    public var startsEnding = false
    public var segno: String?
    public var coda: String?
    public var toCoda: String?
    public var daCapo = false
    public var dalSegno: String?
    public var fine = false
    /// Whether repeats are taken again after a D.C. or D.S. jump (`<sound after-jump="yes">`).
    public var repeatsAfterJump = false

    public init(
        number: String, start: Rational, duration: Rational, time: TimeSignature, key: KeySignature,
        isImplicit: Bool = false
    ) {
        self.number = number
        self.start = start
        self.duration = duration
        self.time = time
        self.key = key
        self.isImplicit = isImplicit
    }
}

/// A time signature such as 3/4, 6/8 or 3+2/8.
public struct TimeSignature: Hashable, Sendable, CustomStringConvertible {
    /// The beat groups of the numerator (`[3, 2]` for 3+2/8).
    public var beats: [Int]
    public var beatType: Int

    public static let common = TimeSignature(beats: [4], beatType: 4)

    public init(beats: [Int], beatType: Int) {
        self.beats = beats
        self.beatType = beatType
    }

    /// Length of a full measure in quarter notes.
    public var measureLength: Rational { Rational(beats.reduce(0, +) * 4, beatType) }

    public var description: String {
        beats.map(String.init).joined(separator: "+") + "/\(beatType)"
    }
}

/// A key signature: sharps (positive) or flats (negative), and a mode when given.
public struct KeySignature: Hashable, Sendable, CustomStringConvertible {
    public var fifths: Int
    public var mode: String?

    public init(fifths: Int, mode: String? = nil) {
        self.fifths = fifths
        self.mode = mode
    }

    /// The tonic and mode, e.g. "E♭ major", "C♯ minor" or "D dorian".
    public var description: String {
        let mode = self.mode?.lowercased() ?? "major"
        let offsets = [
            "major": 0, "ionian": 0, "none": 0, "": 0, "minor": 3, "aeolian": 3, "dorian": 2,
            "phrygian": 4, "lydian": -1, "mixolydian": 1, "locrian": 5,
        ]
        let tonic = Self.noteName(fifthsFromC: fifths + (offsets[mode] ?? 0))
        return "\(tonic) \(mode == "none" || mode.isEmpty ? "major" : mode)"
    }

    /// The name of the note `fifths` perfect fifths above C (negative: below), spelled with ♯ and ♭.
    static func noteName(fifthsFromC fifths: Int) -> String {
        let letters = Array("FCGDAEB")
        let shifted = fifths + 1
        let letter = letters[((shifted % 7) + 7) % 7]
        let accidentals = shifted >= 0 ? shifted / 7 : -((-shifted + 6) / 7)
        return String(letter) + String(repeating: accidentals > 0 ? "♯" : "♭", count: abs(accidentals))
    }
}
