import ArgumentParser
import ChoirLibrary
import ChoirSession
import ChoirTerminal
import Glibc

extension Choir.Plan {
    /// `choir plan run`: the engine's run of a plan (``PlanRun``) drawn: each item's session on the screen, its
    /// report after it, the run's summary last.
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a plan's items in order, each a practice session with a count-in, then summarise the whole plan.")

        @OptionGroup var named: PlanName

        @OptionGroup var singer: SingerArguments

        @OptionGroup var soundFont: SoundFontOption

        @OptionGroup var detail: ReportDetail

        func run() async throws {
            let store = try openPlans()
            let plan = try failing { try store.plan(named: named.name) }
            guard !plan.items.isEmpty else { throw usage("'\(plan.name)' has no items: expected some, added with `choir plan add`") }
            let running = try failing {
                // Each item's piece from the library, the options' devices, its own mix file.
                let sessions = try PlanRun.sessions(of: plan, inputs: singer.input, history: store.path) { practice, input, number in
                    practice.playback.soundFont = soundFont.soundfont
                    singer.apply(to: &practice, input: input, output: singer.output.map { PlanRun.output($0, item: number) })
                }
                return try PlanRun(plan, store: store, sessions: sessions)
            }
            Choir.Practice.warnOfLatency(running.sessions[0])
            let signals = SignalWatcher()
            let screen = SessionScreen()
            var opened = false
            var ended: Int32?
            var failed: ExitCode?
            let events = running.events()
            running.start()
            do {
                defer { screen.close() }
                for await event in events {
                    switch event {
                    case .began, .itemEnded: break
                    case .itemFailed(let index, let error):
                        FileOutput.write("\(label(plan, index)): \(plan.items[index].summary)\n")
                        throw Choir.Practice.failure(opening: error)
                    case .itemBegan(let step):
                        opened = true
                        FileOutput.write("\(label(plan, step.index)): \(step.item.summary)\n")
                        Choir.Practice.warnOfHistory(step.session)
                        let outcome = try await failingAsync {
                            try await screen.run(step.session, context: label(plan, step.index), signals: signals)
                        }
                        ended = signals.received
                        screen.close()
                        failed = Choir.Practice.finish(
                            outcome, printing: ended != SIGHUP, known: step.session.historyFailure, detail: detail)
                    case .ended(let outcome):
                        if let failure = outcome.ownFailure { throw fail(failure) }
                    }
                }
            }
            if opened && ended != SIGHUP { FileOutput.write("\n" + (try failing { try store.summaries(of: plan.name, last: true) })) }
            if let failed { throw failed }
            if let ended { throw ExitCode(128 + ended) }
        }

        private func label(_ plan: RehearsalPlan, _ index: Int) -> String { "\(plan.name): item \(index + 1) of \(plan.items.count)" }
    }
}
