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
        var keys: [Line.VoiceKey] = []
        for note in part.notes {
            let key = Line.VoiceKey(staff: note.staff, voice: note.voice)
            if !keys.contains(key) { keys.append(key) }
        }
        guard keys.count > 1 else { return whole }
        keys.sort { ($0.staff, Int($0.voice) ?? Int.max, $0.voice) < ($1.staff, Int($1.voice) ?? Int.max, $1.voice) }
        let spelled = VoiceNames.split(part.name)
        let names = spelled.count == keys.count ? spelled : keys.indices.map { "\(part.name) \($0 + 1)" }
        return zip(keys, names).map { key, name in
            Line(
                name: name, partIndex: index, voice: key,
                notes: part.notes.filter { $0.staff == key.staff && $0.voice == key.voice },
                lyrics: part.lyrics.filter { $0.staff == key.staff && $0.voice == key.voice })
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
    ]
    private static let letters: [Character: String] = ["S": "Soprano", "A": "Alto", "T": "Tenor", "B": "Bass"]

    static func words(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init)
    }

    /// The voice names a part name lists, or [] when it does not read as a list of voices.
    static func split(_ partName: String) -> [String] {
        let tokens = partName.split(whereSeparator: { !$0.isLetter }).map(String.init)
        var names: [String] = []
        for token in tokens {
            if let full = fullNames[token.lowercased()] {
                names += full
            } else if token.lowercased() == "and" {
                continue
            } else if token.allSatisfy({ letters[$0] != nil }) {
                names += token.map { letters[$0]! }
            } else {
                return []
            }
        }
        return names
    }
}
