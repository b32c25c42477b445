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
    /// `choir plan`: rehearsal plans, named lists of what to practise, run in order as sessions.
    struct Plan: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rehearsal plans: named, ordered lists of pieces, lines, measures, tempos, keys and passes, run as sessions in turn.",
            subcommands: [New.self, Add.self, List.self, Show.self, Remove.self, Export.self, Import.self, Run.self])

        struct New: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Make an empty plan.")

            @Argument(help: "The plan's name.")
            var name: String

            func run() throws {
                guard !name.allSatisfy(\.isWhitespace) else {
                    throw usage("the plan's name is empty: expected a name, e.g. \"Advent concert\"")
                }
                try save(RehearsalPlan(name: name), replacing: false)
                FileOutput.write("Plan '\(name)': no items yet; add them with `choir plan add \(name.shellQuoted) SCORE --part LINE`.\n")
            }
        }

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Add an item to a plan: a piece and your line, with its measures, tempo, key and passes.")

            @Argument(help: "The plan's name.")
            var name: String

            @Argument(help: "The score: a file, or a title in the library.")
            var score: String

            /// Your line (one per item).
            @OptionGroup var parts: Parts

            @Option(help: "First measure (its printed number).")
            var from: String?

            @Option(help: "Last measure (its printed number).")
            var to: String?

            @Option(help: "The tempo, in percent of the score's.")
            var tempo: Double?

            @Option(parsing: .unconditional, help: "Semitones to move the piece by, -12 to 12.")
            var transpose = 0

            @Option(help: "How many times through, 1 to 20.")
            var passes = 1

            @Option(help: "What to remember when singing it, shown with the item.")
            var notes: String?

            func validate() throws {
                typealias Item = RehearsalPlan.Item
                if parts.names.count != 1 {
                    throw ValidationError("plan add takes one --part: the line you sing in this item (add an item for each line)")
                }
                if let tempo, !Item.tempos.contains(tempo) {
                    throw ValidationError("--tempo \(Item.number(tempo)): expected 10 to 400 (percent)")
                }
                if !Item.transpositions.contains(transpose) {
                    throw ValidationError("--transpose \(transpose): expected -12 to 12 (semitones)")
                }
                if !Item.passCounts.contains(passes) { throw ValidationError("--passes \(passes): expected 1 to 20") }
            }

            func run() throws {
                var plan = try plan(named: name, in: openPlans())
                let path = try LibraryTitles.path(score)
                var item = RehearsalPlan.Item(
                    piece: FileName.exists(path) ? ScoreIdentity.absolute(path) : path, line: parts.names[0],
                    from: from,
                    to: to,
                    tempo: tempo, transpose: transpose, passes: passes)
                // The engine checks the item now as it will when it runs: the score, the line, the measures.
                do { item = try item.checked(score: LibraryTitles.path(item.piece)) } catch { throw fail(error) }
                plan.items.append(item)
                if let notes { try plan.setNotes(notes, item: plan.items.count - 1) }
                try save(plan, replacing: true)
                FileOutput.write("'\(plan.name)', item \(plan.items.count): \(item.summary)\n")
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List the plans, with their items and last run.")

            func run() throws {
                let store = try openPlans()
                let plans: [RehearsalPlan]
                do { plans = try store.plans() } catch { throw fail(error) }
                guard !plans.isEmpty else {
                    FileOutput.write("No plans; make one with `choir plan new NAME`.\n")
                    return
                }
                var out = ""
                for plan in plans {
                    let runs: [RehearsalPlans.Run]
                    do { runs = try store.runs(of: plan.name) } catch { throw fail(error) }
                    out +=
                        "\(plan.name): \(plan.items.count) item\(plan.items.count == 1 ? "" : "s"), "
                        + (runs.last.map { "last run \(PracticeHistory.day($0.started)) (\(runs.count) run\(runs.count == 1 ? "" : "s"))" }
                            ?? "never run") + "\n"
                }
                FileOutput.write(out)
            }
        }

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Show a plan's items and the summaries of its runs.")

            @Argument(help: "The plan's name.")
            var name: String

            func run() throws {
                let store = try openPlans()
                let plan = try plan(named: name, in: store)
                var out = "\(plan.name)\n"
                if plan.items.isEmpty { out += "  no items yet\n" }
                for (index, item) in plan.items.enumerated() {
                    out += "  \(index + 1). \(item.summary)" + (item.notes.map { " — \($0)" } ?? "") + "\n"
                }
                let runs = try summaries(of: plan.name, in: store)
                out += runs.isEmpty ? "Never run.\n" : "\n" + runs
                FileOutput.write(out)
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Remove a plan, or one of its items; its runs' sessions stay in the history.")

            @Argument(help: "The plan's name.")
            var name: String

            @Option(help: "Remove only this item (its number in `choir plan show`).")
            var item: Int?

            func run() throws {
                let store = try openPlans()
                var plan = try plan(named: name, in: store)
                guard let item else {
                    do { try store.remove(named: plan.name) } catch { throw fail(error) }
                    FileOutput.write("Removed plan '\(plan.name)'.\n")
                    return
                }
                guard plan.items.indices.contains(item - 1) else {
                    throw usage(
                        "--item \(item): '\(plan.name)' has \(plan.items.count) item\(plan.items.count == 1 ? "" : "s"): expected 1 to \(plan.items.count)"
                    )
                }
                let removed = plan.items.remove(at: item - 1)
                try save(plan, replacing: true)
                FileOutput.write("Removed item \(item) of '\(plan.name)': \(removed.summary)\n")
            }
        }
    }
}

/// The plans in the history's database, or a one-line error.
func openPlans() throws -> RehearsalPlans {
    do { return try RehearsalPlans(path: PracticePlan.defaultHistory) } catch { throw fail(error) }
}

func save(_ plan: RehearsalPlan, replacing: Bool) throws {
    do { try openPlans().save(plan, replacing: replacing) } catch let problem as RehearsalPlans.Problem {
        throw usage(problem.description)
    } catch { throw fail(error) }
}

/// The summaries of the runs of the plan named `name`: all of them, or the `last`, each against the run before.
func summaries(of name: String, in store: RehearsalPlans, last: Bool = false) throws -> String {
    let runs: [RehearsalPlans.Run]
    let sessions: [Int64: PracticeHistory.Session]
    do {
        runs = try store.runs(of: name)
        sessions = Dictionary(uniqueKeysWithValues: try openHistory().sessions().map { ($0.id, $0) })
    } catch { throw fail(error) }
    let shown = last ? Array(runs.indices.suffix(1)) : Array(runs.indices)
    return shown.map { index in
        runs[index].summary(number: index + 1, sessions: sessions, previous: index > 0 ? (index, runs[index - 1]) : nil)
    }.joined(separator: "\n")
}

/// The plan named `name` in `store`, or a one-line error.
func plan(named name: String, in store: RehearsalPlans) throws -> RehearsalPlan {
    do { return try store.plan(named: name) } catch let problem as RehearsalPlans.Problem { throw usage(problem.description) } catch {
        throw fail(error)
    }
}
