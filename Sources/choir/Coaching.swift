import ArgumentParser
import ChoirPractice
import ChoirScore

extension Choir {
    /// `choir coach`: what a line's stored sessions show, in plain words.
    struct Coaching: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "coach",
            abstract:
                "Advice from your sessions of a line: a lean on held notes, late entrances, measures that improved, another line sung.")

        @Argument(help: "The score: a file (matched by name, as the history matches it), or a title in the library.")
        var score: String

        /// The line, or the lines sung together, as practised.
        @OptionGroup var parts: Parts

        @Flag(help: "Say everything the sessions show, not just the two things that matter most.")
        var verbose = false

        func validate() throws {
            if parts.isEmpty { throw ValidationError("coach needs --part: the line whose sessions to read") }
        }

        func run() throws {
            let score = try LibraryTitles.path(self.score)
            let (read, identity): (Score, ScoreIdentity)
            do { (read, identity) = try ScoreReader.identified(contentsOf: score) } catch { throw fail(error) }
            let part: String
            do { part = LineSelector.name(of: try LineSelector.select(parts.names, from: read.lines), in: read.lines) } catch {
                throw usage("\(score): \(error)")
            }
            let history = try openHistory()
            let reports: [SessionReport]
            do {
                reports = try history.trend(of: identity, part: part)
                    .map { (session: PracticeHistory.Session) throws(PracticeHistory.Failure) in try history.report(session: session.id) }
            } catch {
                throw fail(error)
            }
            let piece = read.name(file: score)
            guard !reports.isEmpty else {
                FileOutput.write("No sessions of the \(part) of \(piece) yet.\n")
                return
            }
            // What matters most first; without --verbose, three lines at most.
            let advice = Coach.advice(reports)
            let shown = verbose ? advice : Array(advice.prefix(2))
            let counted = reports.count == 1 ? "1 session" : "\(reports.count) sessions"
            let more = advice.count - shown.count
            FileOutput.write(
                "\(piece), \(reports[0].part), \(counted)" + (more > 0 ? " (\(more) more with --verbose)" : "") + ":\n"
                    + (advice.isEmpty ? "  No pattern stands out yet.\n" : shown.map { "  - \($0)\n" }.joined()))
        }
    }
}
