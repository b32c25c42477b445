import ChoirBase
import ChoirFiles
import ChoirScore

extension PracticeHistory {
    /// `choir history`'s listing of `sessions`: by piece (its `file` when the sessions are of one score), then by
    /// line, a row a session and the trend of the line's weakest measures, then the sessions in which nothing was sung;
    /// or that there are none yet.
    public func listing(_ sessions: [Session], file path: String?) throws(Failure) -> String {
        guard !sessions.isEmpty else {
            return path.map { "No sessions of \(ScoreReader.name(ofFile: $0)) yet.\n" }
                ?? "No sessions yet: `choir practice SCORE --part LINE` sings one.\n"
        }
        var out = ""
        // A piece's sessions together, whatever its file was called at each: by its content, else its path.
        let pieces = Dictionary(grouping: sessions, by: \.key).values.sorted { ($0[0].piece, $0[0].id) < ($1[0].piece, $1[0].id) }
        for group in pieces {
            let last = group.last!
            // Of one score, the sessions are of the file the singer named, wherever they were sung.
            let found = path != nil || FileName.exists(last.path)
            out += "\(last.piece) — \(path ?? ScoreIdentity.shown(last.path))\(found ? "" : " (not found)")\n"
            // Each line's sessions and trend on their own: a tenor's progress is not an alto's.
            var lines: [String] = []
            for session in group where !lines.contains(session.part) { lines.append(session.part) }
            for line in lines {
                let sessions = group.filter { $0.part == line }
                out += "  \(line)\n"
                for session in sessions { out += Self.row(session) }
                let counted = sessions.filter(\.inTrend)
                if counted.count >= 2 { out += try trend(counted) }
            }
        }
        let silent = sessions.filter { !$0.sung }
        if !silent.isEmpty {
            out +=
                "\(silent.count) session\(silent.count == 1 ? "" : "s") in which nothing was sung ("
                + silent.map { "#\($0.id)" }.joined(separator: ", ")
                + "): `choir history --prune` deletes \(silent.count == 1 ? "it" : "them").\n"
        }
        return out
    }

    /// One session: number, date, tempo, how it was sung, the range, accuracy and a bar.
    public static func row(_ session: Session) -> String {
        let date = PracticeHistory.time(session.started)
        let bar = String(repeating: "█", count: Int((session.accuracy / 5).rounded()))
        let range = session.range.map { $0.first == $0.last ? "m. \($0.first)" : "mm. \($0.first)–\($0.last)" } ?? ""
        var row = "    #\(session.id)".padded(to: 9) + " \(date)  ♩=\(Int(session.tempo.rounded()))".padded(to: 27)
        row += (session.kind?.rawValue ?? "").padded(to: 6) + range.padded(to: 12)
        row += String(printf: "%5.1f%% ", session.accuracy) + bar
        var notes: [String] = []
        if let transposition = SessionReport.transposition(session.transpose) { notes.append(transposition) }
        if session.passes > 1 { notes.append("\(session.passes) passes") }
        if !session.finished { notes.append("interrupted") }
        if !session.sung {
            notes.append("nothing sung")
        } else if session.isBrief {
            notes.append("\(Int(session.seconds.rounded())) s: too short for the trend")
        }
        row += notes.isEmpty ? "" : "  (" + notes.joined(separator: ", ") + ")"
        return String(row[..<(row.lastIndex { $0 != " " }.map(row.index(after:)) ?? row.startIndex)]) + "\n"
    }

