import ArgumentParser
import ChoirBase
import ChoirFiles
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
            if let delete {
                do {
                    let deleted = try history.delete(session: delete)
                    FileOutput.write(
                        "Deleted #\(deleted.id): \(deleted.piece), \(deleted.part), \(PracticeHistory.time(deleted.started))\n")
                } catch { throw fail(error) }
                return
            }
            if prune {
                do {
                    let pruned = try history.prune()
                    FileOutput.write(
                        pruned.isEmpty
                            ? "No session without singing to delete.\n"
                            : "Deleted \(pruned.count) session\(pruned.count == 1 ? "" : "s") in which nothing was sung: "
                                + pruned.map { "#\($0.id)" }.joined(separator: ", ") + "\n")
                } catch { throw fail(error) }
                return
            }
            let path = try self.score.map { try LibraryTitles.path($0) }
            let score = try path.map(scoreIdentity)
            let sessions: [PracticeHistory.Session]
            do { sessions = try history.sessions(of: score) } catch { throw fail(error) }
            guard !sessions.isEmpty else {
                if html != nil {
                    throw fail("\(path!): no sessions to draw: expected a score practised at least once", ExitStatus.noInput)
                }
                FileOutput.write(
                    path.map { "No sessions of \(ScoreReader.name(ofFile: $0)) yet.\n" }
                        ?? "No sessions yet: `choir practice SCORE --part LINE` sings one.\n")
                return
            }
            if let html, let path {
                do {
                    let drawn = try sessions.filter(\.inTrend).map { (s: PracticeHistory.Session) throws(PracticeHistory.Failure) in
                        (s, try history.report(session: s.id))
                    }
                    guard !drawn.isEmpty else {
                        throw fail("\(path): no sessions to draw: every session was too short to count", ExitStatus.noInput)
                    }
                    try ReportFile.write(ProgressPage.render(score: path, drawn), to: html)
                } catch let error as PracticeHistory.Failure { throw fail(error) } catch let error as SessionError { throw fail(error) }
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
                    if counted.count >= 2 { out += try trend(history, counted) }
                }
            }
            let silent = sessions.filter { !$0.sung }
            if !silent.isEmpty {
                out +=
                    "\(silent.count) session\(silent.count == 1 ? "" : "s") in which nothing was sung ("
                    + silent.map { "#\($0.id)" }.joined(separator: ", ")
                    + "): `choir history --prune` deletes \(silent.count == 1 ? "it" : "them").\n"
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
        private func trend(_ history: PracticeHistory, _ sessions: [PracticeHistory.Session]) throws -> String {
            let reports: [SessionReport]
            do {
                reports = try sessions.suffix(5).map { (s: PracticeHistory.Session) throws(PracticeHistory.Failure) in
                    try history.report(session: s.id, trace: false)
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

        @Flag(help: "List every note with its verdict, not only the notes to work on.")
        var allNotes = false

        @Flag(help: "Say everything: every interval against the chord, not just those sung furthest off.")
        var verbose = false

        func run() throws {
            let history = try openHistory()
            let report: SessionReport
            do { report = try history.report(session: session) } catch { throw fail(error) }
            let colour = FileOutput.colour
            FileOutput.write(TerminalReport.render(report, colour: colour, verbose: verbose, width: FileOutput.width, allNotes: allNotes))
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

/// The identity of the score file at `path` (``ScoreIdentity``), with the piece it holds when it can be read, or a
/// one-line error.
func scoreIdentity(_ path: String) throws -> ScoreIdentity {
    if let read = try? ScoreReader.identified(contentsOf: path) { return read.identity }
    do { return try ScoreIdentity(contentsOf: path) } catch { throw fail(error) }
}
