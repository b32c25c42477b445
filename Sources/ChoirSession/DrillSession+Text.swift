import ChoirPractice

extension DrillSession {
    /// What a front end says before a first pass: there is no session of the line to learn the passages from.
    public var firstPassNotice: String {
        "Drill: no session of \(part) in the history to learn from; a first pass finds the weakest measures."
    }

    /// What a front end says of the passages found (``Event/passages(_:)``): their spans, weakest first, or that
    /// there is nothing to drill.
    public static func notice(_ passages: [Drill.Passage]) -> String {
        passages.isEmpty ? "Drill: every measure was right; nothing to drill." : "Drill: " + passages.map(\.span).joined(separator: ", ")
    }
}

extension DrillSession.Pass {
    /// What the pass is, shown while it runs: "drill mm. 3–4, pass 2 at 80%"; nil for a first pass.
    public var label: String? { passage.map { "drill \($0.span), pass \(number) at \(Int(tempo))%" } }
}

extension DrillSession.PassEnd {
    /// How a drilled pass went and what comes next: "mm. 3–4 at 80%: 75% (6 of 8 notes) → next at 90%"; nil after a
    /// first pass, or a pass that did not complete.
    public var summary: String? {
        guard let passage = pass.passage, let next else { return nil }
        let report = outcome.report
        let then =
            switch next {
            case .again: "again"
            case .faster: "next at \(Int(nextTempo ?? 100))%"
            case .done: "done"
            case .movedOn: "moving on after \(pass.number) passes"
            }
        return
            "\(passage.span) at \(Int(pass.tempo))%: \(Int(report.accuracy.rounded()))% (\(report.correct) of \(report.results.count) notes) → \(then)"
    }
}
