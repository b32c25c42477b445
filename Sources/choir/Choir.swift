import ArgumentParser
import ChoirBase
import ChoirFiles
import ChoirModel
import ChoirPractice
import ChoirScan
import ChoirScore
import ChoirSession
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
        discussion: """
            Exit status (sysexits.h):
              0      done
              64     an option is out of range, conflicts with another, or names
                     what the score (or the model's server) does not have
              65     a score, take, history or page is not usable, or a model's
                     MusicXML does not read (said with what was expected)
              66     an input file is missing or cannot be read
              69     an audio device cannot be opened (use files instead), the
                     model's server cannot be reached, or pdftoppm is missing
              73     an output file cannot be written
              74     an audio device failed during the session (its report is
                     printed first), or the history could not be written
              75     try again: calibration did not hear its sweeps, another
                     program holds the history, or the model's server is busy,
                     failing or slow
              76     the model's server refused the request or answered with
                     what is not a chat completion
              77     the model's server refused the key (401, 403) or wants
                     credit (402)
              78     no key for the model's server, or its configuration file
                     is unsafe (not mode 0600) or unreadable
              128+N  ended by signal N
            """,
        version: "choir \(version) (\(Engine.libraries))",
        subcommands: [
            Info.self, Notes.self, Pitch.self, Render.self, Play.self, View.self, Practice.self, Calibrate.self, History.self, Report.self,
            LibraryCommand.self, Mark.self, Coaching.self, Plan.self, ScanCommand.self,
        ])

    /// Runs the command line, first naming a command that is not one (the parser would call it an unexpected
    /// argument) with the nearest command.
    static func main() {
        // On the main thread, before any other starts (an asynchronous main starts on another).
        SignalWatcher.install()
        // Whichever command finds the history damaged says so, once, as it happens.
        DamagedHistory.whenSetAside { damaged in
            var standardError = StandardError()
            print(
                "choir: \(damaged); to copy back every session still readable: choir history --recover \(damaged.movedTo.shellQuoted)",
                to: &standardError)
        }
        // A choir killed while writing left its temporary file where it wrote: the ledger beside the history says where.
        PracticePlan.keepLedgerOfTemporaryFiles()
        // The arguments' bytes as they are: a file name need not be UTF-8.
        let arguments = Array(FileName.arguments.dropFirst())
        if let unknown = unknownCommand(in: arguments) {
            complain(unknown)
            Glibc.exit(ExitStatus.usage.rawValue)
        }
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
        var subcommands = configuration.subcommands
        var words = ["choir"]
        for argument in arguments {
            guard !subcommands.isEmpty, !argument.hasPrefix("-"), argument != "help" else { return nil }
            var names: [String] = []
            var found: [any ParsableCommand.Type]?
            for subcommand in subcommands {
                let name: String = subcommand._commandName
                let aliases: [String] = subcommand.configuration.aliases
                names.append(name)
                if name == argument || aliases.contains(argument) { found = subcommand.configuration.subcommands }
            }
            guard let found else {
                return NearestName.unknown(
                    "command", argument, among: names,
                    expected: "`\(words.joined(separator: " ")) COMMAND`, COMMAND one of " + names.joined(separator: ", "))
            }
            subcommands = found
            words.append(argument)
        }
        return nil
    }
}

/// The exit statuses of sysexits.h, so that scripts can tell failures apart.
enum ExitStatus {
    /// An option is out of range, conflicts with another, or names what the score does not have (EX_USAGE).
    static let usage = ExitCode(64)
    /// A score, take or history was read and is not usable (EX_DATAERR).
    static let dataError = ExitCode(65)
    /// An input file is missing or cannot be read (EX_NOINPUT).
    static let noInput = ExitCode(66)
    /// An audio device cannot be opened (scripts fall back to files), the model's server cannot be reached, or a tool
    /// choir runs is missing (EX_UNAVAILABLE).
    static let deviceUnavailable = ExitCode(69)
    /// An output file cannot be written (EX_CANTCREAT).
    static let cannotCreate = ExitCode(73)
    /// An audio device failed during the session, or the history could not be written (EX_IOERR).
    static let ioError = ExitCode(74)
    /// Worth trying again: calibration did not hear its sweeps, another program holds the history, or the model's
    /// server is busy, failing or too slow (EX_TEMPFAIL).
    static let tryAgain = ExitCode(75)
    /// The model's server refused the request, or answered with what is not a completion (EX_PROTOCOL).
    static let protocolError = ExitCode(76)
    /// The model's server refused the key or wants credit (EX_NOPERM).
    static let noPermission = ExitCode(77)
    /// No key where one is needed, or a configuration file that is unsafe or unreadable (EX_CONFIG).
    static let configuration = ExitCode(78)

    /// The status that tells scripts what kind of failure `error` is.
    static func of(_ error: any Error) -> ExitCode {
        switch error {
        case let error as SessionError:
            switch error.kind {
            case .usage: usage
            case .missing: noInput
            case .input: dataError
            case .deviceUnavailable: deviceUnavailable
            case .audio: ioError
            case .output: cannotCreate
            case .calibration: tryAgain
            }
        case let error as ScoreError: error.unreadable ? noInput : dataError
        case let error as ModelError: of(error.kind)
        case let error as ScanError:
            switch error.kind {
            case .missing: noInput
            case .input, .reply: dataError
            case .unavailable: deviceUnavailable
            case .output: cannotCreate
            case .model(let kind): of(kind)
            }
        case let error as PracticeHistory.Failure:
            switch error.kind {
            case .locked: tryAgain
            case .corrupt: dataError
            case .noSuchSession: usage
            case .unusable: ioError
            }
        default: ExitCode.failure
        }
    }

    /// The status of a model's server failing so.
    static func of(_ kind: ModelError.Kind) -> ExitCode {
        switch kind {
        case .configuration: configuration
        case .unauthorized, .payment: noPermission
        case .notFound: usage
        case .unavailable: tryAgain
        case .unreachable: deviceUnavailable
        case .protocolError: protocolError
        }
    }
}

/// Prints `error` on standard error as one line and exits with the status of its kind.
func fail(_ error: any Error) -> ExitCode {
    complain(error)
    return ExitStatus.of(error)
}

/// Prints `message` on standard error as one line and exits with `status`.
func fail(_ message: String, _ status: ExitCode) -> ExitCode {
    complain(message)
    return status
}

/// Prints `message` as one line and exits with ``ExitStatus/usage``: the command line asks for what cannot be.
func usage(_ message: String) -> ExitCode { fail(message, ExitStatus.usage) }

private func complain(_ message: Any) {
    var standardError = StandardError()
    print("choir: \(message)", to: &standardError)
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) { FileOutput.write(string, to: 2) }
}
