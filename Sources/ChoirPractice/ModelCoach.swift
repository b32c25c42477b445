import ChoirBase
import ChoirScore

/// What a language model the singer brings is told for coaching in plain words (`choir coach --model`): a line's
/// session figures as text (accuracies, verdicts, pitch errors, weak measures, and what the rule-based ``Coach``
/// found) and nothing else: never audio, never the pitch traces.
public enum ModelCoach {
    /// The coach's instructions: the system message.
    public static let instructions = """
        You are a patient choir coach. A singer who reads music a little (2 on a scale of 5) practised one line of a \
        piece with choir, a practice program that judged every note they sang. From the figures of their sessions, \
        write at most five short sentences in plain, warm words: what is going well, the one or two things to work on \
        next (naming measures), and how. Use only what the figures show; do not invent numbers. No headings, no lists.
        """

    /// What the model is sent: `sessions` (one line of `piece`, oldest first) as figures, the last eight in detail.
    public static func figures(_ sessions: [SessionReport], piece: String) -> String {
        guard let last = sessions.last else { return "" }
        var out = "Piece: \(piece). Line: \(last.part). Sessions: \(sessions.count), oldest first.\n"
        let first = max(0, sessions.count - 8)
        for (number, report) in sessions.enumerated().dropFirst(first) {
            let counts = Verdict.allCases.compactMap { verdict in report.counts[verdict].map { "\($0) \(verdict.rawValue)" } }
            var line = "Session \(number + 1): \(report.results.count) notes, \(String(printf: "%.0f", report.accuracy))% right ("
            line += counts.joined(separator: ", ") + ")"
            if let error = report.meanAbsoluteCents, let bias = report.biasCents {
                line += "; pitch off by \(String(printf: "%.0f", error)) cents on average, leaning "
                line += "\(String(printf: "%.0f", abs(bias))) cents \(bias < 0 ? "flat" : "sharp")"
            }
            line += String(printf: "; tempo %.0f%%", report.tempoPercent)
            out += line + ".\n"
        }
        out +=
            "Last session, % right by measure: "
            + last.measures.map { "m. \($0.number) \(String(printf: "%.0f", $0.accuracy))" }
            .joined(separator: ", ") + ".\n"
        let passages = last.weakestPassages
        if !passages.isEmpty {
            out += "Weakest passages of the last session: " + passages.map(\.measures.span).joined(separator: "; ") + ".\n"
        }
        let advice = Coach.advice(sessions)
        if !advice.isEmpty { out += "Patterns choir's rules found:\n" + advice.map { "- \($0)\n" }.joined() }
        return out
    }

    /// What `choir coach --model` says: the heading (``Coach/heading(_:piece:)``), the `reply` of `model` a line at a
    /// time (or that it said nothing), and `cost`, what the reply took.
    public static func text(_ reply: String, model: String, cost: String, _ reports: [SessionReport], piece: String) -> String {
        let text = reply.split(whereSeparator: \.isNewline).map { "  \($0)\n" }.joined()
        return Coach.heading(reports, piece: piece) + ", in the words of \(model) (from the figures alone):\n"
            + (text.isEmpty ? "  (the model said nothing)\n" : text) + "Model: \(cost).\n"
    }
}
