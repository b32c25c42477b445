import ArgumentParser
import ChoirBase
import ChoirFiles
import ChoirLibrary
import ChoirPractice
import ChoirScore
import ChoirSession
import ChoirTerminal
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

            @OptionGroup var plan: PlanName

            func run() throws {
                let name = plan.name
                try failing { try RehearsalPlans.check(name: name) }
                try failing { try openPlans().save(RehearsalPlan(name: name), replacing: false) }
                FileOutput.write("Plan '\(name)': no items yet; add them with `choir plan add \(name.shellQuoted) SCORE --part LINE`.\n")
            }
        }

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Add an item to a plan: a piece and your line, with its measures, tempo, key and passes.")

            @OptionGroup var plan: PlanName

            @OptionGroup var score: ScoreArgument

            /// Your line (one per item).
            @OptionGroup var parts: Parts

            @OptionGroup var range: MeasureRange

            @Option(help: "The tempo, in percent of the score's.")
            var tempo: Double?

            @OptionGroup var transposition: Transposition

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
                if !Item.passCounts.contains(passes) { throw ValidationError("--passes \(passes): expected 1 to 20") }
            }

            func run() throws {
                let item = RehearsalPlan.Item(
                    piece: score.score, line: parts.names[0], from: range.from, to: range.to, tempo: tempo,
                    transpose: transposition.transpose, passes: passes)
                let added = try failing { try openPlans().add(item, to: plan.name, notes: notes) }
                FileOutput.write("'\(added.name)', item \(added.items.count): \(added.items.last!.summary)\n")
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List the plans, with their items and last run.")

            func run() throws { FileOutput.write(try failing { try openPlans().listing() }) }
        }

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Show a plan's items and the summaries of its runs.")

            @OptionGroup var plan: PlanName

            func run() throws { FileOutput.write(try failing { try openPlans().shown(named: plan.name) }) }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Remove a plan, or one of its items; its runs' sessions stay in the history.")

            @OptionGroup var plan: PlanName

            @Option(help: "Remove only this item (its number in `choir plan show`).")
            var item: Int?

            func run() throws {
                let store = try openPlans()
                guard let item else {
                    let named = try failing { try store.plan(named: plan.name) }
                    try failing { try store.remove(named: named.name) }
                    return FileOutput.write("Removed plan '\(named.name)'.\n")
                }
                let (named, removed) = try failing { try store.remove(item: item, of: plan.name) }
                FileOutput.write("Removed item \(item) of '\(named.name)': \(removed.summary)\n")
            }
        }
    }
}

/// The plan a `choir plan` command is about, by name.
struct PlanName: ParsableArguments {
    @Argument(help: "The plan's name.")
    var name: String
}

/// The plans in the history's database, or a one-line error.
func openPlans() throws -> RehearsalPlans { try failing { try RehearsalPlans(path: PracticePlan.defaultHistory) } }
