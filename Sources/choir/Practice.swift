import ArgumentParser
import ChoirPractice
import ChoirSession
import FoundationEssentials
import Glibc

extension Divisi: ExpressibleByArgument {}

extension Choir {
    /// `choir practice`: sing your line while the others play; every note is judged, and the session is
    /// reported and kept in the history.
    struct Practice: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sing your line while the other lines play; get each note judged and a report.")

        @OptionGroup var playback: PlaybackArguments

        @Option(
            name: [.customLong("input"), .customLong("input-device")],
            help:
                "The microphone: an ALSA capture device, or a recording to judge instead (WAV, FLAC, Ogg, Opus, MP3; time 0 = the first beat, or the count-in's first click)."
        )
        var input = "default"

        @Option(name: [.customLong("output"), .customLong("device")], help: "Where the mix goes: an ALSA device, a .wav file, or none.")
        var output = "default"

        @Flag(help: "Performance lock: ignore every key but space (pause) and q (quit).")
        var lock = false

        @Flag(
            help:
                "Drill the weakest passages (from the history, else a first pass): each looped with a count-in, faster as you get it right."
        )
        var drill = false

        @Option(help: "With --drill, the tempo each passage starts at, in percent of the session's tempo.")
        var drillStart = 70.0

        // Unconditional, so that a negative value as calibrate prints it needs no '='.
        @Option(
            parsing: .unconditional,
            help:
                "Round-trip latency to subtract from the microphone, in ms (default: what `choir calibrate` stored for the two devices, or 0)."
        )
        var latency: Double?

        @Option(help: "Cents either side of the written pitch that count as in tune.")
        var tolerance = 25.0

        @Option(help: "An entrance later than this many milliseconds is late.")
        var lateMs = 100.0

        @Flag(help: "Count a note sung an octave away as correct (a tenor singing a soprano line, say).")
        var octaveOk = false

        @Option(help: "Write the report as JSON to this file.")
        var report: String?

        @Option(help: "Write the report as a self-contained HTML page to this file.")
        var html: String?

        @Flag(help: "Keep this session out of the practice history.")
        var noHistory = false

        @Flag(help: "The microphone hears no loudspeakers (you wear headphones): the mix is not looked for in it.")
        var headphones = false

        @Option(help: "Sample rate for live audio and the written mix, in Hz.")
        var sampleRate = 48000

        @OptionGroup var tracking: TrackerArguments

        @Option(
            help:
                "Keep what the microphone hears in this file (.flac, .ogg, .opus, .mp3, .aiff or .wav), on the mix's time line, to listen to or judge again with --input."
        )
        var record: String?

        @Option(help: "Which note of a chord in your line you sing: upper or lower.")
        var divisi = Divisi.upper

        @Flag(
            help:
                "Show the engraved score in the browser beside the terminal, in step with the session (its address is the first line printed)."
        )
        var view = false

        @Flag(name: .customLong("open"), help: "With --view, open the page in the desktop's browser.")
        var openView = false

        func validate() throws {
            guard !playback.part.isEmpty else { throw ValidationError("practice needs --part: the line you sing") }
            guard tolerance > 0 && tolerance < 100 else { throw ValidationError("--tolerance \(tolerance): expected 1 to 99 cents") }
            guard lateMs > 0 && lateMs <= 2000 else { throw ValidationError("--late-ms \(lateMs): expected 1 to 2000") }
            guard drillStart >= 25 && drillStart <= 100 else { throw ValidationError("--drill-start \(drillStart): expected 25 to 100") }
            if drill && (report != nil || html != nil) {
                throw ValidationError("--drill writes no --report or --html: every pass is kept in the history (`choir report N`)")
            }
            if drill && record != nil { throw ValidationError("--drill keeps no --record: each pass is a session of its own") }
            if let latency, !(-500...2000).contains(latency) { throw ValidationError("--latency \(latency): expected -500 to 2000 ms") }
            if drill && view { throw ValidationError("--view follows one session: expected no --drill") }
            if openView && !view { throw ValidationError("--open opens the score view: expected --view too") }
        }