    /// The measures weakest over a line's last five sessions in its trend (each measure's notes pooled across
    /// them), and how each of those sessions did on them.
    private func trend(_ sessions: [Session]) throws(Failure) -> String {
        let reports = try sessions.suffix(5).map { (s: Session) throws(Failure) in try report(session: s.id, trace: false) }
        let pooled = SessionReport.figures(of: reports.flatMap(\.results)) { $0.note.measure }
        let weakest = pooled.filter { $0.accuracy < 100 }.sorted { $0.accuracy < $1.accuracy }.prefix(3)
        guard !weakest.isEmpty else { return "    Weakest measures: none, over the last \(reports.count) sessions.\n" }
        var out = "    Weakest measures over the last \(reports.count) sessions:\n"
        for measure in weakest {
            let values = reports.map { report in
                report.measures.first { $0.number == measure.key }.map { String(printf: "%.0f%%", $0.accuracy) } ?? "–"
            }
            out +=
                "      m. \(measure.key)".padded(to: 14) + values.joined(separator: " → ")
                + String(printf: "  (%.0f%% in all)", measure.accuracy) + "\n"
        }
        return out
    }

    /// `choir mark list`: the marks of `score` (of every score when nil), by piece, a row a mark: its number,
    /// measure, line and words.
    public func marksListing(of score: ScoreIdentity?) throws(Failure) -> String {
        let marks = try marks(of: score)
        guard !marks.isEmpty else { return "No marks: `choir mark add SCORE --measure M \"breathe here\"` makes one.\n" }
        var out = ""
        // A piece's marks together, whatever its file was called when each was made.
        let pieces = try Dictionary(grouping: marks, by: { $0.hash ?? $0.path }).values.map {
            (group) throws(Failure) in (try name(hash: group[0].hash, path: group.last!.path), group)
        }
        for (piece, group) in pieces.sorted(by: { ($0.0, $0.1[0].id) < ($1.0, $1.1[0].id) }) {
            out += "\(piece)\n"
            for mark in group {
                out +=
                    "  \(String(mark.id).padded(to: 4, alignRight: true))  m. \(mark.measure.padded(to: 5))"
                    + (mark.line ?? "every line").padded(to: 12) + " \(mark.text)\n"
            }
        }
        return out
    }

    /// What `choir history --delete` says of the session it deleted.
    public static func deleted(_ session: Session) -> String {
        "Deleted #\(session.id): \(session.piece), \(session.part), \(time(session.started))\n"
    }

    /// What `choir history --prune` says of the sessions it deleted.
    public static func pruned(_ sessions: [Session]) -> String {
        sessions.isEmpty
            ? "No session without singing to delete.\n"
            : "Deleted \(String(count: sessions.count, "session")) in which nothing was sung: "
                + sessions.map { "#\($0.id)" }.joined(separator: ", ") + "\n"
    }

    /// The progress page (``ProgressPage``) of the score at `path` from its `sessions`, those that count in the trend
    /// (``Session/inTrend``); a score with none to draw is ``Failure/Kind/missing``: never practised, or every session
    /// too short to count.
    public func progressPage(score path: String, _ sessions: [Session]) throws(Failure) -> String {
        func nothing(_ why: String) -> Failure { Failure(path: path, kind: .missing, reason: "no sessions to draw: " + why) }
        guard !sessions.isEmpty else { throw nothing("expected a score practised at least once") }
        let drawn = try sessions.filter(\.inTrend).map { (session: Session) throws(Failure) in (session, try report(session: session.id)) }
        guard !drawn.isEmpty else { throw nothing("every session was too short to count") }
        return ProgressPage.render(score: path, drawn)
    }

    /// What coaching reads of the score file at `path` for the lines `names` pick (``LineSelector``): the piece's
    /// name, the line as its sessions name it, and the reports (without traces) of the sessions in its trend, oldest
    /// first. Throws the score's ``ScoreError``, the selection's ``LineSelector/Failure`` (said of `path`) or the
    /// history's failure.
    public func coaching(file path: String, lines names: [String]) throws -> (piece: String, part: String, reports: [SessionReport]) {
        let (score, identity) = try ScoreReader.identified(contentsOf: path)
        let lines: [Int]
        do { lines = try LineSelector.select(names, from: score.lines) } catch { throw error.of(file: path) }
        let part = LineSelector.name(of: lines, in: score.lines)
        let reports = try trend(of: identity, part: part).map { (session: Session) throws(Failure) in
            try report(session: session.id, trace: false)
        }
        return (score.name(file: path), part, reports)
    }
}
