import ArgumentParser
import ChoirBase
import ChoirFiles
import ChoirLibrary
import ChoirPractice
import ChoirScore
import ChoirSession
import FoundationEssentials

extension Choir {
    /// `choir library`: the singer's scores, added once, then listed, searched and named by title.
    struct LibraryCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "library",
            abstract: "Your scores: add them once, then list and search them, and name them by title wherever a score is taken.",
            subcommands: [Add.self, List.self, Search.self, Remove.self])

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract:
                    "Add scores (.musicxml, .xml, .mxl), or folders of them searched recursively; changed and moved files are noticed.")

            @Argument(help: "Score files or folders.")
            var paths: [String]

            func run() throws {
                let library = try openLibrary()
                let changes: [(path: String, change: Result<Library.Change, ScoreError>)]
                do { changes = try library.add(Library.scores(in: paths)) } catch { throw fail(error) }
                var counts = (added: 0, updated: 0, moved: 0, unchanged: 0)
                var failed: ExitCode?
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
                    case .failure(let error): failed = failed ?? fail(error)
                    }
                }
                let total = (try? library.entries().count) ?? 0
                out +=
                    "\(total) \(total == 1 ? "score" : "scores") in the library: \(counts.added) added, \(counts.updated) updated, "
                    + "\(counts.moved) moved, \(counts.unchanged) unchanged"
                    + (changes.count { (try? $0.change.get()) == nil } > 0
                        ? ", \(changes.count { (try? $0.change.get()) == nil }) not scores choir can read" : "") + "\n"
                FileOutput.write(out)
                if let failed { throw failed }
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "List the library: title, composer, voicing, key, length, each line's range, and when you last practised it.")

            @Flag(help: "Print JSON instead of text.")
            var json = false

            func run() throws {
                let library = try openLibrary()
                do { show(try library.listed(try library.entries()), json: json) } catch { throw fail(error) }
            }
        }

        struct Search: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract:
                    "Find scores by title, composer or path, voicing, key, or a line's range (\"every piece whose tenor stays within D3–F♯4\")."
            )

            @Argument(help: "Words in the title, the composer or the path.")
            var text: [String] = []

            @Option(help: "The voicing, exactly: SATB, SSAA, TTBB, SSATB…")
            var voicing: String?

            /// Lines the piece has, each within --lowest and --highest.
            @OptionGroup var parts: Parts

            @Option(help: "With --part, the lowest note its lines may go to (D3, F#4, B♭3).")
            var lowest: String?

            @Option(help: "With --part, the highest note its lines may go to.")
            var highest: String?

            @Option(help: "The key at the start: G, G major, e minor, Em, B♭.")
            var key: String?

            @Flag(help: "Print JSON instead of text.")
            var json = false

            func validate() throws {
                if (lowest != nil || highest != nil) && parts.isEmpty {
                    throw ValidationError("--lowest and --highest need --part: the line they bound")
                }
                for (option, note) in [("lowest", lowest), ("highest", highest)] {
                    if let note, PitchName.midi(named: note) == nil {
                        throw ValidationError("--\(option) \(note): expected a note such as D3, F#4 or B♭3")
                    }
                }
                if let key, let problem = LibraryQuery.keyProblem(key) { throw ValidationError("--key \(key): \(problem)") }
            }

            func run() throws {
                var query = LibraryQuery()
                query.text = text.isEmpty ? nil : text.joined(separator: " ")
                query.voicing = voicing
                query.lines = parts.names
                query.lowest = lowest.flatMap(PitchName.midi(named:))
                query.highest = highest.flatMap(PitchName.midi(named:))
                query.key = key
                let library = try openLibrary()
                do {
                    if let slip = query.slip(among: try library.entries()) {
                        throw usage(
                            "--part \(slip.line): "
                                + NearestName.unknown(
                                    "line", slip.line, among: [slip.nearest],
                                    expected: "a line of a score in the library (`choir library list`)"))
                    }
                    show(try library.listed(try library.search(query)), json: json)
                } catch let error as PracticeHistory.Failure { throw fail(error) }
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Take scores out of the library, by path or title (their files stay).")

            @Argument(help: "Paths, titles or unique starts of titles.")
            var scores: [String]

            func run() throws {
                let library = try openLibrary()
                do {
                    let all = try library.entries()
                    var removed: [LibraryEntry] = []
                    for name in scores {
                        let path = FileName.exists(name) ? ScoreIdentity.absolute(name) : name
                        let matches = try all.filter { $0.path == path }.ifEmpty(try library.titled(name))
                        guard matches.count == 1 else { throw usage(library.problem(name, matches)) }
                        removed.append(matches[0])
                    }
                    try library.remove(removed)
                    FileOutput.write(removed.map { "removed    \($0.path)\n" }.joined())
                } catch let error as PracticeHistory.Failure {
                    throw fail(error)
                }
            }
        }
    }
}

/// Prints library entries as `choir library list` does: a block per piece, or JSON.
private func show(_ listed: [Library.Listed], json: Bool) {
    if json {
        // JSON is UTF-8 whatever the locale.
        print(JSON.array(listed.map(\.json)).serialized())
        return
    }
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
    FileOutput.write(out)
}

extension Library.Listed {
    var json: JSON {
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

/// Naming scores by their library titles.
enum LibraryTitles {
    /// A SCORE argument as a file: itself when it is one (or when there is no library), else the file of the one
    /// library score with that title, or whose title it begins.
    static func path(_ argument: String) throws -> String {
        guard !FileName.exists(argument), FileManager.default.fileExists(atPath: PracticePlan.defaultHistory),
            let library = try? Library(path: PracticePlan.defaultHistory), let matches = try? library.titled(argument), !matches.isEmpty
        else { return argument }
        guard matches.count == 1 else { throw usage(library.problem(argument, matches)) }
        return matches[0].path
    }
}

/// The library in the history's database, or a one-line error.
func openLibrary() throws -> Library {
    do { return try Library(path: PracticePlan.defaultHistory) } catch { throw fail(error) }
}

extension Array {
    fileprivate func ifEmpty(_ other: @autoclosure () throws -> [Element]) rethrows -> [Element] { isEmpty ? try other() : self }
}
