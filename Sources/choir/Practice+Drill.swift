import ChoirSession
import ChoirTerminal
import Glibc

extension Choir.Practice {
    /// `--drill`: the engine's drill (``DrillSession``) drawn: each pass's session on the screen, a line for each
    /// pass sung; all of them are one session in the history. Returns the signal that ended it, if one did.
    func runDrill(_ screen: SessionScreen, _ signals: SignalWatcher) async throws -> Int32? {
        let drill = try Self.open({ plan throws(SessionError) in try DrillSession(plan, startPercent: drillStart) }, plan())
        let known = drill.historyFailure
        if let known { warn("\(known); practising without history") }
        let events = drill.events()
        drill.start()
        for await event in events {
            switch event {
            case .began: break
            case .passBegan(let pass):
                guard let label = pass.label else {
                    FileOutput.write(drill.firstPassNotice + "\n")
                    let outcome = try await failingAsync { try await screen.run(pass.session, signals: signals) }
                    let printing = signals.received != SIGHUP
                    if let failed = Self.finish(outcome, printing: printing, known: known, detail: detail) {
                        throw failed
                    }
                    continue
                }
                _ = try await failingAsync { try await screen.run(pass.session, context: label, signals: signals) }
            case .passages(let passages): FileOutput.write(DrillSession.notice(passages) + "\n")
            case .passEnded(let end): if let summary = end.summary { FileOutput.write(summary + "\n") }
            case .ended(let outcome):
                if let failure = outcome.ending.failure { throw fail("\(failure); the session ends here", ExitStatus(of: failure)) }
                return outcome.ending == .completed ? nil : signals.received
            }
        }
        return nil
    }
}
