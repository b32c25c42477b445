import ArgumentParser
import Glibc
import FoundationEssentials
import ChoirScore
import ChoirSession

/// choir: rehearse a line of a choral score against the other lines.
@main
struct Choir: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "choir",
        abstract: "Practise your line of a choral score, offline, from the terminal.",
        version: "choir \(version) (\(Engine.libraries))",
        subcommands: [Info.self, Notes.self, Pitch.self, Render.self, Play.self, Practice.self, Calibrate.self, History.self, Report.self])
}

/// Prints `message` on standard error as one line and exits with status 1.
func fail(_ message: CustomStringConvertible) -> ExitCode {
    var standardError = StandardError()
    print("choir: \(message)", to: &standardError)
    return ExitCode.failure
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) { FileOutput.write(string, to: 2) }
}
