import ArgumentParser
import ChoirBase
import ChoirLibrary
import ChoirPractice
import ChoirScore
import ChoirSession
import ChoirTerminal
import FoundationEssentials
import Glibc

extension Choir {
    /// `choir history`: past sessions per piece, with accuracy over time and the weakest measures' trend.
    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List practice sessions per piece, with accuracy over time and the weakest measures' trend.")

        @Argument(
            help:
                "Only this score's sessions (by its content, so a moved or renamed file keeps them); a title in the library names its file."
        )
        var score: String?

        @Option(
            help:
                "Also write the score's progress as a self-contained HTML page to this file: accuracy over time, measures by sessions and intonation."
        )
        var html: String?

        @Option(
            help:
                "Copy every session still readable (with its notes, and the marks, library and plans) from a damaged history that choir set aside into the current one."
        )
        var recover: String?

        @Option(help: ArgumentHelp("Delete the session with this number (as listed), its notes and its trace.", valueName: "id"))
        var delete: Int64?

        @Flag(help: "Delete every session in which nothing was sung.")
        var prune = false

        func validate() throws {
            if html != nil && score == nil { throw ValidationError("--html needs a SCORE: expected `choir history SCORE --html FILE`") }
            if recover != nil && (score != nil || html != nil) { throw ValidationError("--recover FILE takes no SCORE or --html") }
            if (delete != nil || prune) && (score != nil || html != nil) {
                throw ValidationError("--delete and --prune take no SCORE or --html: expected `choir history --delete ID` or `--prune`")
            }
            if [recover != nil, delete != nil, prune].filter({ $0 }).count > 1 {
                throw ValidationError("--recover, --delete and --prune conflict: give one")
            }
        }

        func run() throws {
            if let recover { return try Self.recover(from: recover) }
            let history = try openHistory()
            if let delete { return FileOutput.write(PracticeHistory.deleted(try failing { try history.delete(session: delete) })) }
            if prune { return FileOutput.write(PracticeHistory.pruned(try failing { try history.prune() })) }
            let path = try self.score.map { try LibraryTitles.path($0) }
            let sessions = try failing { try history.sessions(of: path.map(ScoreReader.identity(ofFile:))) }
            if let html, let path { try failing { try ReportFile.write(history.progressPage(score: path, sessions), to: html) } }
            FileOutput.write(try failing { try history.listing(sessions, file: path) })
        }

        /// Copies what can be read of the damaged history `file` into the current one, and says what came back.
        static func recover(from file: String) throws {
            let history = try openHistory()
            do { FileOutput.write(try HistoryRecovery.recover(from: file, into: history)) } catch  where error.kind == .current {
                throw usage("--recover \(error)")
            } catch { throw fail(error) }
        }
    }

    /// `choir report`: rebuilds a stored session's report.
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rebuild the report of a stored session.")

        @Argument(help: "The session's number, as `choir history` lists it.")
        var session: Int64

        @OptionGroup var files: ReportFiles

        @OptionGroup var detail: ReportDetail

        func run() throws {
            let report = try failing { try openHistory().report(session: session) }
            FileOutput.write(detail.render(report))
            try files.write(report)
        }
    }
}

/// The practice history, or a one-line error.
func openHistory() throws -> PracticeHistory { try failing { try PracticeHistory(path: PracticePlan.defaultHistory) } }
