import ArgumentParser
import ChoirAudio
import ChoirPitch
import ChoirPlayback
import ChoirPractice
import ChoirScore
import FoundationEssentials
import Glibc

extension Choir {
    /// `choir practice`: sing your line while the others play; every note is judged, and the session is
    /// reported and kept in the history.
    struct Practice: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sing your line while the other lines play; get each note judged and a report.")

        /// The exit status when an audio device cannot be opened, so that scripts can fall back to files.
        static let deviceUnavailable: Int32 = 69

        @OptionGroup var playback: PlaybackArguments

        @Option(name: [.customLong("input"), .customLong("input-device")],
                help: "The microphone: an ALSA capture device, or a WAV file to judge instead (time 0 = the first beat).")
        var input = "default"

        @Option(name: [.customLong("output"), .customLong("device")], help: "Where the mix goes: an ALSA device, a .wav file, or none.")
        var output = "default"

        @Flag(help: "Performance lock: ignore every key but space (pause) and q (quit).")
        var lock = false

        @Flag(help: "Drill the weakest passages (from the history, else a first pass): each looped with a count-in, faster as you get it right.")
        var drill = false

        @Option(help: "With --drill, the tempo each passage starts at, in percent of the session's tempo.")
        var drillStart = 70.0

        @Option(help: "Round-trip latency to subtract from the microphone, in ms (default: what `choir calibrate` stored for the two devices, or 0).")
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

        func validate() throws {
            guard playback.part != nil else { throw ValidationError("practice needs --part: the line you sing") }
            guard tolerance > 0 && tolerance < 100 else { throw ValidationError("--tolerance \(tolerance): expected 1 to 99 cents") }
            guard lateMs > 0 && lateMs <= 2000 else { throw ValidationError("--late-ms \(lateMs): expected 1 to 2000") }
            guard drillStart >= 25 && drillStart <= 100 else { throw ValidationError("--drill-start \(drillStart): expected 25 to 100") }
            if drill && (report != nil || html != nil) {
                throw ValidationError("--drill writes no --report or --html: every pass is kept in the history (`choir report N`)")
            }
            if let latency, !(-500...2000).contains(latency) { throw ValidationError("--latency \(latency): expected -500 to 2000 ms") }
        }

        func run() throws {
            signal(SIGINT) { _ in interrupted.store(true, ordering: .relaxed) }
            if drill { return try runDrill() }
            let (final, _) = try session(playback)
            FileOutput.write(TerminalReport.render(final, colour: Self.colour))
            try write(JSONReport.render(final), to: report)
            try write(HTMLReport.render(final), to: html)
        }

        /// One session over `playback`'s range: plays, judges and keeps the history. Returns the report, and
        /// whether the singer quit (q or Ctrl-C) rather than sang to the end.
        private func session(_ playback: PlaybackArguments) throws -> (report: SessionReport, quit: Bool) {
            let resolved = try playback.resolve()
            guard let singer = resolved.singer else { throw fail("practice needs --part") }
            let notes = ExpectedNote.notes(of: singer, in: resolved.schedule, score: resolved.score)
            guard !notes.isEmpty else { throw fail("\(playback.score): \(resolved.lines[singer].name) has no notes to sing in this range") }
            var options = NoteComparator.Options()
            options.toleranceCents = tolerance
            options.lateSeconds = lateMs / 1000
            options.octaveIsCorrect = octaveOk
            let header = SessionReport(
                score: playback.score, part: resolved.lines[singer].name, tempo: resolved.schedule.initialTempo,
                tempoPercent: playback.tempo ?? 100, options: options, results: [], trace: [],
                measureStarts: resolved.schedule.measures.map {
                    MeasureMark(number: resolved.score.measures[$0.index].number, time: $0.start)
                })
            let recorder = HistoryRecorder(enabled: !noHistory, header: header)

            let session = SessionAudio(
                resolved: resolved, notes: notes, options: options, sampleRate: sampleRate, loudspeakers: !headphones)
            let judge: any JudgedTake
            var quit = false
            if isTake {
                judge = try session.judgeFile(input, latency: (latency ?? 0) / 1000, output: output, recorder: recorder)
            } else {
                // A calibrated round trip applies only when the mix is played: a written mix is on the capture's clock.
                let played = MixOutput.isDevice(output)
                let stored = played ? Calibration.stored(output: output, input: input) : nil
                let take = try session.judgeLive(
                    device: input, latency: (latency ?? stored ?? 0) / 1000, output: output, locked: lock, recorder: recorder)
                judge = take
                quit = take.quit
            }
            recorder.finish(judge)
            var final = header
            final.results = judge.results
            final.trace = judge.trace
            final.audio = judge.audio
            return (final, quit || interrupted.load(ordering: .relaxed))
        }

        private var isTake: Bool { input.lowercased().hasSuffix(".wav") || FileManager.default.fileExists(atPath: input) }

