import ArgumentParser
import ChoirBase
import ChoirPractice
import ChoirSession
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
        var drillStart = 70.0

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

        @Flag(help: "List every note with its verdict in the report, not only the notes to work on.")
        var allNotes = false

        @Option(help: "Write the report as JSON to this file.")
        var report: String?

        @Option(help: "Write the report as a self-contained HTML page to this file.")
        var html: String?

        @Flag(help: "Keep this session out of the practice history.")
        var noHistory = false

        @Option(help: "Sample rate for live audio and the written mix, in Hz.")
        var sampleRate = 48000

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

        @Flag(name: .customLong("open"), help: "With --view, open the page in the desktop's browser.")
        var openView = false

        func validate() throws {
            let _: Divisi = try named(divisi, for: "--divisi")
            guard singer.input.count <= 1 else { throw ValidationError("--input: expected one capture device or recording") }
            guard !playback.parts.isEmpty else { throw ValidationError("practice needs --part: the line you sing") }
            guard tolerance > 0 && tolerance < 100 else { throw ValidationError("--tolerance \(tolerance): expected 1 to 99 cents") }
            if let timingMs, !(timingMs > 0 && timingMs <= 2000) { throw ValidationError("--timing-ms \(timingMs): expected 1 to 2000") }
            guard drillStart >= 25 && drillStart <= 100 else { throw ValidationError("--drill-start \(drillStart): expected 25 to 100") }
            if drill && (report != nil || html != nil) {
                throw ValidationError("--drill writes no --report or --html: every pass is kept in the history (`choir report N`)")
            }
            if drill && record != nil { throw ValidationError("--drill keeps no --record: each pass is a session of its own") }
            if drill && view { throw ValidationError("--view follows one session: expected no --drill") }
            if openView && !view { throw ValidationError("--open opens the score view: expected --view too") }
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
                var standardError = StandardError()
                print(
                    "choir: the view showed what was sung \(lag.median) ms after it was captured (median; 95%: \(lag.percentile95) ms, "
                        + "at most \(lag.maximum) ms), plus the analysis window's \(screen.halfWindowMilliseconds) ms to its centre",
                    to: &standardError)
            }
            if let ended { throw ExitCode(128 + ended) }
        }

        /// One session: plays, judges, keeps the history and prints the report. Returns the signal that ended it, if
        /// one did.
        private func runSession(_ screen: SessionScreen, _ signals: SignalWatcher) async throws -> Int32? {
            let session = try Self.open(PracticeSession.init, plan())
            let scoreView = view ? try ScoreView(session, open: openView) : nil
            defer { scoreView?.close() }
            let known = session.historyFailure
            let outcome = try await screen.run(session, signals: signals)
            var signal = signals.received
            screen.close()
            let failed = Self.finish(outcome, printing: signal != SIGHUP, known: known, verbose: singer.verbose, allNotes: allNotes)
            try write(JSONReport.render(outcome.report), to: report)
            try write(HTMLReport.render(outcome.report), to: html)
            if signal == nil {
                scoreView?.linger { signals.received != nil }
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
            plan.sampleRate = sampleRate
            plan.locked = lock
            plan.history = noHistory ? nil : PracticePlan.defaultHistory
            plan.record = record
            return plan
        }

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
            var standardError = StandardError()
            if case .device = plan.input, plan.latency == nil, plan.output.isDevice, let problem = LatencyStore.problem {
                print("choir: \(problem)", to: &standardError)
            }
        }

        /// Says that `session` is not kept in the history, if it is not.
        static func warnOfHistory(_ session: PracticeSession) {
            var standardError = StandardError()
            if let failure = session.historyFailure { print("choir: \(failure); practising without history", to: &standardError) }
        }

        /// Why a session could not be opened, as choir exits with it: a device that cannot be opened exits with
        /// ``ExitStatus/deviceUnavailable``.
        static func failure(opening error: SessionError) -> ExitCode {
            guard error.kind == .deviceUnavailable else { return fail(error) }
            return fail("\(error); to judge a recording instead, use --input take.wav", ExitStatus.deviceUnavailable)
        }

        /// Says how a session ended and prints its report (unless the terminal has gone); gives the exit status of
        /// the failure that ended it, if one did, for once the report's files are written. A history failure other
        /// than `known` (said at the start) is named.
        static func finish(_ outcome: PracticeSession.Outcome, printing: Bool, known: String?, verbose: Bool, allNotes: Bool = false)
            -> ExitCode?
        {
            var standardError = StandardError()
            if let failure = outcome.historyFailure, failure != known {
                print("choir: \(failure); the history stops here", to: &standardError)
            }
            if let failure = outcome.ending.failure { print("choir: \(failure); the session ends here", to: &standardError) }
            if let take = outcome.recording { print(Self.recorded(take), to: &standardError) }
            if printing {
                FileOutput.write(
                    TerminalReport.render(
                        outcome.report, colour: FileOutput.colour, verbose: verbose, width: FileOutput.width, allNotes: allNotes))
            }
            return outcome.ending.failure.map(ExitStatus.of)
        }

        /// The singer's microphone or recording.
        private var input: String { singer.input.first ?? "default" }

        var isTake: Bool { PracticePlan.Input(input).isTake }

        /// Where the recording is, and the command that judges it again: this one, with the recording as its input,
        /// the session's latency, no alignment (the recording is on the session's clock already: a singer steadily
        /// late must stay late), and no mix or recording of its own.
        static func recorded(_ take: RecordedTake, arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> String {
            let replaced: Set<String> = ["--record", "--input", "--input-device", "--output", "--device", "--latency"]
            var kept: [String] = []
            var skipNext = false
            for argument in arguments {
                if skipNext {
                    skipNext = false
                } else if replaced.contains(argument) {
                    skipNext = true
                } else if !replaced.contains(where: { argument.hasPrefix($0 + "=") }) {
                    kept.append(argument)
                }
            }
            let milliseconds = String(printf: "%.1f", take.latency * 1000)
            let align = kept.contains("--no-align") ? [] : ["--no-align"]
            let again = (["choir"] + kept + ["--input", take.path, "--latency=\(milliseconds)", "--output", "none"] + align).map(
                \.shellQuoted
            )
            .joined(separator: " ")
            let stopped = take.failure.map { "; it stopped early: \($0)" } ?? ""
            return "choir: recorded \(String(printf: "%.1f", take.seconds)) s to \(take.path)\(stopped); judge it again with: \(again)"
        }

        private func write(_ text: String, to path: String?) throws {
            guard let path else { return }
            do { try ReportFile.write(text, to: path) } catch { throw fail(error) }
        }
    }
}

extension PracticeSession.Ending {
    /// The failure that ended the session, if one did.
    var failure: SessionError? { if case .failed(let error) = self { error } else { nil } }
}
