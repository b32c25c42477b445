import ArgumentParser
import ChoirBase
import ChoirLibrary
import ChoirPractice
import ChoirScore
import ChoirSession
import ChoirTerminal

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
                let changes = try failing { try library.add(Library.scores(in: paths)) }
                var failed: ExitCode?
                for case (_, .failure(let error)) in changes { failed = failed ?? fail(error) }
                FileOutput.write(Library.added(changes, total: (try? library.entries().count) ?? 0))
                if let failed { throw failed }
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "List the library: title, composer, voicing, key, length, each line's range, and when you last practised it.")

            @OptionGroup var output: JSONFlag

            func run() throws {
                let library = try openLibrary()
                show(try failing { try library.listed(try library.entries()) }, json: output.json)
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

            @OptionGroup var output: JSONFlag

            func validate() throws { _ = try query() }

            /// The query, or the reason it is not one.
            private func query() throws -> LibraryQuery {
                do {
                    return try LibraryQuery(
                        text: text.joined(separator: " "), voicing: voicing, lines: parts.names, lowest: lowest, highest: highest, key: key)
                } catch { throw ValidationError(error.description) }
            }

            func run() throws {
                let query = try query()
                let library = try openLibrary()
                do { show(try library.found(query), json: output.json) } catch let slip as LibraryQuery.Slip {
                    throw usage("--part \(slip.line): \(slip)")
                } catch { throw fail(error) }
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Take scores out of the library, by path or title (their files stay).")

            @Argument(help: "Paths, titles or unique starts of titles.")
            var scores: [String]

            func run() throws {
                let removed = try failing { try openLibrary().remove(named: scores) }
                FileOutput.write(removed.map { "removed    \($0.path)\n" }.joined())
            }
        }
    }
}

/// Prints library entries as `choir library list` does: a block per piece, or JSON.
private func show(_ listed: [Library.Listed], json: Bool) {
    // JSON is UTF-8 whatever the locale.
    if json { print(JSON.array(listed.map(\.json)).serialized()) } else { FileOutput.write(Library.Listed.text(listed)) }
}

/// Naming scores by their library titles.
enum LibraryTitles {
    /// A SCORE argument as a file (``Library/file(named:history:)``), or a one-line error.
    static func path(_ argument: String) throws -> String {
        try failing { try Library.file(named: argument, history: PracticePlan.defaultHistory) }
    }
}

/// The library in the history's database, or a one-line error.
func openLibrary() throws -> Library { try failing { try Library(path: PracticePlan.defaultHistory) } }