        /// `--drill`: the weakest passages of the last session of this line (or of a first pass), each looped
        /// with a count-in from `--drill-start`% of the tempo, 10% faster after every pass with at least 90%
        /// right, until a pass at the full tempo is; at most eight passes a passage.
        private func runDrill() throws {
            guard !isTake else { throw fail("--drill needs a live microphone: expected --input DEVICE, not a take") }
            let resolved = try playback.resolve()
            guard let singer = resolved.singer else { throw fail("practice needs --part") }
            let part = resolved.lines[singer].name
            var passages = Self.lastSession(of: playback.score, part: part).map { Drill.passages(of: $0) } ?? []
            if passages.isEmpty {
                FileOutput.write("Drill: no session of \(part) in the history to learn from; a first pass finds the weakest measures.\n")
                let (first, quit) = try session(playback)
                FileOutput.write(TerminalReport.render(first, colour: Self.colour))
                if quit { return }
                passages = Drill.passages(of: first)
            }
            guard !passages.isEmpty else {
                FileOutput.write("Drill: every measure was right; nothing to drill.\n")
                return
            }
            FileOutput.write("Drill: " + passages.map(\.span).joined(separator: ", ") + "\n")
            let written = playback.tempo ?? 100
            for passage in passages {
                var drill = Drill(start: drillStart)
                var pass = playback
                pass.from = passage.first
                pass.to = passage.last
                pass.loop = 1
                pass.countIn = true
                while true {
                    let tempo = drill.tempo
                    pass.tempo = written * tempo / 100
                    let (report, quit) = try session(pass)
                    if quit { return }
                    let next = drill.record(accuracy: report.accuracy)
                    let outcome = switch next {
                    case .again: "again"
                    case .faster: "next at \(Int(drill.tempo))%"
                    case .done: "done"
                    case .movedOn: "moving on after \(drill.passes) passes"
                    }
                    FileOutput.write("\(passage.span) at \(Int(tempo))%: \(Int(report.accuracy.rounded()))% (\(report.correct) of \(report.results.count) notes) → \(outcome)\n")
                    if next == .done || next == .movedOn { break }
                }
            }
        }

        /// The report of the latest session of `part` of `score` in the history, if there is one.
        private static func lastSession(of score: String, part: String) -> SessionReport? {
            let path = PracticeHistory.defaultPath(environment: ProcessInfo.processInfo.environment)
            guard FileManager.default.fileExists(atPath: path), let history = try? PracticeHistory(path: path),
                  let sessions = try? history.sessions(score: score),
                  let last = sessions.last(where: { $0.part == part && $0.notes > 0 })
            else { return nil }
            return try? history.report(session: last.id)
        }

        /// Whether standard output takes ANSI colours: a terminal, and NO_COLOR unset.
        static var colour: Bool { isatty(1) == 1 && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty }

        private func write(_ text: String, to path: String?) throws {
            guard let path else { return }
            guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
                throw fail("\(path): cannot be written: expected a writable path")
            }
        }
    }
}

/// Keeps the history up to date while a session runs; a history that cannot be used is reported once and
/// the session goes on without it.
final class HistoryRecorder {
    private var history: PracticeHistory?
    private var session: Int64 = 0
    private var savedResults = 0, savedTrace = 0

    init(enabled: Bool, header: SessionReport) {
        guard enabled else { return }
        do {
            let history = try PracticeHistory(path: PracticeHistory.defaultPath(environment: ProcessInfo.processInfo.environment))
            session = try history.begin(header)
            self.history = history
        } catch {
            warn(error)
        }
    }

    /// Writes what the judge has added since the last save.
    func save(_ judge: some JudgedTake) {
        guard let history else { return }
        do {
            try history.record(judge.results[savedResults...], trace: judge.trace[savedTrace...], session: session)
            savedResults = judge.results.count
            savedTrace = judge.trace.count
        } catch {
            warn(error)
            self.history = nil
        }
    }

    func finish(_ judge: some JudgedTake) {
        save(judge)
        do { try history?.finish(session: session, audio: judge.audio) } catch { warn(error) }
    }

    private func warn(_ error: any Error) {
        var standardError = StandardError()
        print("choir: \(error); practising without history", to: &standardError)
    }
}

/// What a session's judging has produced so far: the verdicts and the sung trace, on the score's clock, and for
/// a live session how its audio fared.
protocol JudgedTake {
    var results: [NoteResult] { get }
    var trace: [TracePoint] { get }
    var audio: AudioHealth? { get }
}

extension PracticeJudge: JudgedTake {
    var audio: AudioHealth? { nil }
}

/// A live session's judge and its devices' record.
struct LiveTake: JudgedTake {
    var judge: SteeredJudge
    var audio: AudioHealth?
    /// Whether the singer pressed q.
    var quit = false
    var results: [NoteResult] { judge.results }
    var trace: [TracePoint] { judge.trace }
}
