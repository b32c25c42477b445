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

        @Option(help: "Sample rate for live audio and the written mix, in Hz.")
        var sampleRate = 48000

        func validate() throws {
            guard playback.part != nil else { throw ValidationError("practice needs --part: the line you sing") }
            guard tolerance > 0 && tolerance < 100 else { throw ValidationError("--tolerance \(tolerance): expected 1 to 99 cents") }
            guard lateMs > 0 && lateMs <= 2000 else { throw ValidationError("--late-ms \(lateMs): expected 1 to 2000") }
            if let latency, !(-500...2000).contains(latency) { throw ValidationError("--latency \(latency): expected -500 to 2000 ms") }
        }

        func run() throws {
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
            signal(SIGINT) { _ in interrupted.store(true, ordering: .relaxed) }

            let session = SessionAudio(resolved: resolved, notes: notes, options: options, sampleRate: sampleRate)
            let judge: any JudgedTake
            if input.lowercased().hasSuffix(".wav") || FileManager.default.fileExists(atPath: input) {
                judge = try session.judgeFile(input, latency: (latency ?? 0) / 1000, output: output, recorder: recorder)
            } else {
                // A calibrated round trip applies only when the mix is played: a written mix is on the capture's clock.
                let played = output != "none" && !output.lowercased().hasSuffix(".wav")
                let stored = played ? Calibration.stored(output: output, input: input) : nil
                judge = try session.judgeLive(
                    device: input, latency: (latency ?? stored ?? 0) / 1000, output: output, locked: lock, recorder: recorder)
            }
            recorder.finish(judge)
            var final = header
            final.results = judge.results
            final.trace = judge.trace
            final.audio = judge.audio
            FileOutput.write(TerminalReport.render(final, colour: Self.colour))
            try write(JSONReport.render(final), to: report)
            try write(HTMLReport.render(final), to: html)
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
    var results: [NoteResult] { judge.results }
    var trace: [TracePoint] { judge.trace }
}
