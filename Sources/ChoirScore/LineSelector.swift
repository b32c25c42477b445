/// Finds the line a singer means by `--part`.
public enum LineSelector {
    /// A name that matches no line, or more than one.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String

        /// The same failure, said of the score at `file`.
        public func of(file: String) -> Failure { Failure(description: "\(file): \(description)") }
    }

    private static let abbreviations = ["s": "soprano", "a": "alto", "t": "tenor", "b": "bass"]

    /// The index into `lines` of the line `query` names (``candidates(_:names:)``), or why it names none or several.
    public static func select(_ query: String, from lines: [Line]) throws(Failure) -> Int {
        try select(query, names: lines.map(\.name))
    }

    /// The index into `names` of the line `query` names (``candidates(_:names:)``), or why it names none or several.
    public static func select(_ query: String, names: [String]) throws(Failure) -> Int {
        let found = candidates(query, names: names)
        if found.count == 1 { return found[0] }
        if found.count > 1 { throw Failure(description: "ambiguous line '\(query)': it could be \(choices(found, names))") }
        throw Failure(
            description: NearestName.unknown("line", query, among: names, expected: "one of \(choices(names.indices, names))"))
    }

    /// The lines `queries` name, each once, in the order first named: a singer's `--part`s.
    public static func select(_ queries: [String], from lines: [Line]) throws(Failure) -> [Int] {
        var chosen: [Int] = []
        for query in queries {
            let index = try select(query, from: lines)
            if !chosen.contains(index) { chosen.append(index) }
        }
        return chosen
    }

    /// What the lines at `indices` are called together, as sessions are named: "Tenor", "Soprano + Descant".
    public static func name(of indices: [Int], in lines: [Line]) -> String {
        indices.map { lines[$0].name }.joined(separator: " + ")
    }

    /// Every line of `names` that `query` could name, by the first of these rules that names any: an exact name
    /// (ignoring case), a numbered voice however it is written ("T2" for "Tenor 2"), a unique prefix, a usual
    /// abbreviation (S, A, T, B; "B" is Bass even when Baritone shares its first letter), any prefix, a 1-based
    /// index.
    public static func candidates(_ query: String, names: [String]) -> [Int] {
        let wanted = query.trimmed.lowercased()
        let lowered = names.map { $0.lowercased() }
        let exact = lowered.indices.filter { lowered[$0] == wanted }
        if !exact.isEmpty { return exact }
        // "S1", "Sop. 1" and "Soprano I" name the line "Soprano 1", and each other.
        if let wanted = VoiceNames.numbered(query) {
            let numbered = names.indices.filter { VoiceNames.numbered(names[$0]).map { $0 == wanted } ?? false }
            if !numbered.isEmpty { return numbered }
        }
        let prefixed = lowered.indices.filter { !wanted.isEmpty && lowered[$0].hasPrefix(wanted) }
        if prefixed.count == 1 { return prefixed }
        if let voice = abbreviations[wanted] {
            let matches = lowered.indices.filter { VoiceNames.words(lowered[$0]).first == voice }
            if !matches.isEmpty { return matches }
        }
        if !prefixed.isEmpty { return prefixed }
        if let number = Int(wanted), names.indices.contains(number - 1) { return [number - 1] }
        return []
    }

    private static func choices(_ indices: some Sequence<Int>, _ names: [String]) -> String {
        indices.map { "\($0 + 1) \(names[$0])" }.joined(separator: ", ")
    }
}
