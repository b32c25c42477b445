import ChoirScore

/// A measure whose accuracy rose or fell in a line's latest session against the sessions before it.
public struct MeasureChange: Sendable, Equatable {
    /// The measure's printed number, and where it is in the score.
    public var measure: String
    public var measureIndex: Int
    /// Percent of its notes right in the earlier sessions that sang it (pooled), and in the latest.
    public var before: Double
    public var latest: Double
    /// How many of the earlier sessions sang it.
    public var sessions: Int

    public var change: Double { latest - before }

    /// A change of at least this many points is one; a note or two more or less in a long history is not.
    public static let threshold = 20.0
    /// The earlier sessions compared with: the recent ones, which say how the singer sang the measure lately.
    public static let window = 5

    /// The measures of `sessions` (one piece and line, oldest first) whose accuracy in the last session is at least
    /// ``threshold`` points above (`improved`) or below (`slipped`) their accuracy over up to ``window`` sessions
    /// before it; each list by the size of the change, then in score order. Measures the last session did not sing,
    /// or no earlier one did, are in neither.
    public static func changes(_ sessions: [SessionReport]) -> (improved: [MeasureChange], slipped: [MeasureChange]) {
        guard let latest = sessions.last, sessions.count > 1 else { return ([], []) }
        let earlier = sessions.dropLast().suffix(window)
        var pooled: [Int: (right: Int, all: Int, sessions: Int)] = [:]
        for report in earlier {
            for (key, notes, correct, _) in SessionReport.figures(of: report.results, by: { String($0.note.measureIndex) }) {
                let index = Int(key)!
                let sum = pooled[index] ?? (0, 0, 0)
                pooled[index] = (sum.right + correct, sum.all + notes, sum.sessions + 1)
            }
        }
        var numbers: [Int: String] = [:]
        for result in latest.results { numbers[result.note.measureIndex] = result.note.measure }
        let changes = SessionReport.figures(of: latest.results, by: { String($0.note.measureIndex) }).compactMap {
            (key, _, _, accuracy) -> MeasureChange? in
            let index = Int(key)!
            guard let before = pooled[index], before.all > 0 else { return nil }
            return MeasureChange(
                measure: numbers[index]!, measureIndex: index, before: 100 * Double(before.right) / Double(before.all), latest: accuracy,
                sessions: before.sessions)
        }.sorted { abs($0.change) == abs($1.change) ? $0.measureIndex < $1.measureIndex : abs($0.change) > abs($1.change) }
        return (changes.filter { $0.change >= threshold }, changes.filter { $0.change <= -threshold })
    }

    /// "m. 7: 33% → 100% (+67 points, against 3 sessions)".
    public var summary: String {
        let points = Int(change.rounded())
        return "m. \(measure): \(Int(before.rounded()))% → \(Int(latest.rounded()))% (\(points > 0 ? "+" : "")\(points) points, against "
            + "\(sessions) session\(sessions == 1 ? "" : "s"))"
    }
}

extension PracticeHistory {
    /// The measures of `part` of `score` that improved or slipped in its latest session in the trend
    /// (``MeasureChange/changes(_:)``), with the sessions compared: the latest and those before it.
    public func measureChanges(of score: ScoreIdentity, part: String) throws(Failure)
        -> (latest: Session, earlier: [Session], improved: [MeasureChange], slipped: [MeasureChange])?
    {
        let compared = try trend(of: score, part: part).suffix(MeasureChange.window + 1)
        guard let latest = compared.last, compared.count > 1 else { return nil }
        var reports: [SessionReport] = []
        for session in compared { reports.append(try report(session: session.id, trace: false)) }
        let (improved, slipped) = MeasureChange.changes(reports)
        return (latest, Array(compared.dropLast()), improved, slipped)
    }
}
