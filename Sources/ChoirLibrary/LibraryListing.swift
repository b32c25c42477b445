import ChoirBase
import ChoirFiles
import ChoirModel
import ChoirPractice
import ChoirScan
import ChoirScore
import FoundationEssentials

extension Library.Listed {
    /// `choir library list`: a block per piece (title, voicing, key, length, each line's range, the file, its source
    /// and the last session), then how many there are.
    public static func text(_ listed: [Library.Listed]) -> String {
        var out = ""
        for item in listed {
            let entry = item.entry
            out += entry.title + (entry.composer.map { " — \($0.split(whereSeparator: \.isNewline).joined(separator: " "))" } ?? "") + "\n"
            let voicing =
                entry.voicing.isEmpty
                ? "instruments" : entry.voicing + (entry.accompaniment.isEmpty ? "" : " + " + entry.accompaniment.joined(separator: ", "))
            out += "  \(voicing) · \(entry.key) · \(entry.measures) measures · \(ScoreSummary.clock(entry.seconds))\n"
            out +=
                "  "
                + entry.lines.map {
                    "\($0.name) \(PitchName.name(midi: $0.lowest, key: entry.fifths))–\(PitchName.name(midi: $0.highest, key: entry.fifths))"
                }
                .joined(separator: " · ") + "\n"
            out += "  \(entry.path)\n"
            if let source = entry.source {
                out += "  scanned \(source.made) from " + source.pages.joined(separator: ", ") + "\n"
            }
            if let last = item.lastPractised {
                out += "  last practised \(PracticeHistory.day(last.date)) (\(last.part), \(String(printf: "%.1f", last.accuracy))%)\n"
            }
        }
        out += listed.isEmpty ? "No scores.\n" : "\(listed.count) \(listed.count == 1 ? "score" : "scores")\n"
        return out
    }

    /// `choir library list --json`: one object per piece.
    public var json: JSON {
        let entry = self.entry
        return .object([
            ("title", .string(entry.title)), ("composer", entry.composer.map(JSON.string) ?? .null), ("voicing", .string(entry.voicing)),
            ("accompaniment", .array(entry.accompaniment.map(JSON.string))), ("key", .string(entry.key)),
            ("measures", .number(Double(entry.measures))),
            ("seconds", .number((entry.seconds * 10).rounded() / 10)),
            (
                "lines",
                .array(
                    entry.lines.map { line in
                        .object([
                            ("name", .string(line.name)), ("voice", line.voice.map(JSON.string) ?? .null),
                            ("lowest", .string(PitchName.name(midi: line.lowest, key: entry.fifths))),
                            ("highest", .string(PitchName.name(midi: line.highest, key: entry.fifths))),
                            ("lowest_midi", .number(Double(line.lowest))), ("highest_midi", .number(Double(line.highest))),
                        ])
                    })
            ),
            ("path", .string(entry.path)), ("hash", .string(entry.hash)),
            (
                "source",
                entry.source.map { source in .object([("pages", .array(source.pages.map(JSON.string))), ("made", .string(source.made))]) }
                    ?? .null
            ),
            (
                "last_practised",
                lastPractised.map { last in
                    .object([
                        ("date", .string(PracticeHistory.day(last.date))), ("part", .string(last.part)),
                        ("accuracy_pct", .number((last.accuracy * 10).rounded() / 10)),
                    ])
                } ?? .null
            ),
        ])
    }
}

extension Library {
    /// What `choir library add` did: a line per file added, updated or moved, then the counts, with the library's
    /// size (`total`).
    public static func added(_ changes: [(path: String, change: Result<Change, ScoreError>)], total: Int) -> String {
        var counts = (added: 0, updated: 0, moved: 0, unchanged: 0, unreadable: 0)
        var out = ""
        for (path, change) in changes {
            switch change {
            case .success(.added):
                counts.added += 1
                out += "added      \(path)\n"
            case .success(.updated):
                counts.updated += 1
                out += "updated    \(path)\n"
            case .success(.moved(let from)):
                counts.moved += 1
                out += "moved      \(path) (was \(from))\n"
            case .success(.unchanged): counts.unchanged += 1
            case .failure: counts.unreadable += 1
            }
        }
        return out
            + "\(total) \(total == 1 ? "score" : "scores") in the library: \(counts.added) added, \(counts.updated) updated, "
            + "\(counts.moved) moved, \(counts.unchanged) unchanged"
            + (counts.unreadable > 0 ? ", \(counts.unreadable) not scores choir can read" : "") + "\n"
    }

    /// A name that picks no one score of the library: said with the nearest title, or the titles it could be.
    public struct Unclear: Error, CustomStringConvertible {
        public var description: String
    }

    /// A SCORE argument as a file: itself when it is one (or when the history at `history` is not there), else the
    /// file of the one library score with that title, or whose title it begins.
    public static func file(named argument: String, history: String) throws(Unclear) -> String {
        guard !FileName.exists(argument), FileManager.default.fileExists(atPath: history), let library = try? Library(path: history),
            let matches = try? library.titled(argument), !matches.isEmpty
        else { return argument }
        guard matches.count == 1 else { throw Unclear(description: library.problem(argument, matches)) }
        return matches[0].path
    }

    /// The entry `name` names: the one at that path (made absolute when it is a file), else the one with that
    /// title, or whose title it begins. Throws ``Unclear`` when there is no such entry or more than one, or the history's failure.
    public func entry(named name: String) throws -> LibraryEntry {
        // A path the library has is found even when its file is gone.
        let path = FileName.exists(name) ? ScoreIdentity.absolute(name) : name
        let byPath = try entries().filter { $0.path == path }
        let matches = byPath.isEmpty ? try titled(name) : byPath
        guard matches.count == 1 else { throw Unclear(description: problem(name, matches)) }
        return matches[0]
    }

    /// Takes the entries `names` name (``entry(named:)``) out of the library, all or none (their files stay); returns
    /// them.
    public func remove(named names: [String]) throws -> [LibraryEntry] {
        let entries = try names.map { try entry(named: $0) }
        try remove(entries)
        return entries
    }
}

extension Library {
    /// Adds the file `scan` wrote at `path`, with its pages as its source and who made it from them (`endpoint`'s
    /// model, on `result`'s date).
    public func add(scanned path: String, _ result: Scan.Result, of scan: Scan, _ endpoint: ModelEndpoint) throws {
        var pages: [String] = []
        for page in scan.pages.map({ ScoreIdentity.absolute($0.file) }) where !pages.contains(page) { pages.append(page) }
        let source = LibraryEntry.Source(pages: pages, made: "by \(endpoint.model) at \(endpoint.host) on \(result.date)")
        if case .failure(let error) = try add([path], sources: [path: source]).first?.change { throw error }
    }
}
