import ArgumentParser
import ChoirLibrary
import ChoirSession
import Glibc

extension Choir.Plan {
    /// `choir plan run`: the engine's run of a plan (``PlanRun``) drawn: each item's session on the screen, its
    /// report after it, the run's summary last.
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a plan's items in order, each a practice session with a count-in, then summarise the whole plan.")

        @Argument(help: "The plan's name.")
        var name: String

        @OptionGroup var singer: SingerArguments

        @Option(help: "The SoundFont (.sf2); else $CHOIR_SOUNDFONT, else the system's GM SoundFont.")
        var soundfont: String?

        func run() async throws {
            let store = try openPlans()
            let plan = try plan(named: name, in: store)
            guard !plan.items.isEmpty else { throw usage("'\(plan.name)' has no items: expected some, added with `choir plan add`") }
            let running: PlanRun
            do { running = try PlanRun(plan, store: store, sessions: try sessions(of: plan)) } catch let error as SessionError {
                throw fail(error)
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
                        let outcome = try await screen.run(step.session, context: label(plan, step.index), signals: signals)
                        ended = signals.received
                        screen.close()
                        failed = Choir.Practice.finish(
                            outcome, printing: ended != SIGHUP, known: step.session.historyFailure, verbose: singer.verbose)
                    case .ended(let outcome):
                        // A failure of the run's own (its store), not of an item's session, which has been said.
                        if case .failed(let error) = outcome.ending, outcome.items.last?.ending != outcome.ending { throw fail(error) }
                    }
                }
            }
            if opened && ended != SIGHUP { FileOutput.write("\n" + (try summaries(of: plan.name, in: store, last: true))) }
            if let failed { throw failed }
            if let ended { throw ExitCode(128 + ended) }
        }

        /// How item `index` is sung: its piece from the library, the options' devices (one recording per item, or
        /// one capture device for all), its own mix file.
        private func sessions(of plan: RehearsalPlan) throws -> [PracticePlan] {
            let takes = singer.input.filter { PracticePlan.Input($0).isTake }
            guard singer.input.count <= 1 || takes.count == singer.input.count else {
                throw usage("--input: expected one capture device, or one recording per item")
            }
            guard takes.isEmpty || takes.count == plan.items.count else {
                throw usage(
                    "--input: \(takes.count) recording\(takes.count == 1 ? "" : "s") for \(plan.items.count) items: expected one per item, in order"
                )
            }
            return try plan.items.indices.map { index in
                let item = plan.items[index]
                var practice = PracticePlan(playback: item.playback(score: try LibraryTitles.path(item.piece)))
                practice.playback.soundFont = soundfont
                let input = takes.isEmpty ? singer.input.first ?? "default" : takes[index]
                singer.apply(to: &practice, input: input, output: singer.output.map { PlanRun.output($0, item: index + 1) })
                return practice
            }
        }

        private func label(_ plan: RehearsalPlan, _ index: Int) -> String { "\(plan.name): item \(index + 1) of \(plan.items.count)" }
    }
}
