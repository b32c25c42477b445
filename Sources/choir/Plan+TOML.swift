import ArgumentParser
import ChoirBase
import ChoirLibrary
import ChoirSession
import ChoirTerminal
import FoundationEssentials

extension Choir.Plan {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write a plan as a TOML file to edit or share.")

        @OptionGroup var named: PlanName

        @Argument(help: "The file to write; standard output when not given.")
        var file: String?

        func run() throws {
            let plan = try failing { try openPlans().plan(named: named.name) }
            guard let file else { return FileOutput.write(plan.toml) }
            try failing { try ReportFile.write(plan.toml, to: file) }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Read a plan from a TOML file (as `choir plan export` writes it).")

        @Argument(help: "The TOML file.")
        var file: String

        @Flag(help: "Replace the plan of the same name.")
        var replace = false

        func run() throws {
            let plan = try failing { () throws in
                let plan = try RehearsalPlan(contentsOf: file)
                try plan.check(file: file, history: PracticePlan.defaultHistory)
                return plan
            }
            try failing { try openPlans().save(plan, replacing: replace) }
            FileOutput.write("Plan '\(plan.name)': \(String(count: plan.items.count, "item")) from \(file)\n")
        }
    }
}
