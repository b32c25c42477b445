import ArgumentParser
import ChoirBase
import ChoirPractice
import ChoirSession
import ChoirTerminal
import FoundationEssentials
import Glibc

extension Choir {
    /// `choir practice`: sing your line while the others play; every note is judged, and the session is
    /// reported and kept in the history.
    struct Practice: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sing your line while the other lines play; get each note judged and a report.", aliases: ["practise"])

        @OptionGroup var playback: PlaybackArguments

        @OptionGroup var singer: SingerArguments

        @Flag(help: "Performance lock: ignore every key but space (pause) and q (quit).")
        var lock = false

        @Flag(
            help:
                "Drill the weakest passages (from the history, else a first pass): each looped with a count-in, faster as you get it right."
        )
        var drill = false

        @Option(help: "With --drill, the tempo each passage starts at, in percent of the session's tempo.")
        var drillStart = Drill.standardStart

        @Option(help: "Cents either side of the written pitch that count as in tune.")
        var tolerance = 25.0

        @Option(
            help:
                "Milliseconds an entrance may come early or late (default: a sixth of a quarter note at the tempo, from 50 to 120, and no more than three tenths of the note)."
        )
        var timingMs: Double?

        @Flag(help: "Count a note sung an octave away as correct (a tenor singing a soprano line, say).")
        var octaveOk = false

        @Flag(help: "Judge a take as recorded, without moving it to where its singing fits the score (up to 3 s either way).")
        var noAlign = false

        @OptionGroup var detail: ReportDetail

        @OptionGroup var files: ReportFiles

        @Flag(help: "Keep this session out of the practice history.")
        var noHistory = false

        @OptionGroup var sampleRate: SampleRate

        @Option(
            help:
                "Keep what the microphone hears in this file (.flac, .ogg, .opus, .mp3, .aiff or .wav), on the mix's time line, to listen to or judge again with --input."
        )
        var record: String?

        @Option(help: "Which note of a chord in your line you sing: upper or lower.")
        var divisi = Divisi.upper.rawValue

        @Flag(
            help:
                "Show the engraved score in the browser beside the terminal, in step with the session (its address is the first line printed)."
        )
        var view = false

        @OptionGroup var browser: OpenFlag

        func validate() throws {
            let _: Divisi = try named(divisi, for: "--divisi")
            guard singer.input.count <= 1 else { throw ValidationError("--input: expected one capture device or recording") }
            guard !playback.parts.isEmpty else { throw ValidationError("practice needs --part: the line you sing") }
            let tolerances = NoteComparator.Options.toleranceLimits, timings = NoteComparator.Options.timingLimits
            guard tolerances.contains(tolerance) else {
                throw ValidationError(expected("--tolerance", tolerance, tolerances, unit: " cents"))
            }
            if let timingMs, !timings.contains(timingMs / 1000) {
                throw ValidationError(expected("--timing-ms", timingMs, timings, scale: 1000))
            }
            guard Drill.limits.start.contains(drillStart) else {
                throw ValidationError(expected("--drill-start", drillStart, Drill.limits.start))
            }
            if drill && !files.isEmpty {
                throw ValidationError("--drill writes no --json or --html: every pass is kept in the history (`choir report N`)")
            }
            if drill && record != nil { throw ValidationError("--drill keeps no --record: each pass is a session of its own") }
            if drill && view { throw ValidationError("--view follows one session: expected no --drill") }
            if browser.open && !view { throw ValidationError("--open opens the score view: expected --view too") }
            if let problem = record.flatMap(PracticePlan.problem(recording:)) { throw ValidationError("--record \(problem)") }
        }

        func run() async throws {
            let signals = SignalWatcher()
            let screen = SessionScreen()
            var ended: Int32?
            do {
                defer { screen.close() }
                ended = try await drill ? runDrill(screen, signals) : runSession(screen, signals)
            }
            if let lag = screen.lag {
                ScoreView.say(
                    lag, shown: "the view", plus: ", plus the analysis window's \(screen.halfWindowMilliseconds) ms to its centre")
            }
            if let ended { throw ExitCode(128 + ended) }
        }

        /// One session: plays, judges, keeps the history and prints the report. Returns the signal that ended it, if
        /// one did.
        private func runSession(_ screen: SessionScreen, _ signals: SignalWatcher) async throws -> Int32? {
            let session = try Self.open(PracticeSession.init, plan())
            let scoreView = view ? try ScoreView(session, open: browser.open) : nil
            defer { scoreView?.close() }
            let known = session.historyFailure
            let outcome = try await failingAsync { try await screen.run(session, signals: signals) }
            var signal = signals.received
            screen.close()
            let failed = Self.finish(outcome, printing: signal != SIGHUP, known: known, detail: detail)
            try files.write(outcome.report)
            if signal == nil {
                await scoreView?.linger(signals: signals)
                signal = signals.received
            }
            if let failed { throw failed }
            return signal
        }

        /// The options as a plan for the engine.
        func plan() throws -> PracticePlan {
            var plan = PracticePlan(playback: try playback.plan())
            singer.apply(to: &plan, input: input)
            plan.options.toleranceCents = tolerance
            plan.options.timingSeconds = timingMs.map { $0 / 1000 }
            plan.aligns = !noAlign
            plan.options.octaveIsCorrect = octaveOk
            plan.divisi = try named(divisi, for: "--divisi")
            plan.sampleRate = sampleRate.hertz
            plan.locked = lock
            plan.history = noHistory ? nil : PracticePlan.defaultHistory
            plan.record = record
            return plan
        }

        /// The singer's microphone or recording.
        private var input: String { singer.input.first ?? "default" }
    }
}
