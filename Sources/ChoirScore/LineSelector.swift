/// Finds the line a singer means by `--part`.
public enum LineSelector {
    /// A name that matches no line, or more than one.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    private static let abbreviations = ["s": "soprano", "a": "alto", "t": "tenor", "b": "bass"]

    /// The index into `lines` of the line `query` names, tried in this order: an exact name (ignoring case), a
    /// numbered voice however it is written ("T2" for "Tenor 2"), a unique prefix, a usual abbreviation (S, A, T,
    /// B), a 1-based index.
    public static func select(_ query: String, from lines: [Line]) throws(Failure) -> Int {
        let wanted = query.trimmed.lowercased()
        let names = lines.map { $0.name.lowercased() }
        let exact = names.indices.filter { names[$0] == wanted }
        if exact.count == 1 { return exact[0] }
        if exact.count > 1 { throw ambiguous(query, exact, lines) }

        // "S1", "Sop. 1" and "Soprano I" name the line "Soprano 1", and each other.
        if let wanted = VoiceNames.numbered(query) {
            let numbered = lines.indices.filter { VoiceNames.numbered(lines[$0].name).map { $0 == wanted } ?? false }
            if numbered.count == 1 { return numbered[0] }
            if numbered.count > 1 { throw ambiguous(query, numbered, lines) }
        }

        let prefixed = names.indices.filter { !wanted.isEmpty && names[$0].hasPrefix(wanted) }
        if prefixed.count == 1 { return prefixed[0] }

        // "B" is Bass even when Baritone shares its first letter.
        if let voice = abbreviations[wanted] {
            let matches = names.indices.filter { VoiceNames.words(names[$0]).first == voice }
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 { throw ambiguous(query, matches, lines) }
        }
        if prefixed.count > 1 { throw ambiguous(query, prefixed, lines) }
        if let number = Int(wanted), lines.indices.contains(number - 1) { return number - 1 }
        throw Failure(
            description: NearestName.unknown("line", query, among: lines.map(\.name), expected: "one of \(choices(lines.indices, lines))"))
    }

    private static func ambiguous(_ query: String, _ matches: [Int], _ lines: [Line]) -> Failure {
        Failure(description: "ambiguous line '\(query)': it could be \(choices(matches, lines))")
    }

    private static func choices(_ indices: some Sequence<Int>, _ lines: [Line]) -> String {
        indices.map { "\($0 + 1) \(lines[$0].name)" }.joined(separator: ", ")
    }
}
