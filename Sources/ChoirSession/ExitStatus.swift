import ChoirLibrary
import ChoirModel
import ChoirPractice
import ChoirScan
import ChoirScore

/// The exit statuses of sysexits.h, so that scripts can tell failures apart: the kind of failure an engine error is,
/// for every front end that exits with one. What each means is said once, here (``meaning``), and `choir --help` lists
/// it (``table``).
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

    /// What the status tells a script, in words a singer reads.
    public var meaning: String {
        switch self {
        case .failure: "any other failure"
        case .usage:
            "an option is out of range, conflicts with another, or names what the score (or the model's server) does not have"
        case .dataError:
            "a score, take, history or page is not usable, or a model's MusicXML does not read (said with what was expected)"
        case .noInput: "an input file is missing or cannot be read"
        case .deviceUnavailable:
            "an audio device cannot be opened (use files instead), the model's server cannot be reached, or pdftoppm is missing"
        case .cannotCreate: "an output file cannot be written"
        case .ioError: "an audio device failed during the session (its report is printed first), or the history could not be written"
        case .tryAgain:
            "try again: calibration did not hear its sweeps, another program holds the history, or the model's server is busy, failing or slow"
        case .protocolError: "the model's server refused the request or answered with what is not a chat completion"
        case .noPermission: "the model's server refused the key (401, 403) or wants credit (402)"
        case .configuration:
            "no key for the model's server, or its configuration file is unsafe (not mode 0600) or unreadable"
        }
    }

    /// Every status with its meaning, as `choir --help` lists them, from 0 (done) to 128+N (ended by signal N): the
    /// code, then its meaning wrapped at 68 columns under itself.
    public static var table: String {
        let rows = [("0", "done")] + allCases.map { (String($0.rawValue), $0.meaning) } + [("128+N", "ended by signal N")]
        return rows.map { code, meaning in
            var lines = [String]()
            var line = "  " + code + String(repeating: " ", count: 7 - code.count)
            let indent = line.count
            for word in meaning.split(separator: " ") {
                if line.count > indent && line.count + 1 + word.count > 68 {
                    lines.append(line)
                    line = String(repeating: " ", count: indent)
                }
                line += (line.count == indent ? "" : " ") + word
            }
            return (lines + [line]).joined(separator: "\n")
        }.joined(separator: "\n")
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
