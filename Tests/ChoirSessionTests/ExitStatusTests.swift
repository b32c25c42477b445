import ChoirModel
import ChoirScan
import Testing

@testable import ChoirLibrary
@testable import ChoirPractice
@testable import ChoirScore
@testable import ChoirSession

/// The exit status of each kind of failure, as `choir --help` lists them (sysexits.h), so that a script can tell a
/// slip of the command line from a bad file, a missing one, a busy history or a device that cannot be opened.
struct ExitStatusTests {
    @Test func eachKindOfFailureHasItsStatus() {
        let session: [(SessionError.Kind, Int32)] = [
            (.usage, 64), (.missing, 66), (.input, 65), (.deviceUnavailable, 69), (.audio, 74), (.output, 73), (.calibration, 75),
        ]
        for (kind, status) in session { #expect(ExitStatus(of: SessionError(kind, "x")).rawValue == status, "\(kind)") }
        let history: [(PracticeHistory.Failure.Kind, Int32)] = [
            (.locked, 75), (.corrupt, 65), (.noSuchSession, 64), (.current, 64), (.missing, 66), (.unusable, 74),
        ]
        for (kind, status) in history {
            #expect(ExitStatus(of: PracticeHistory.Failure(path: "h", kind: kind, reason: "x")).rawValue == status, "\(kind)")
        }
        let model: [(ModelError.Kind, Int32)] = [
            (.configuration, 78), (.unauthorized, 77), (.payment, 77), (.notFound, 64), (.unavailable, 75), (.unreachable, 69),
            (.protocolError, 76),
        ]
        for (kind, status) in model {
            #expect(ExitStatus(of: ModelError(kind, "x")).rawValue == status, "\(kind)")
            // A scan fails as its model does.
            #expect(ExitStatus(of: ScanError(.model(kind), "x")).rawValue == status, "scan \(kind)")
        }
        let scan: [(ScanError.Kind, Int32)] = [(.missing, 66), (.input, 65), (.reply, 65), (.unavailable, 69), (.output, 73)]
        for (kind, status) in scan { #expect(ExitStatus(of: ScanError(kind, "x")).rawValue == status, "\(kind)") }
    }

    /// A file that cannot be read is missing (66); one read and found wanting is bad data (65); a name that picks no
    /// plan, title or measure is a slip of the command line (64); anything else is a plain failure (1).
    @Test func filesNamesAndTheRest() {
        #expect(ExitStatus(of: ScoreError(file: "s.xml", message: "x", unreadable: true)) == .noInput)
        #expect(ExitStatus(of: ScoreError(file: "s.xml", line: 3, column: 1, message: "x")) == .dataError)
        #expect(ExitStatus(of: RehearsalPlan.FileError("p.toml", unreadable: true)) == .noInput)
        #expect(ExitStatus(of: RehearsalPlan.FileError("p.toml")) == .dataError)
        #expect(ExitStatus(of: RehearsalPlans.Problem(description: "x")) == .usage)
        #expect(ExitStatus(of: Library.Unclear(description: "x")) == .usage)
        #expect(ExitStatus(of: PracticeMark.Problem(description: "x")) == .usage)
        #expect(ExitStatus(of: LineSelector.Failure(description: "x")) == .usage)
        struct Other: Error {}
        #expect(ExitStatus(of: Other()) == .failure)
        #expect(ExitStatus.failure.rawValue == 1)
    }
}
