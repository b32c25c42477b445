import ChoirLibrary
import ChoirModel
import ChoirPractice
import ChoirScan
import ChoirScore

/// The exit statuses of sysexits.h, so that scripts can tell failures apart: the kind of failure an engine error is,
/// for every front end that exits with one. What each means is said once, where the singer reads it: `choir --help`.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Any other failure (EXIT_FAILURE).
    case failure = 1
    case usage = 64  // EX_USAGE
    case dataError = 65  // EX_DATAERR
    case noInput = 66  // EX_NOINPUT
    case deviceUnavailable = 69  // EX_UNAVAILABLE
    case cannotCreate = 73  // EX_CANTCREAT
    case ioError = 74  // EX_IOERR
    case tryAgain = 75  // EX_TEMPFAIL
    case protocolError = 76  // EX_PROTOCOL
    case noPermission = 77  // EX_NOPERM
    case configuration = 78  // EX_CONFIG

    /// The status that tells scripts what kind of failure `error` is.
    public init(of error: any Error) {
        switch error {
        case let error as SessionError:
            switch error.kind {
            case .usage: self = .usage
            case .missing: self = .noInput
            case .input: self = .dataError
            case .deviceUnavailable: self = .deviceUnavailable
            case .audio: self = .ioError
            case .output: self = .cannotCreate
            case .calibration: self = .tryAgain
            }
        case let error as ScoreError: self = error.unreadable ? .noInput : .dataError
        case let error as ModelError: self.init(of: error.kind)
        case let error as ScanError:
            switch error.kind {
            case .missing: self = .noInput
            case .input, .reply: self = .dataError
            case .unavailable: self = .deviceUnavailable
            case .output: self = .cannotCreate
            case .model(let kind): self.init(of: kind)
            }
        case is RehearsalPlans.Problem, is Library.Unclear, is PracticeMark.Problem, is LineSelector.Failure: self = .usage
        case let error as RehearsalPlan.FileError: self = error.unreadable ? .noInput : .dataError
        case let error as PracticeHistory.Failure:
            switch error.kind {
            case .locked: self = .tryAgain
            case .corrupt: self = .dataError
            case .noSuchSession, .current: self = .usage
            case .missing: self = .noInput
            case .unusable: self = .ioError
            }
        default: self = .failure
        }
    }

    /// The status of a model's server failing so.
    public init(of kind: ModelError.Kind) {
        switch kind {
        case .configuration: self = .configuration
        case .unauthorized, .payment: self = .noPermission
        case .notFound: self = .usage
        case .unavailable: self = .tryAgain
        case .unreachable: self = .deviceUnavailable
        case .protocolError: self = .protocolError
        }
    }
}
