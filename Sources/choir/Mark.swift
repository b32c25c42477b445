import ArgumentParser
import ChoirBase
import ChoirPractice
import ChoirScore
import ChoirSession
import ChoirTerminal

extension Choir {
    /// `choir mark`: the singer's pencil marks on their part, by measure.
    struct Mark: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Pencil marks on your part (\"breathe after 'grace'\"): shown in the live view as their measure nears and in every report.",
            subcommands: [Add.self, List.self, Remove.self])

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Mark a measure of a line.")

            @OptionGroup var score: ScoreArgument

            /// The lines the mark is for; every line when none is given.
            @OptionGroup var parts: Parts

            @Option(help: "The measure, by its printed number.")
            var measure: String

            @Argument(help: "What to remember there.")
            var text: String

            func run() throws {
                let path = try score.path()
                let kept = try failing { try openHistory().mark(score: path, lines: parts.names, measure: measure, text: text) }
                FileOutput.write(PracticeMark.kept(kept))
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List the marks, of one score or of all.")

            @Argument(help: "Only this score's marks (a file, or a title in the library).")
            var score: String?

            func run() throws {
                let score = try self.score.map { path in try failing { try ScoreReader.identity(ofFile: LibraryTitles.path(path)) } }
                let history = try openHistory()
                FileOutput.write(try failing { try history.marksListing(of: score) })
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Rub out a mark, by the number `choir mark list` gives it.")

            @Argument(help: "The mark's number.")
            var id: Int64

            func run() throws {
                guard try failing({ try openHistory().removeMark(id) }) else {
                    throw usage("no mark \(id): expected a number from `choir mark list`")
                }
                FileOutput.write("mark \(id) rubbed out\n")
            }
        }
    }
}
