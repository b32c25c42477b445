/// What one singer sings: a whole part, or one voice of a part whose staff carries several.
public struct Line: Sendable {
    public var name: String
    /// Index into `Score.parts`.
    public var partIndex: Int
    /// The staff and voice taken from the part; nil when the line is the whole part.
    public var voice: VoiceKey?
    public var notes: [Note]
    public var lyrics: [Lyric]

    /// A staff and voice inside a part.
    public struct VoiceKey: Hashable, Sendable {
        public var staff: Int
        public var voice: String
    }

    public var lowest: Note? { notes.min { $0.pitch < $1.pitch } }
    public var highest: Note? { notes.max { $0.pitch < $1.pitch } }

    /// Whether this line sounds `note` of its part.
    public func owns(staff: Int, voice: String) -> Bool {
        self.voice.map { $0.staff == staff && $0.voice == voice } ?? true
    }
}

extension Score {
    /// The score's lines, in score order: one per part, except that a sung part whose staves carry
    /// several voices (Tenor and Bass on one staff, say) gives one line per voice.
    public var lines: [Line] {
        parts.enumerated().flatMap { index, part in Self.lines(of: part, index: index) }
    }

    private static func lines(of part: Part, index: Int) -> [Line] {
        let whole = [Line(name: part.name, partIndex: index, voice: nil, notes: part.notes, lyrics: part.lyrics)]
        guard part.isSung else { return whole }
        var counts: [Line.VoiceKey: Int] = [:]
        for note in part.notes { counts[Line.VoiceKey(staff: note.staff, voice: note.voice), default: 0] += 1 }
        // A voice of a note or two in a long part (a cue, an ossia, one note written divisi) is not a singer's line:
        // its notes go with the first line on its staff.
        let stray = 2, long = 20
        var keys = counts.keys.filter { counts[$0]! > stray || part.notes.count < long }
        guard keys.count > 1 else { return whole }
        keys.sort { ($0.staff, Int($0.voice) ?? Int.max, $0.voice) < ($1.staff, Int($1.voice) ?? Int.max, $1.voice) }
        func owner(_ staff: Int, _ voice: String) -> Line.VoiceKey {
            let key = Line.VoiceKey(staff: staff, voice: voice)
            return keys.contains(key) ? key : keys.first { $0.staff == staff } ?? keys[0]
        }
        let spelled = VoiceNames.split(part.name)
        let names = spelled.count == keys.count ? spelled : keys.indices.map { "\(part.name) \($0 + 1)" }
        return zip(keys, names).map { key, name in
            Line(
                name: name, partIndex: index, voice: key,
                notes: part.notes.filter { owner($0.staff, $0.voice) == key },
                lyrics: part.lyrics.filter { owner($0.staff, $0.voice) == key })
        }
    }
}

extension Part {
    /// Whether the part is sung: it has lyrics, a voice's name, or a voice's General MIDI program.
    public var isSung: Bool {
        if !lyrics.isEmpty { return true }
        if let midiProgram, (52...54).contains(midiProgram) { return true }
        let words = VoiceNames.words(name) + VoiceNames.words(instrumentName ?? "")
        return words.contains { VoiceNames.sungWords.contains($0) } || !VoiceNames.split(name).isEmpty
    }
}

/// Reading voice names out of part names such as "Tenor Bass", "T. B." or "Men".
enum VoiceNames {
    static let sungWords: Set<String> = [
        "soprano", "sopran", "alto", "alt", "contralto", "mezzo", "tenor", "tenore", "bass", "basso", "baritone",
        "bariton", "voice", "vocal", "vocals", "choir", "chorus", "coro", "chor", "men", "women", "cantus", "canto",
        "quinto", "altus", "bassus", "treble", "descant", "solo", "singer",
    ]

    private static let fullNames: [String: [String]] = [
        "soprano": ["Soprano"], "sopran": ["Soprano"], "alto": ["Alto"], "contralto": ["Alto"],
        "tenor": ["Tenor"], "tenore": ["Tenor"], "bass": ["Bass"], "basso": ["Bass"], "baritone": ["Baritone"],
        "bariton": ["Baritone"], "men": ["Tenor", "Bass"], "women": ["Soprano", "Alto"],
        "ladies": ["Soprano", "Alto"], "gentlemen": ["Tenor", "Bass"],
        "sopranos": ["Soprano"], "altos": ["Alto"], "tenors": ["Tenor"], "basses": ["Bass"], "baritones": ["Baritone"],
        "upper voices": ["Soprano", "Alto"], "lower voices": ["Tenor", "Bass"],
        "treble voices": ["Soprano", "Alto"], "men's voices": ["Tenor", "Bass"], "women's voices": ["Soprano", "Alto"],
    ]
    /// Words that join the names of a list ("Sopranos & Altos", "Tenor and Bass").
    private static let joiners: Set<String> = ["and", "und", "et", "e", "y"]
    private static let letters: [Character: String] = ["S": "Soprano", "A": "Alto", "T": "Tenor", "B": "Bass"]

