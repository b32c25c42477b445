import ArgumentParser
import ChoirBase
import ChoirFiles
import ChoirPractice
import ChoirScore
import ChoirSession
import ChoirTerminal
import Dispatch
import FoundationEssentials
import Glibc

/// choir: rehearse a line of a choral score against the other lines.
@main
struct Choir: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "choir",
        abstract: "Practise your line of a choral score, offline, from the terminal.",
        discussion: "Exit status (sysexits.h):\n" + ExitStatus.table,
        version: "choir \(version) (\(Engine.libraries))",
        subcommands: [
            Info.self, Notes.self, Pitch.self, Render.self, Play.self, View.self, Practice.self, Calibrate.self, History.self, Report.self,
            LibraryCommand.self, Mark.self, Coaching.self, Plan.self, ScanCommand.self, Studio.self,
        ])

    /// Runs the command line, first naming a command that is not one (the parser would call it an unexpected
    /// argument) with the nearest command.
    static func main() {
        // On the main thread, before any other starts (an asynchronous main starts on another).
        SignalWatcher.install()
        // Whichever command finds the history damaged says so, once, as it happens.
        DamagedHistory.whenSetAside { damaged in
            warn("\(damaged); to copy back every session still readable: choir history --recover \(damaged.movedTo.shellQuoted)")
        }
        // A choir killed while writing left its temporary file where it wrote: the ledger beside the history says where.
        PracticePlan.keepLedgerOfTemporaryFiles()
        // The arguments' bytes as they are: a file name need not be UTF-8.
        let arguments = Array(FileName.arguments.dropFirst())
        if let unknown = unknownCommand(in: arguments) { Glibc.exit(usage(unknown).rawValue) }
        // The commands that follow a session's events await them; this thread waits for the command, which exits.
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            await main(arguments)
            finished.signal()
        }
        finished.wait()
    }

    /// "unknown command 'histroy' (did you mean 'history'?): expected …": a word where a subcommand goes that names
    /// none, or nil.
    static func unknownCommand(in arguments: [String]) -> String? {
        NearestName.unknownCommand(in: arguments, of: command(Choir.self))
    }

    /// `type` and its subcommands, by the names they answer to.
    static func command(_ type: any ParsableCommand.Type) -> NearestName.Command {
        NearestName.Command(
            type._commandName, aliases: type.configuration.aliases, subcommands: type.configuration.subcommands.map(command))
    }
}
