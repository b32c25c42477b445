import ArgumentParser
import ChoirPractice
import ChoirSession
import ChoirTerminal

/// How every command that runs practice sessions (practice, its drill, a plan's run) opens them and says how they
/// ended.
extension Choir.Practice {
    /// Builds a session (or drill) with `make`, first naming a stored latency table that cannot be used.
    static func open<T>(_ make: (PracticePlan) throws(SessionError) -> T, _ plan: PracticePlan) throws -> T {
        warnOfLatency(plan)
        let made: T
        do { made = try make(plan) } catch { throw failure(opening: error) }
        if let session = made as? PracticeSession { warnOfHistory(session) }
        return made
    }

    /// Names a stored latency table that cannot be used, when `plan` would have used it.
    static func warnOfLatency(_ plan: PracticePlan) {
        if let problem = plan.latencyProblem() { warn(problem) }
    }

    /// Says that `session` is not kept in the history, if it is not.
    static func warnOfHistory(_ session: PracticeSession) {
        if let failure = session.historyFailure { warn("\(failure); practising without history") }
    }

    /// Why a session could not be opened, as choir exits with it: a device that cannot be opened exits with
    /// ``ExitStatus/deviceUnavailable``.
    static func failure(opening error: SessionError) -> ExitCode {
        guard error.kind == .deviceUnavailable else { return fail(error) }
        return fail("\(error); to judge a recording instead, use --input take.wav", .deviceUnavailable)
    }

    /// Says how a session ended and prints its report (unless the terminal has gone); gives the exit status of
    /// the failure that ended it, if one did, for once the report's files are written. A history failure other
    /// than `known` (said at the start) is named.
    static func finish(_ outcome: PracticeSession.Outcome, printing: Bool, known: String?, detail: ReportDetail)
        -> ExitCode?
    {
        for notice in outcome.notices(known: known, arguments: Array(CommandLine.arguments.dropFirst())) { warn(notice) }
        if printing {
            FileOutput.write(detail.render(outcome.report))
        }
        return outcome.ending.failure.map { ExitCode(ExitStatus(of: $0)) }
    }
}
