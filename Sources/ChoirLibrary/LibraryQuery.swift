import ChoirScore
import FoundationEssentials

/// What `choir library search` asks for; every part given must hold.
public struct LibraryQuery: Sendable {
    /// Words found in the title, the composer or the file's path, in any case.
    public var text: String?
    /// The voicing exactly, in any case: "SATB" is not "SSATB".
    public var voicing: String?
    /// Lines as `--part` names them ("tenor", "T", "Soprano 1"): the piece has each, and every line each names
    /// stays within `lowest` and `highest`.
    public var lines: [String] = []
    public var lowest: Int?
    public var highest: Int?
    /// The key at the start: "G", "G major", "e minor", "Em", "F#", "B♭ major".
    public var key: String?

    public init() {}

    /// The query for what a person typed, as `choir library search` takes it (and the studio's search): words, a
    /// voicing, lines, the lowest and highest notes as names ("D3", "F#4") and a key; empty strings are left out.
    /// Throws ``Problem``, worded with the command's options, for a note or key that is not one, or bounds
    /// without a line.
    public init(text: String?, voicing: String?, lines: [String], lowest: String?, highest: String?, key: String?) throws(Problem) {
        let given = { (value: String?) in value.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 } }
        self.text = given(text)
        self.voicing = given(voicing)
        self.lines = lines.filter { given($0) != nil }
        self.key = given(key)
        if (given(lowest) != nil || given(highest) != nil) && self.lines.isEmpty {
            throw Problem(description: "--lowest and --highest need --part: the line they bound")
        }
        for (option, note) in [("lowest", given(lowest)), ("highest", given(highest))] {
            guard let note else { continue }
            guard let midi = PitchName.midi(named: note) else {
                throw Problem(description: "--\(option) \(note): expected a note such as D3, F#4 or B♭3")
            }
            if option == "lowest" { self.lowest = midi } else { self.highest = midi }
        }
        if let key = self.key, let problem = Self.keyProblem(key) { throw Problem(description: "--key \(key): \(problem)") }
    }

    /// Why what was typed is not a query.
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    /// A line that names no line of any score in the library, when a line there is near enough to be what was
    /// meant (a slip, not a line no score has).
    public struct Slip: Error, CustomStringConvertible {
        public var line: String
        public var nearest: String
        /// "unknown line 'tenr' (did you mean 'Tenor'?): expected …".
        public var description: String {
            NearestName.unknown("line", line, among: [nearest], expected: "a line of a score in the library (`choir library list`)")
        }
    }

    /// The first of `lines` that names no line of any of `entries`, with the line name nearest it there.
    public func slip(among entries: [LibraryEntry]) -> Slip? {
        let names = Set(entries.flatMap { $0.lines.map(\.name) }).sorted()
        for line in lines where LineSelector.candidates(line, names: names).isEmpty {
            if let nearest = NearestName.to(line, among: names) { return Slip(line: line, nearest: nearest) }
        }
        return nil
    }

    /// Whether `entry` is what is asked for.
    public func matches(_ entry: LibraryEntry) -> Bool {
        if let text {
            let haystack = [entry.title, entry.composer ?? "", entry.path].joined(separator: "\n").lowercased()
            guard text.lowercased().split(separator: " ").allSatisfy({ haystack.contains($0) }) else { return false }
        }
        if let voicing, voicing.uppercased() != entry.voicing { return false }
        for line in lines {
            let named = LineSelector.candidates(line, names: entry.lines.map(\.name)).map { entry.lines[$0] }
            guard !named.isEmpty else { return false }
            if let lowest, named.contains(where: { $0.lowest < lowest }) { return false }
            if let highest, named.contains(where: { $0.highest > highest }) { return false }
        }
        if let key, Self.keyName(key) != entry.key { return false }
        return true
    }

    /// The modes a key may be in, as the library writes them.
    public static let modes = ["major", "minor", "dorian", "phrygian", "lydian", "mixolydian", "aeolian", "locrian", "ionian"]

    /// A key as the library writes it ("G major", "E minor", "B♭ major") from how a person types it; nil when it
    /// is not one (see ``keyProblem(_:)``).
    public static func keyName(_ typed: String) -> String? {
        guard let (tonic, mode) = keyParts(typed) else { return nil }
        switch mode {
        case "", "maj", "major": return tonic + " major"
        case "m", "min", "minor": return tonic + " minor"
        default: return modes.contains(mode) ? tonic + " " + mode : nil
        }
    }

    /// Why `typed` is not a key, or nil: "unknown mode 'majr' (did you mean 'major'?): expected …".
    public static func keyProblem(_ typed: String) -> String? {
        guard keyName(typed) == nil else { return nil }
        let expected = "a key such as G, G major, e minor or B♭"
        guard let (_, mode) = keyParts(typed) else { return "expected \(expected)" }
        return NearestName.unknown("mode", mode, among: modes, expected: expected + ", in a mode of " + modes.joined(separator: ", "))
    }

    /// The tonic, spelled with ♯ and ♭, and the mode as typed (lowercased, "" when none), of a key; nil without a
    /// tonic.
    private static func keyParts(_ typed: String) -> (tonic: String, mode: String)? {
        var rest = typed.drop { $0 == " " }
        guard let letter = rest.first, "ABCDEFGabcdefg".contains(letter) else { return nil }
        rest = rest.dropFirst()
        var tonic = letter.uppercased()
        while let sign = rest.first, "#♯b♭".contains(sign) {
            tonic += sign == "#" || sign == "♯" ? "♯" : "♭"
            rest = rest.dropFirst()
        }
        return (tonic, rest.split(separator: " ").joined(separator: " ").lowercased())
    }
}
