import ChoirScore

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

    /// A key as the library writes it ("G major", "E minor", "B♭ major") from how a person types it.
    public static func keyName(_ typed: String) -> String? {
        var rest = typed.drop { $0 == " " }
        guard let letter = rest.first, "ABCDEFGabcdefg".contains(letter) else { return nil }
        rest = rest.dropFirst()
        var tonic = letter.uppercased()
        while let sign = rest.first, "#♯b♭".contains(sign) {
            tonic += sign == "#" || sign == "♯" ? "♯" : "♭"
            rest = rest.dropFirst()
        }
        let mode = rest.split(separator: " ").joined(separator: " ").lowercased()
        switch mode {
        case "", "maj", "major": return tonic + " major"
        case "m", "min", "minor": return tonic + " minor"
        default: return tonic + " " + mode
        }
    }
}
