import ArgumentParser
import ChoirPractice
import ChoirSession
import ChoirTerminal

/// The files a report is written to besides the terminal: for every command that makes one (practice, report).
struct ReportFiles: ParsableArguments {
    @Option(name: [.customLong("json"), .customLong("report")], help: "Also write the report as JSON to this file.")
    var json: String?

    @Option(help: "Also write the report as a self-contained HTML page to this file.")
    var html: String?

    var isEmpty: Bool { json == nil && html == nil }

    /// Writes `report` to the files named, or exits with a one-line error.
    func write(_ report: SessionReport) throws { try failing { try ReportFile.write(report, json: json, html: html) } }
}

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