        func run() throws {
            let signals = SignalWatcher()
            let screen = SessionScreen()
            var ended: Int32?
            do {
                defer { screen.close() }
                ended = try drill ? runDrill(screen, signals) : runSession(screen, signals)
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
        private func runSession(_ screen: SessionScreen, _ signals: SignalWatcher) throws -> Int32? {
            let session = try Self.open(PracticeSession.init, plan())
            let scoreView = view ? try ScoreView(session, open: openView) : nil
            defer { scoreView?.close() }
            let known = session.historyFailure
            let outcome = try screen.run(session, stop: { signals.received != nil })
            var signal = signals.received
            screen.close()
            let failed = Self.finish(outcome, printing: signal != SIGHUP, known: known)
            try write(JSONReport.render(outcome.report), to: report)
            try write(HTMLReport.render(outcome.report), to: html)
            if signal == nil {
                scoreView?.linger(after: outcome) { signals.received != nil }
                signal = signals.received
            }
            if let failed { throw failed }
            return signal
        }

        /// `--drill`: every pass a live session, all of them one session in the history.
        private func runDrill(_ screen: SessionScreen, _ signals: SignalWatcher) throws -> Int32? {
            guard !isTake else { throw usage("--drill needs a live microphone: expected --input DEVICE, not a take") }
            let drill = try Self.open({ plan throws(SessionError) in try PracticeDrill(plan, startPercent: drillStart) }, plan())
            var standardError = StandardError()
            let known = drill.historyFailure
            if let known { print("choir: \(known); practising without history", to: &standardError) }
            if drill.needsFirstPass {
                FileOutput.write(
                    "Drill: no session of \(drill.part) in the history to learn from; a first pass finds the weakest measures.\n")
                let outcome = try screen.run(
                    try Self.open({ _ throws(SessionError) in try drill.firstPass() }, drill.plan), stop: { signals.received != nil })
                if let failed = Self.finish(outcome, printing: signals.received != SIGHUP, known: known) { throw failed }
                if outcome.ending != .completed { return signals.received }
                drill.learn(from: outcome.report)
            }
            guard !drill.passages.isEmpty else {
                FileOutput.write("Drill: every measure was right; nothing to drill.\n")
                return nil
            }
            FileOutput.write("Drill: " + drill.passages.map(\.span).joined(separator: ", ") + "\n")
            while let (passage, tempo) = drill.upcoming {
                let session = try Self.open({ _ throws(SessionError) in try drill.nextPass()! }, drill.plan)
                let label = "drill \(passage.span), pass \(drill.passesOfPassage + 1) at \(Int(tempo))%"
                let outcome = try screen.run(session, context: label, stop: { signals.received != nil })
                if let failure = outcome.ending.failure {
                    print("choir: \(failure); the session ends here", to: &standardError)
                    throw ExitStatus.of(failure)
                }
                if outcome.ending != .completed { return signals.received }
                let passes = drill.passesOfPassage + 1
                let outcomeText =
                    switch drill.record(outcome.report) {
                    case .again: "again"
                    case .faster: "next at \(Int(drill.upcoming?.tempo ?? 100))%"
                    case .done: "done"
                    case .movedOn: "moving on after \(passes) passes"
                    }
                let report = outcome.report
                FileOutput.write(
                    "\(passage.span) at \(Int(tempo))%: \(Int(report.accuracy.rounded()))% (\(report.correct) of \(report.results.count) notes) → \(outcomeText)\n"
                )
            }
            return nil
        }

        /// The options as a plan for the engine.
        private func plan() throws -> PracticePlan {
            var plan = PracticePlan(playback: try playback.plan())
            plan.input = PracticePlan.Input(input)
            plan.output = MixDestination(output)
            plan.options.toleranceCents = tolerance
            plan.options.lateSeconds = lateMs / 1000
            plan.options.octaveIsCorrect = octaveOk
            plan.divisi = divisi
            plan.latency = latency.map { $0 / 1000 }
            plan.loudspeakers = !headphones
            plan.tracker = tracking.tracker
            plan.accompanied = tracking.accompanied
            plan.sampleRate = sampleRate
            plan.locked = lock
            plan.history = noHistory ? nil : PracticePlan.defaultHistory
            plan.record = record
            return plan
        }

        /// Builds a session (or drill) with `make`, first naming a stored latency table that cannot be used; a device
        /// that cannot be opened exits with ``ExitStatus/deviceUnavailable``.
        static func open<T>(_ make: (PracticePlan) throws(SessionError) -> T, _ plan: PracticePlan) throws -> T {
            var standardError = StandardError()
            if case .device = plan.input, plan.latency == nil, plan.output.isDevice, let problem = LatencyStore.problem {
                print("choir: \(problem)", to: &standardError)
            }
            let made: T
            do {
                made = try make(plan)
            } catch  where error.kind == .deviceUnavailable {
                throw fail("\(error); to practise with a recording, use --input take.wav --output mix.wav", ExitStatus.deviceUnavailable)
            } catch {
                throw fail(error)
            }
            if let session = made as? PracticeSession, let failure = session.historyFailure {
                print("choir: \(failure); practising without history", to: &standardError)
            }
            return made
        }

        /// Says how a session ended and prints its report (unless the terminal has gone); gives the exit status of
        /// the failure that ended it, if one did, for once the report's files are written. A history failure other
        /// than `known` (said at the start) is named.
        static func finish(_ outcome: PracticeSession.Outcome, printing: Bool, known: String?) -> ExitCode? {
            var standardError = StandardError()
            if let failure = outcome.historyFailure, failure != known {
                print("choir: \(failure); the history stops here", to: &standardError)
            }
            if let failure = outcome.ending.failure { print("choir: \(failure); the session ends here", to: &standardError) }
            if let take = outcome.recording { print(Self.recorded(take), to: &standardError) }
            if printing { FileOutput.write(TerminalReport.render(outcome.report, colour: FileOutput.colour)) }
            return outcome.ending.failure.map(ExitStatus.of)
        }

        private var isTake: Bool { PracticePlan.Input(input).isTake }

        /// Where the recording is, and the command that judges it again: this one, with the recording as its input,
        /// the session's latency, and no mix or recording of its own.
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
            let again = (["choir"] + kept + ["--input", take.path, "--latency=\(milliseconds)", "--output", "none"]).map(\.shellQuoted)
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