    static func words(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init)
    }

    /// The voice names a part name lists, or [] when it does not read as a list of voices.
    static func split(_ partName: String) -> [String] {
        let tokens = partName.split(whereSeparator: { !$0.isLetter && $0 != "'" }).map(String.init)
        var names: [String] = []
        var index = 0
        while index < tokens.count {
            let token = tokens[index], word = token.lowercased()
            // Two-word names first: "Lower voices".
            if index + 1 < tokens.count, let full = fullNames[word + " " + tokens[index + 1].lowercased()] {
                names += full
                index += 2
                continue
            }
            if let full = fullNames[word] {
                names += full
            } else if !joiners.contains(word) {
                guard token.allSatisfy({ letters[$0] != nil }) else { return [] }
                names += token.map { letters[$0]! }
            }
            index += 1
        }
        return names
    }

    /// A numbered line as choirs write it, "S1", "T2", "Soprano II" or "Sop. 1": its voice and number.
    static func numbered(_ name: String) -> (voice: String, number: Int)? {
        // Letters and digits apart: "S1" is "S" and "1".
        var tokens: [String] = []
        for character in name.lowercased() {
            guard character.isLetter || character.isNumber else {
                tokens.append("")
                continue
            }
            if let last = tokens.last?.last, last.isNumber == character.isNumber {
                tokens[tokens.count - 1].append(character)
            } else {
                tokens.append(String(character))
            }
        }
        tokens.removeAll { $0.isEmpty }
        guard tokens.count == 2 else { return nil }
        let romans = ["i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6]
        guard let number = Int(tokens[1]) ?? romans[tokens[1]] else { return nil }
        let voices = ["soprano", "mezzo", "alto", "tenor", "baritone", "bass", "treble", "descant"]
        let abbreviation = tokens[0]
        let voice =
            abbreviation.count == 1
            ? ["s": "soprano", "a": "alto", "t": "tenor", "b": "bass"][abbreviation]
            : voices.first { $0.hasPrefix(abbreviation) } ?? fullNames[abbreviation].flatMap { $0.count == 1 ? $0[0].lowercased() : nil }
        return voice.map { ($0, number) }
    }
}

/// The four voices of a choir, which a score's voicing ("SATB", "SSAA", "TTBB") lists.
public enum SungVoice: String, CaseIterable, Comparable, Sendable {
    case soprano = "S"
    case alto = "A"
    case tenor = "T"
    case bass = "B"

    public static func < (a: SungVoice, b: SungVoice) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }

    private static let named: [String: SungVoice] = [
        "soprano": .soprano, "sopranos": .soprano, "sopran": .soprano, "canto": .soprano, "cantus": .soprano,
        "treble": .soprano, "descant": .soprano, "alto": .alto, "altos": .alto, "alt": .alto, "altus": .alto,
        "contralto": .alto, "mezzo": .alto, "tenor": .tenor, "tenors": .tenor, "tenore": .tenor, "bass": .bass,
        "basses": .bass, "basso": .bass, "bassus": .bass, "baritone": .bass, "bariton": .bass,
    ]

    /// The voice a name says ("Tenor 2", "Sop. 1", "Basso", "T"), if it says one.
    public init?(name: String) {
        let words = VoiceNames.words(name)
        if let voice = words.lazy.compactMap({ Self.named[$0] }).first {
            self = voice
        } else if let numbered = VoiceNames.numbered(name), let voice = Self.named[numbered.voice.lowercased()] {
            self = voice
        } else if words.count == 1, let voice = SungVoice(rawValue: words[0].uppercased()) {
            self = voice
        } else {
            return nil
        }
    }

    /// The number of a numbered line ("Tenor 2", "S1", "Soprano II"), if it is one.
    public static func number(in name: String) -> Int? { VoiceNames.numbered(name)?.number }

    /// The voice whose usual range a line's lies in, by the middle of its range: a soprano's D4–G5 centres near
    /// A4, an alto's A3–D5 near E4, a tenor's D3–G4 near C4 and a bass's F2–D4 near G3.
    public init(lowest: Int, highest: Int) {
        let middle = Double(lowest + highest) / 2
        self = middle >= 67.5 ? .soprano : middle >= 61 ? .alto : middle >= 55 ? .tenor : .bass
    }
}

extension Line {
    /// The voice a sung line is for, by its name, else by its range; nil for an instrument's line or one with no
    /// notes.
    public func sungVoice(in score: Score) -> SungVoice? {
        guard score.parts[partIndex].isSung, let lowest, let highest else { return nil }
        return SungVoice(name: name) ?? SungVoice(lowest: lowest.midi, highest: highest.midi)
    }
}
