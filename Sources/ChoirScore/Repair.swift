import ChoirBase

/// An encoding slip that the reader repaired the way a musician reads the printed page, and where, so that a
/// singer can check the page.
public struct Repair: Hashable, Sendable {
    /// The kinds, in the order `choir info` lists them; the raw value names them in JSON.
    public enum Kind: String, CaseIterable, Comparable, Sendable {
        case undeclaredPart = "undeclared_part"
        case partWithoutID = "part_without_id"
        case repeatedPartID = "repeated_part_id"
        case midiProgram = "midi_program"
        case noDivisions = "no_divisions"
        case noDuration = "no_duration"
        case staffPastStaves = "staff_past_staves"
        case backupPastStart = "backup_past_start"
        case drawnTie = "drawn_tie"
        case unendedTie = "unended_tie"
        case tieIntoSyllable = "tie_into_syllable"
        case measureRest = "measure_rest"
        case extraRests = "extra_rests"
        case measureLength = "measure_length"
        case repeatTimes = "repeat_times"
        case tempoOutOfRange = "tempo_out_of_range"
        case negativeDynamics = "negative_dynamics"
        case printedJump = "printed_jump"

        /// What was wrong and what choir did, in a singer's words.
        public var summary: String {
            switch self {
            case .undeclaredPart: "part missing from the part list, read all the same"
            case .partWithoutID: "part without an id, read as the declared part it must be"
            case .repeatedPartID: "part with another part's id, read as the declared part it must be"
            case .midiProgram: "<midi-program> outside 1 to 128, left out: the part sounds as if it had none"
            case .noDivisions: "no <divisions>, durations read in quarter notes"
            case .noDuration: "note without <duration>, timed by its written type"
            case .staffPastStaves: "note on a staff the part does not have (<staff>), read on its nearest staff"
            case .backupPastStart: "<backup> past the start of its measure, stopped at the barline"
            case .drawnTie: "tie drawn (<tied>) without its sound (<tie>), held as drawn"
            case .unendedTie: "tie without an end, ended on the next note of its pitch"
            case .tieIntoSyllable: "tie without an end into a note with its own syllable, the syllable sung"
            case .measureRest: "whole-measure rest of the wrong length, read as the whole measure"
            case .extraRests: "more rests than the measure holds (two whole rests, say), read as the measure's rest"
            case .measureLength: "measure shorter or longer than in the other parts, later notes kept in step"
            case .repeatTimes: "repeat played fewer than 1 or more than 100 times (times), held to that range"
            case .tempoOutOfRange: "tempo of 0 or over 2000 quarter notes a minute, left out: the tempo before goes on"
            case .negativeDynamics: "dynamics below 0 (<sound dynamics>, <note dynamics>), left out: the dynamics before go on"
            case .printedJump: "jump or its sign printed without <sound>, taken as printed"
            }
        }

        public static func < (a: Kind, b: Kind) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    public var kind: Kind
    /// The part's name.
    public var part: String
    /// The measure, by index in written order; nil when the repair concerns the whole part.
    public var measureIndex: Int?

    public init(_ kind: Kind, part: String, measureIndex: Int? = nil) {
        self.kind = kind
        self.part = part
        self.measureIndex = measureIndex
    }
}

extension Score {
    /// The repairs grouped by kind, one line each: "tie without an end, …: Canto mm. 5, 12; Alto m. 7".
    public var repairLines: [String] {
        Dictionary(grouping: repairs, by: \.kind).sorted { $0.key < $1.key }.map { kind, repairs in
            var parts: [String] = []
            var measuresByPart: [String: [Int]] = [:]
            for repair in repairs {
                if measuresByPart[repair.part] == nil { parts.append(repair.part) }
                measuresByPart[repair.part, default: []] += repair.measureIndex.map { [$0] } ?? []
            }
            let places = parts.map { part -> String in
                let indices = Array(Set(measuresByPart[part]!)).sorted()
                guard !indices.isEmpty else { return part }
                let shown = indices.prefix(8).map { measures[$0].number }
                let more = indices.count > 8 ? " and \(indices.count - 8) more" : ""
                return "\(part) \(indices.count == 1 ? "m." : "mm.") \(shown.joined(separator: ", "))\(more)"
            }
            return "\(kind.summary): \(places.joined(separator: "; "))"
        }
    }
}
