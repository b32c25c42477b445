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
        discussion: """
            Exit status (sysexits): 0 done; 1 bad input (a score, take or file, named with what was expected); \
            64 bad usage (options); 69 an audio device cannot be opened (use files instead); 74 an audio device \
            failed during the session (its report is printed first); 128+N ended by signal N.
            """,
        version: "choir \(version) (\(Engine.libraries))",
        subcommands: [Info.self, Notes.self, Pitch.self, Render.self, Play.self, Practice.self, Calibrate.self, History.self, Report.self])
}

/// The exit statuses beyond 0 and 1, from sysexits.h, so that scripts can tell them apart.
enum ExitStatus {
    /// An audio device cannot be opened: scripts fall back to files.
    static let deviceUnavailable = ExitCode(69)
    /// An audio device failed during the session (EX_IOERR).
    static let deviceFailed = ExitCode(74)
}

/// Prints `message` as one line and exits with ``ExitStatus/deviceUnavailable``.
func unavailable(_ message: String) -> ExitCode {
    _ = fail(message)
    return ExitStatus.deviceUnavailable
}

/// Prints `message` as one line and exits with ``ExitStatus/deviceFailed``.
func deviceFailed(_ message: CustomStringConvertible) -> ExitCode {
    _ = fail(message)
    return ExitStatus.deviceFailed
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
