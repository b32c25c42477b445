import ArgumentParser
import ChoirLibrary
import ChoirSession
import FoundationEssentials

extension Choir.Plan {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write a plan as a TOML file to edit or share.")

        @Argument(help: "The plan's name.")
        var name: String

        @Argument(help: "The file to write; standard output when not given.")
        var file: String?

        func run() throws {
            let plan = try plan(named: name, in: openPlans())
            guard let file else { return FileOutput.write(plan.toml) }
            do { try ReportFile.write(plan.toml, to: file) } catch { throw fail(error) }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Read a plan from a TOML file (as `choir plan export` writes it).")

        @Argument(help: "The TOML file.")
        var file: String

        @Flag(help: "Replace the plan of the same name.")
        var replace = false

        func run() throws {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw fail("\(file): cannot be read: expected a TOML file", ExitStatus.noInput)
            }
            guard let text = String(validating: data, as: UTF8.self) else {
                throw fail("\(file): is not UTF-8 text: expected a TOML file", ExitStatus.dataError)
            }
            let plan: RehearsalPlan
            do { plan = try RehearsalPlan(toml: text, file: file) } catch { throw fail("\(error)", ExitStatus.dataError) }
            for (index, item) in plan.items.enumerated() {
                do { _ = try item.playback(score: LibraryTitles.path(item.piece)).resolve() } catch {
                    throw fail("\(file): item \(index + 1): \(error)", ExitStatus.dataError)
                }
            }
            try save(plan, replacing: replace)
            FileOutput.write("Plan '\(plan.name)': \(plan.items.count) item\(plan.items.count == 1 ? "" : "s") from \(file)\n")
        }
    }
}
