import ArgumentParser
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

        @Argument(help: "Only this score's sessions (matched by file name).")
        var score: String?

        func run() throws {
            let history = try openHistory()
            let sessions: [PracticeHistory.Session]
            do { sessions = try history.sessions(score: score) } catch { throw fail(error) }
            guard !sessions.isEmpty else {
                FileOutput.write(score.map { "No sessions of \($0) yet.\n" } ?? "No sessions yet.\n")
                return
            }
            var out = ""
            for (piece, group) in Dictionary(grouping: sessions, by: { ($0.score.split(separator: "/").last).map(String.init) ?? $0.score })
                .sorted(by: { $0.key < $1.key })
            {
                out += "\(piece)\n"
                for session in group {
                    let date = session.started.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeSeparator(.colon))
                    let bar = String(repeating: "█", count: Int((session.accuracy / 5).rounded()))
                    out += "  #\(session.id)".padded(to: 7) + " \(date)  \(session.part.padded(to: 10)) ♩=\(Int(session.tempo.rounded()))".padded(to: 40)
                        + String(printf: "%5.1f%% ", session.accuracy) + bar + (session.passes > 1 ? "  \(session.passes) passes" : "") + (session.finished ? "" : "  (interrupted)") + "\n"
                }
                if group.count >= 2 { out += try trend(history, group) }
            }
            FileOutput.write(out)
        }

        /// How the measures that were weakest in the latest session did in each session before it.
        private func trend(_ history: PracticeHistory, _ group: [PracticeHistory.Session]) throws -> String {
            let reports: [SessionReport]
            do { reports = try group.suffix(5).map { (s: PracticeHistory.Session) throws(PracticeHistory.Failure) in try history.report(session: s.id) } } catch { throw fail(error) }
            guard let latest = reports.last else { return "" }
            let weakest = latest.measures.sorted { $0.accuracy < $1.accuracy }.prefix(3).filter { $0.accuracy < 100 }.map(\.number)
            guard !weakest.isEmpty else { return "  Weakest measures: none in the latest session.\n" }
            var out = "  Weakest measures, last \(reports.count) sessions:\n"
            for number in weakest {
                let values = reports.map { report in
                    report.measures.first { $0.number == number }.map { String(printf: "%.0f%%", $0.accuracy) } ?? "–"
                }
                out += "    m. \(number)".padded(to: 12) + values.joined(separator: " → ") + "\n"
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
            let colour = Choir.Practice.colour
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
