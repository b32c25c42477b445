import ArgumentParser
import ChoirLibrary
import ChoirPractice
import ChoirScore
import ChoirSession
import FoundationEssentials
import Glibc

extension Choir {
    /// `choir history`: past sessions per piece, with accuracy over time and the weakest measures' trend.
    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List practice sessions per piece, with accuracy over time and the weakest measures' trend.")

        @Argument(help: "Only this score's sessions (matched by file name); a title in the library names its file.")
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

        func validate() throws {
            if html != nil && score == nil { throw ValidationError("--html needs a SCORE: expected `choir history SCORE --html FILE`") }
            if recover != nil && (score != nil || html != nil) { throw ValidationError("--recover FILE takes no SCORE or --html") }
        }

        func run() throws {
            if let recover { return try Self.recover(from: recover) }
            let history = try openHistory()
            let sessions: [PracticeHistory.Session]
            let score = try self.score.map { try LibraryTitles.path($0) }
            do { sessions = try history.sessions(score: score) } catch { throw fail(error) }
            guard !sessions.isEmpty else {
                if html != nil {
                    throw fail("\(score!): no sessions to draw: expected a score practised at least once", ExitStatus.noInput)
                }
                FileOutput.write(score.map { "No sessions of \($0) yet.\n" } ?? "No sessions yet.\n")
                return
            }
            if let html, let score {
                do {
                    let reports = try sessions.map { (s: PracticeHistory.Session) throws(PracticeHistory.Failure) in
                        (s, try history.report(session: s.id))
                    }
                    try ReportFile.write(ProgressPage.render(score: score, reports), to: html)
                } catch { throw fail(error) }
            }
            var out = ""
            for (piece, group) in Dictionary(grouping: sessions, by: { PracticeHistory.piece($0.score) })
                .sorted(by: { $0.key < $1.key })
            {
                out += "\(piece)\n"
                // Each line's sessions and trend on their own: a tenor's progress is not an alto's.
                var lines: [String] = []
                for session in group where !lines.contains(session.part) { lines.append(session.part) }
                for line in lines {
                    let sessions = group.filter { $0.part == line }
                    out += "  \(line)\n"
                    for session in sessions { out += Self.row(session) }
                    if sessions.count >= 2 { out += try trend(history, sessions) }
                }
            }
            FileOutput.write(out)
        }

        /// Copies what can be read of the damaged history `file` into the current one, and says what came back.
        static func recover(from file: String) throws {
            guard FileManager.default.fileExists(atPath: file) else {
                throw fail("\(file): no such file: expected a damaged history that choir set aside", ExitStatus.noInput)
            }
            let history = try openHistory()
            guard FileManager.default.fileExists(atPath: history.path),
                realpath(file, nil).map({ String(cString: $0) }) != realpath(history.path, nil).map({ String(cString: $0) })
            else {
                throw usage("--recover \(file): this is the current history: expected a damaged one that choir set aside")
            }
            do {
                let source = try DamagedHistoryReader(path: file)
                let recovered = try history.recover(from: source)
                let entries = try Library(path: history.path).recover(from: source)
                let plans = try RehearsalPlans(path: history.path).recover(from: source, sessions: recovered.sessionNumbers)
                func count(_ n: Int, _ what: String, _ many: String? = nil) -> String { "\(n) " + (n == 1 ? what : many ?? what + "s") }
                var said =
                    "Recovered from \(file): \(count(recovered.sessions, "session")) (\(count(recovered.results, "note")), "
                    + "\(count(recovered.tracePoints, "trace point"))), \(count(recovered.marks, "mark")), "
                    + "\(count(entries, "library entry", "library entries")), \(count(plans.plans, "plan")) "
                    + "and \(count(plans.runs, "plan run")).\n"
                if recovered.alreadyThere > 0 { said += "\(count(recovered.alreadyThere, "session")) from it were here already.\n" }
                if recovered.damagedStretches > 0 || recovered.orphaned > 0 {
                    said +=
                        "Lost to the damage: the rows on \(count(recovered.damagedStretches, "damaged stretch", "damaged stretches"))"
                        + (recovered.orphaned > 0
                            ? ", and \(recovered.orphaned) notes and trace points of sessions whose own record was on one" : "")
                        + ".\n"
                }
                FileOutput.write(said)
            } catch {
                throw fail(error)
            }
        }

        /// One session: number, date, tempo, how it was sung, the range, accuracy and a bar.
        static func row(_ session: PracticeHistory.Session) -> String {
            let date = session.started.formatted(
                .iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeSeparator(.colon))
            let bar = String(repeating: "█", count: Int((session.accuracy / 5).rounded()))
            let range = session.range.map { $0.first == $0.last ? "m. \($0.first)" : "mm. \($0.first)–\($0.last)" } ?? ""
            var row = "    #\(session.id)".padded(to: 9) + " \(date)  ♩=\(Int(session.tempo.rounded()))".padded(to: 30)
            row += (session.kind?.rawValue ?? "").padded(to: 6) + range.padded(to: 12)
            row += String(printf: "%5.1f%% ", session.accuracy) + bar
            var notes: [String] = []
            if let transposition = SessionReport.transposition(session.transpose) { notes.append(transposition) }
            if session.passes > 1 { notes.append("\(session.passes) passes") }
            if !session.finished { notes.append("interrupted") }
            return row + (notes.isEmpty ? "" : "  (" + notes.joined(separator: ", ") + ")") + "\n"
        }

        /// The measures weakest over a line's last five sessions (each measure's notes pooled across them), and how
        /// each of those sessions did on them.
        private func trend(_ history: PracticeHistory, _ sessions: [PracticeHistory.Session]) throws -> String {
            let reports: [SessionReport]
            do {
                reports = try sessions.suffix(5).map { (s: PracticeHistory.Session) throws(PracticeHistory.Failure) in
                    try history.report(session: s.id)
                }
            } catch { throw fail(error) }
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
    }

    /// `choir report`: rebuilds a stored session's report.
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rebuild the report of a stored session.")

        @Argument(help: "The session's number, as `choir history` lists it.")
        var session: Int64

        @Option(help: "Also write the report as JSON to this file.")
        var json: String?

        @Option(help: "Also write the report as a self-contained HTML page to this file.")
        var html: String?

        func run() throws {
            let history = try openHistory()
            let report: SessionReport
            do { report = try history.report(session: session) } catch { throw fail(error) }
            let colour = FileOutput.colour
            FileOutput.write(TerminalReport.render(report, colour: colour))
            for (path, text) in [(json, JSONReport.render(report)), (html, HTMLReport.render(report))] {
                guard let path else { continue }
                do { try ReportFile.write(text, to: path) } catch { throw fail(error) }
            }
        }
    }
}

func openHistory() throws -> PracticeHistory {
    do {
        return try PracticeHistory(path: PracticePlan.defaultHistory)
    } catch {
        throw fail(error)
    }
}
