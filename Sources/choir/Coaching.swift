import ArgumentParser
import ChoirModel
import ChoirPractice
import ChoirSession
import ChoirTerminal

extension Choir {
    /// `choir coach`: what a line's stored sessions show, in plain words.
    struct Coaching: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "coach",
            abstract:
                "Advice from your sessions of a line: a lean on held notes, late entrances, measures that improved, another line sung.",
            discussion: """
                The advice is choir's own, from rules, offline. With --model (or --endpoint), a model you bring \
                writes it in plain words instead, from the sessions' figures alone (accuracies, verdicts, pitch \
                errors, weak measures and the rules' findings: never audio), sent to an OpenAI-compatible server as \
                choir scan sends pages, with the same key and configuration file.
                """)

        @Argument(help: "The score: a file (matched by name, as the history matches it), or a title in the library.")
        var score: String

        /// The line, or the lines sung together, as practised.
        @OptionGroup var parts: Parts

        @Flag(help: "Say everything the sessions show, not just the two things that matter most.")
        var verbose = false

        @OptionGroup var model: ModelOptions

        func validate() throws {
            if parts.isEmpty { throw ValidationError("coach needs --part: the line whose sessions to read") }
        }

        func run() throws {
            let score = try LibraryTitles.path(self.score)
            let history = try openHistory()
            let (piece, part, reports) = try failing { try history.coaching(file: score, lines: parts.names) }
            guard !reports.isEmpty else {
                FileOutput.write("No sessions of the \(part) of \(piece) yet.\n")
                return
            }
            if model.model != nil || model.endpoint != nil { return try coachByModel(reports, piece: piece) }
            FileOutput.write(Coach.text(reports, piece: piece, verbose: verbose))
        }

        /// The model's advice from the figures of `reports`, with the tokens and cost it took.
        private func coachByModel(_ reports: [SessionReport], piece: String) throws {
            let endpoint = try model.resolved()
            let request = ModelCoach.request(reports, piece: piece)
            if model.dryRun {
                FileOutput.write(request.preview(for: endpoint) + "\nNothing was sent (--dry-run).\n")
                return
            }
            let reply = try failing { try ModelOptions.client(endpoint).complete(request) }
            FileOutput.write(ModelCoach.advice(reply, from: endpoint, reports, piece: piece))
        }
    }
}
