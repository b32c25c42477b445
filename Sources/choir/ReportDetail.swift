import ArgumentParser
import ChoirPractice
import ChoirTerminal

/// How much a report printed on the terminal says: for every command that prints one (practice, a plan's run, report).
struct ReportDetail: ParsableArguments {
    @Flag(help: "List every note with its verdict in the report, not only the notes to work on.")
    var allNotes = false

    @Flag(help: "Say everything in the report: every interval against the chord, not just those sung furthest off.")
    var verbose = false

    /// `report` as the terminal shows it.
    func render(_ report: SessionReport) -> String {
        TerminalReport.render(report, colour: FileOutput.colour, verbose: verbose, width: FileOutput.width, allNotes: allNotes)
    }
}
