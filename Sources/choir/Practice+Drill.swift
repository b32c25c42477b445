import ChoirSession
import Glibc

extension Choir.Practice {
    /// `--drill`: the engine's drill (``DrillSession``) drawn: each pass's session on the screen, a line for each
    /// pass sung; all of them are one session in the history. Returns the signal that ended it, if one did.
    func runDrill(_ screen: SessionScreen, _ signals: SignalWatcher) async throws -> Int32? {
        guard !isTake else { throw usage("--drill needs a live microphone: expected --input DEVICE, not a take") }
        let drill = try Self.open({ plan throws(SessionError) in try DrillSession(plan, startPercent: drillStart) }, plan())
        var standardError = StandardError()
        let known = drill.historyFailure
        if let known { print("choir: \(known); practising without history", to: &standardError) }
        let events = drill.events()
        drill.start()
        for await event in events {
            switch event {
            case .began: break
            case .passBegan(let pass):
                guard let passage = pass.passage else {
                    FileOutput.write(
                        "Drill: no session of \(drill.part) in the history to learn from; a first pass finds the weakest measures.\n")
                    let outcome = try await screen.run(pass.session, signals: signals)
                    let printing = signals.received != SIGHUP
                    if let failed = Self.finish(outcome, printing: printing, known: known, verbose: singer.verbose, allNotes: allNotes) {
                        throw failed
                    }
                    continue
                }
                let label = "drill \(passage.span), pass \(pass.number) at \(Int(pass.tempo))%"
                _ = try await screen.run(pass.session, context: label, signals: signals)
            case .passages(let passages):
                FileOutput.write(
                    passages.isEmpty
                        ? "Drill: every measure was right; nothing to drill.\n"
                        : "Drill: " + passages.map(\.span).joined(separator: ", ") + "\n")
            case .passEnded(let end):
                guard let passage = end.pass.passage, let next = end.next else { continue }
                let report = end.outcome.report
                let nextText =
                    switch next {
                    case .again: "again"
                    case .faster: "next at \(Int(end.nextTempo ?? 100))%"
                    case .done: "done"
                    case .movedOn: "moving on after \(end.pass.number) passes"
                    }
                FileOutput.write(
                    "\(passage.span) at \(Int(end.pass.tempo))%: \(Int(report.accuracy.rounded()))% (\(report.correct) of \(report.results.count) notes) → \(nextText)\n"
                )
            case .ended(let outcome):
                if let failure = outcome.ending.failure {
                    print("choir: \(failure); the session ends here", to: &standardError)
                    throw ExitStatus.of(failure)
                }
                return outcome.ending == .completed ? nil : signals.received
            }
        }
        return nil
    }
}
