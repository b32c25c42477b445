/// The name a mistyped one most likely meant: every "unknown X" error of choir suggests it the same way.
public enum NearestName {
    /// The name of `names` nearest `query`, ignoring case: the one the fewest edits away (insertions, deletions,
    /// substitutions and swaps of neighbours), when that is close enough to be a slip of the fingers: at most a
    /// third of the longer name, and at most 3 edits. Nil when none is.
    public static func to(_ query: String, among names: some Sequence<String>) -> String? {
        let wanted = Array(query.trimmed.lowercased())
        guard !wanted.isEmpty else { return nil }
        var best: (name: String, distance: Int)?
        for name in names {
            let candidate = Array(name.lowercased())
            guard candidate != wanted, !candidate.isEmpty else { continue }
            let distance = edits(wanted, candidate)
            let allowed = min(3, max(1, max(wanted.count, candidate.count) / 3))
            guard distance <= allowed, distance < best?.distance ?? .max else { continue }
            best = (name, distance)
        }
        return best?.name
    }

    /// "unknown line 'tenr' (did you mean 'Tenor'?): expected one of 1 Soprano, 2 Alto, 3 Tenor, 4 Bass": `what` is
    /// the kind of name, `expected` what would have been understood.
    public static func unknown(_ what: String, _ query: String, among names: some Sequence<String>, expected: String) -> String {
        "unknown \(what) '\(query)'" + suggestion(query, among: names) + ": expected \(expected)"
    }

    /// A command of a command line: its name, the names it also answers to, and its own commands.
    public struct Command: Sendable {
        public var name: String
        public var aliases: [String]
        public var subcommands: [Command]

        public init(_ name: String, aliases: [String] = [], subcommands: [Command] = []) {
            (self.name, self.aliases, self.subcommands) = (name, aliases, subcommands)
        }
    }

    /// "unknown command 'histroy' (did you mean 'history'?): expected `choir COMMAND`, COMMAND one of …": the first of
    /// `arguments` where a command of `root` goes that names none, with the nearest command; nil when every word
    /// there names one, or an option, `help`, or a command without commands of its own comes first.
    public static func unknownCommand(in arguments: [String], of root: Command) -> String? {
        var commands = root.subcommands
        var words = [root.name]
        for argument in arguments {
            guard !commands.isEmpty, !argument.hasPrefix("-"), argument != "help" else { return nil }
            let names = commands.map(\.name)
            guard let found = commands.first(where: { $0.name == argument || $0.aliases.contains(argument) }) else {
                let expected = "`\(words.joined(separator: " ")) COMMAND`, COMMAND one of " + names.joined(separator: ", ")
                return unknown("command", argument, among: names, expected: expected)
            }
            commands = found.subcommands
            words.append(argument)
        }
        return nil
    }

    /// " (did you mean 'Tenor'?)", or nothing when no name is near.
    public static func suggestion(_ query: String, among names: some Sequence<String>) -> String {
        to(query, among: names).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// The optimal string alignment distance between `a` and `b`.
    static func edits(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] { current[j] = min(current[j], before[j - 2] + 1) }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
