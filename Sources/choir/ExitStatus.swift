import ArgumentParser
import ChoirLibrary
import ChoirModel
import ChoirPractice
import ChoirScan
import ChoirScore
import ChoirSession
import ChoirTerminal

/// The exit statuses of sysexits.h, so that scripts can tell failures apart; what each means is said once, where
/// the singer reads it: `choir --help` (``Choir/configuration``).
enum ExitStatus {
    static let usage = ExitCode(64)  // EX_USAGE
    static let dataError = ExitCode(65)  // EX_DATAERR
    static let noInput = ExitCode(66)  // EX_NOINPUT
    static let deviceUnavailable = ExitCode(69)  // EX_UNAVAILABLE
    static let cannotCreate = ExitCode(73)  // EX_CANTCREAT
    static let ioError = ExitCode(74)  // EX_IOERR
    static let tryAgain = ExitCode(75)  // EX_TEMPFAIL
    static let protocolError = ExitCode(76)  // EX_PROTOCOL
    static let noPermission = ExitCode(77)  // EX_NOPERM
    static let configuration = ExitCode(78)  // EX_CONFIG

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
        case is RehearsalPlans.Problem, is Library.Unclear, is PracticeMark.Problem: usage
        case let error as RehearsalPlan.FileError: error.unreadable ? noInput : dataError
        case let error as PracticeHistory.Failure:
            switch error.kind {
            case .locked: tryAgain
            case .corrupt: dataError
            case .noSuchSession, .current: usage
            case .missing: noInput
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
    warn(error)
    return ExitStatus.of(error)
}

/// What `work` gives; an error it throws is said in one line (``fail(_:)``), to exit with its kind's status.
func failing<T>(_ work: () throws -> T) throws -> T {
    do { return try work() } catch let exit as ExitCode { throw exit } catch { throw fail(error) }
}

/// What `work` gives, as ``failing(_:)`` does, for work that awaits.
func failingAsync<T>(_ work: () async throws -> T) async throws -> T {
    do { return try await work() } catch let exit as ExitCode { throw exit } catch { throw fail(error) }
}

/// Prints `message` on standard error as one line and exits with `status`.
func fail(_ message: String, _ status: ExitCode) -> ExitCode {
    warn(message)
    return status
}

/// Prints `message` as one line and exits with ``ExitStatus/usage``: the command line asks for what cannot be.
func usage(_ message: String) -> ExitCode { fail(message, ExitStatus.usage) }

/// Prints "choir: `message`" on standard error, as one line.
func warn(_ message: Any) {
    FileOutput.write("choir: \(message)\n", to: 2)
}
