import ArgumentParser
import ChoirModel
import ChoirPractice

extension Choir {
    /// `choir coach`: what a line's stored sessions show, in plain words.
    struct Coaching: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "coach",
            abstract:
                "Advice from your sessions of a line: a lean on held notes, late entrances, measures that improved, another line sung.",
            discussion: """
                The advice is choir's own, from rules, offline. With --model (or --endpoint), a model you bring writes                 it in plain words instead, from the sessions' figures alone (accuracies, verdicts, pitch errors, weak                 measures and the rules' findings: never audio), sent to an OpenAI-compatible server as choir scan                 sends pages, with the same key and configuration file.
                """)

        @Argument(help: "The score: a file (matched by name, as the history matches it), or a title in the library.")
        var score: String

        @Option(help: "The line, as the sessions name it (Tenor, Soprano + Descant).")
        var part: String

        @OptionGroup var model: ModelOptions

        func run() throws {
            let score = try LibraryTitles.path(self.score)
            let history = try openHistory()
            let reports: [SessionReport]
            do {
                reports = try history.sessions(score: score).filter { $0.part.lowercased() == part.lowercased() && $0.notes > 0 }
                    .map { (session: PracticeHistory.Session) throws(PracticeHistory.Failure) in try history.report(session: session.id) }
            } catch {
                throw fail(error)
            }
            let piece = PracticeHistory.piece(score)
            guard !reports.isEmpty else {
                FileOutput.write("No sessions of the \(part) of \(piece) yet.\n")
                return
            }
            let counted = reports.count == 1 ? "1 session" : "\(reports.count) sessions"
            if model.model != nil || model.endpoint != nil {
                try coachByModel(reports, piece: piece, counted: counted)
                return
            }
            let advice = Coach.advice(reports)
            FileOutput.write(
                "\(piece), \(reports[0].part), \(counted):\n"
                    + (advice.isEmpty ? "  No pattern stands out yet.\n" : advice.map { "  - \($0)\n" }.joined()))
        }

        /// The model's advice from the figures of `reports`, with the tokens and cost it took.
        private func coachByModel(_ reports: [SessionReport], piece: String, counted: String) throws {
            let endpoint = try model.resolved()
            let request = ChatRequest([
                .init(.system, ModelCoach.instructions), .init(.user, ModelCoach.figures(reports, piece: piece)),
            ])
            if model.dryRun {
                FileOutput.write(request.preview(for: endpoint) + "\nNothing was sent (--dry-run).\n")
                return
            }
            let reply: ChatReply
            do { reply = try ModelOptions.client(endpoint).complete(request) } catch { throw fail(error) }
            var usage = ModelUsage()
            usage.add(reply)
            let text = reply.text.split(whereSeparator: \.isNewline).map { "  \($0)\n" }.joined()
            FileOutput.write(
                "\(piece), \(reports[0].part), \(counted), in the words of \(endpoint.model) (from the figures alone):\n"
                    + (text.isEmpty ? "  (the model said nothing)\n" : text) + "Model: \(usage.summary(endpoint)).\n")
        }
    }
}
