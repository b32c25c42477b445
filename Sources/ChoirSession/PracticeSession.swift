import ChoirAudio
import ChoirPitch
import ChoirPlayback
import ChoirPractice
import ChoirScore
import FoundationEssentials
import Glibc
import Synchronization

/// A practice session: the mix out, the singer's voice in, every note judged on one clock whose zero is the first
/// beat of the practised range, and the session kept in the history as it goes.
///
/// A front end builds it from a ``PracticePlan`` (devices and files are opened there, so that their errors come
/// first), calls ``start()``, reads ``snapshot`` as often as it draws, sends ``SessionCommand``s, may ``cancel()``, and
/// gets the report from ``wait()``. The session runs on a thread of its own; every member may be used from any
/// thread.
public final class PracticeSession: @unchecked Sendable {
    /// How a session ended.
    public enum Ending: Sendable, Equatable {
        /// The range was sung to its end.
        case completed
        /// The singer sent ``SessionCommand/quit``.
        case quit
        /// ``cancel()`` was called (a signal, a closed window).
        case cancelled
        /// Something failed; what was judged until then is reported and kept all the same.
        case failed(SessionError)
    }

    /// A finished session: its report and how it ended.
    public struct Outcome: Sendable {
        public var report: SessionReport
        public var ending: Ending
        /// Why the history could not be kept, if it could not.
        public var historyFailure: String?
        /// The microphone's recording (``PracticePlan/record``): its file, its length in seconds, and why it
        /// stopped early, if it did.
        public var recording: RecordedTake?
    }

    public let plan: PracticePlan
    public let resolved: ResolvedPlayback
    /// The singer's notes in the range, on the score's clock.
    public let notes: [ExpectedNote]
    /// The report as it starts: what is practised, with no verdicts yet.
    public let header: SessionReport
    /// Seconds from the centre of the analysis window to its newest sample (live; 0 for a take).
    public let halfWindow: Double
    /// Why the history cannot be kept, when that is known at the start.
    public var historyFailure: String? { recorder?.failure }
    /// The session's number in the history (as `choir history` lists it), when it is kept there.
    public var historySession: Int64? { recorder?.stored }

    /// Seconds taken off the microphone's time (the round trip from loudspeaker to microphone), as judged.
    public let latency: Double
    private let source: Source
    private let recorder: SessionRecorder?
    /// The microphone's recording, once the session has ended.
    private let recorded = Locked<RecordedTake?>(nil)
    private let state = Locked(SessionSnapshot())
    private let inbox = Locked<[SessionCommand]>([])
    private let cancelled = Atomic<Bool>(false)
    private let result = Locked<Outcome?>(nil)
    private let thread = Locked<StreamThread?>(nil)

    private enum Source {
        case take(TakeSetup)
        case live(LiveSetup)
    }

    private struct TakeSetup {
        var path: String
        var audio: WAVFile.Audio
        var heard: (mix: [Float], singersLine: [Float]?)?
        var mix: MixOutput
    }

    private struct LiveSetup {
        /// YIN, which drives the needle, and judges unless `judging` does (the learned tracker, with its longer lag).
        var tracker: any PitchTracker
        var judging: (any PitchTracker)?
        var configuration: PitchTrackerConfiguration
        var ring: SPSCRing<Float>
        var capture: ALSACapture
        var mix: MixOutput
        var echo: LiveEcho?
        var recording: TakeRecording?
    }

    /// Resolves `plan` and opens its input and output.
    public convenience init(_ plan: PracticePlan) throws(SessionError) {
        let resolved = try plan.playback.resolve()
        let header = try Self.header(plan, resolved)
        try self.init(plan, resolved: resolved, header: header, recorder: plan.history.map { SessionRecorder(path: $0, header: header) })
    }

    /// A session whose results go to `recorder`, which may be shared by several sessions (a drill's passes).
    init(_ plan: PracticePlan, resolved: ResolvedPlayback, header: SessionReport, recorder: SessionRecorder?) throws(SessionError) {
        self.plan = plan
        self.resolved = resolved
        self.recorder = recorder
        var notes = ExpectedNote.notes(of: resolved.singers, in: resolved.schedule, score: resolved.score, divisi: plan.divisi)
        var header = header
        guard !notes.isEmpty else {
            throw SessionError(.usage, "\(plan.playback.score): \(resolved.part!) has no notes to sing in this range")
        }
        let rate = plan.sampleRate
        guard (8000...192_000).contains(rate) else { throw SessionError(.usage, "sample rate \(rate) Hz: expected 8000 to 192000 Hz") }
        switch plan.input {
        case .take(let path):
            guard plan.record == nil else {
                throw SessionError(.usage, "--record keeps what a live microphone hears: expected --input DEVICE, not a take")
            }
            latency = plan.latency ?? 0
            // The learned tracker's weights are read before the take, so that a missing file is said first.
            if plan.tracker.usesNetwork(accompanied: plan.accompanied) {
                do throws(PitchTrackerError) {
                    _ = try PitchNetWeights.load(PitchNetWeights.locate(explicit: nil, environment: ProcessInfo.processInfo.environment))
                } catch {
                    throw SessionError(.missing, "\(error)")
                }
            }
            let take = try Self.openTake(path, plan: plan, resolved: resolved, latency: latency)
            // A take shorter than the range is judged up to its end: the notes it holds whole.
            let end = take.audio.duration - resolved.schedule.preroll - latency
            let covered = notes.prefix { $0.onset + $0.duration <= end }
            guard !covered.isEmpty else {
                throw SessionError(
                    .input,
                    "\(path): the take is \(String(printf: "%.1f", take.audio.duration)) s long: expected at "
                        + "least \(String(printf: "%.1f", notes[0].onset + notes[0].duration + resolved.schedule.preroll + latency)) s, "
                        + "to the end of the first note of the practised range")
            }
            if covered.count < notes.count {
                header.unsung = SessionReport.Unsung(notes: notes.count - covered.count, measure: notes[covered.count].measure)
                notes = Array(covered)
            }
            source = .take(take)
            halfWindow = 0
        case .device(let device):
            // A calibrated round trip applies only when the mix is played: a written mix is on the capture's clock.
            var stored: Double?
            if case .device(let output) = plan.output { stored = LatencyStore.stored(output: output, input: device).map { $0 / 1000 } }
            latency = plan.latency ?? stored ?? 0
            let live = try Self.openLive(device, plan: plan, resolved: resolved, notes: notes)
            source = .live(live)
            halfWindow = Double(live.configuration.window) / 2 / Double(rate)
        }
        self.notes = notes
        self.header = header
        state.withLock {
            $0.tempo = resolved.schedule.initialTempo
            $0.locked = plan.locked
            $0.next = notes.first
            $0.time = -resolved.schedule.preroll
        }
    }

    /// The report of a session of `plan` before anything is judged.
    static func header(_ plan: PracticePlan, _ resolved: ResolvedPlayback) throws(SessionError) -> SessionReport {
        guard let part = resolved.part else {
            throw SessionError(.usage, "\(plan.playback.score): a practice session needs the singer's line: expected a line to sing")
        }
        var report = SessionReport(
            score: plan.playback.score, part: part, tempo: resolved.schedule.initialTempo,
            tempoPercent: plan.playback.tempoPercent ?? 100, options: plan.options, results: [], trace: [],
            measureStarts: resolved.schedule.measures.map {
                MeasureMark(number: resolved.score.measures[$0.index].number, time: $0.start)
            })
        report.title = resolved.score.title
        report.transpose = plan.playback.transpose
        report.verse = plan.playback.verse
        report.lyrics = resolved.schedule.lyrics
        // Chords in the singer's own lines: one of their notes is judged, and the report says which.
        let chords = ExpectedNote.chords(of: resolved.singers, in: resolved.schedule).count { Set($0.map(\.midi)).count > 1 }
        if chords > 0 { report.divisi = SessionReport.DivisiChoice(note: plan.divisi, chords: chords) }
        report.kind = plan.input.isTake ? .file : .live
        // The singer's marks on these measures (a history that cannot be read has none to give).
        if let history = plan.history,
            let marks = try? PracticeHistory(path: history).marks(score: plan.playback.score, lines: report.lines)
        {
            report.keep(marks)
        }
        return report
    }

    private static func openTake(_ path: String, plan: PracticePlan, resolved: ResolvedPlayback, latency: Double)
        throws(SessionError) -> TakeSetup
    {
        let take: WAVFile.Audio
        do { take = try AudioFile.read(contentsOf: path) } catch { throw SessionError(reading: error) }
        guard (8000...192_000).contains(take.sampleRate) else {
            throw SessionError(.input, "\(path): sample rate \(take.sampleRate) Hz: expected 8000 to 192000 Hz")
        }
        let heard =
            plan.loudspeakers ? try played(resolved, sampleRate: take.sampleRate, latency: latency, length: take.samples.count) : nil
        let mix = try MixOutput(plan.output, resolved: resolved, sampleRate: plan.sampleRate)
        return TakeSetup(path: path, audio: take, heard: heard, mix: mix)
    }

    /// The mix as a take's microphone heard it from loudspeakers, and the singer's own line's share of it: mono at
    /// the take's sample rate, sample for sample with the take (whose time 0 is the mix's, `latency` later), so
    /// that the judge can take the loudspeakers' echo out.
    private static func played(_ resolved: ResolvedPlayback, sampleRate: Int, latency: Double, length: Int)
        throws(SessionError) -> (mix: [Float], singersLine: [Float]?)
    {
        let renderer: SynthRenderer
        do {
            renderer = try resolved.renderer(sampleRate: sampleRate, blockSize: 4096)
        } catch {
            throw SessionError(.input, "\(error)")
        }
        let line = resolved.singer.map { singer in
            let ring = SPSCRing<Float>(minimumCapacity: renderer.totalFrames + 1, filler: 0)
            renderer.tap(lines: resolved.singers, into: ring)
            return ring
        }
        let (left, right) = renderer.renderAll()
        var singersLine = line.map { [Float](repeating: 0, count: $0.available) }
        if let line { singersLine!.withUnsafeMutableBufferPointer { _ = line.read(into: $0) } }
        let delay = Int((latency * Double(sampleRate)).rounded())
        func aligned(_ signal: (Int) -> Float, count: Int) -> [Float] {
            (0..<length).map { i in i - delay >= 0 && i - delay < count ? signal(i - delay) : 0 }
        }
        return (
            aligned({ (left[$0] + right[$0]) / 2 }, count: left.count),
            singersLine.map { line in aligned({ line[$0] }, count: line.count) }
        )
    }

    private static func openLive(_ device: String, plan: PracticePlan, resolved: ResolvedPlayback, notes: [ExpectedNote])
        throws(SessionError) -> LiveSetup
    {
        let sampleRate = plan.sampleRate
        var configuration = PracticeJudge.detector(for: notes, sampleRate: Double(sampleRate))
        let tracker: any PitchTracker
        var judging: (any PitchTracker)?
        do throws(PitchTrackerError) {
            tracker = try PitchTrackers.make(configuration)
            configuration.kind = plan.tracker
            configuration.accompanied = plan.accompanied
            if configuration.kind.usesNetwork(accompanied: configuration.accompanied) {
                judging = try PitchTrackers.make(configuration)
            }
        } catch {
            throw SessionError(error.isWeights ? .missing : .usage, "\(error)")
        }
        let ring = SPSCRing<Float>(minimumCapacity: sampleRate * 2, filler: 0)
        let capture: ALSACapture
        do {
            capture = try ALSACapture(device: device, sampleRate: sampleRate, periodFrames: 256, ring: ring)
        } catch {
            throw SessionError(.deviceUnavailable, "\(error)")
        }
        // Played on loudspeakers, the mix reaches the microphone too: what was played is tapped to tell them apart.
        let tap = plan.loudspeakers && plan.output.isDevice ? SPSCRing<Float>(minimumCapacity: sampleRate * 4, filler: 0) : nil
        let mix = try MixOutput(plan.output, resolved: resolved, sampleRate: sampleRate, tap: tap)
        // The singer's own line, as it plays, for learning the loudspeakers' echo against the other lines.
        let singerTap = tap != nil && mix.renderer != nil ? SPSCRing<Float>(minimumCapacity: sampleRate * 4, filler: 0) : nil
        if let singerTap, !resolved.singers.isEmpty { mix.renderer?.tap(lines: resolved.singers, into: singerTap) }
        let echo = tap.map {
            LiveEcho(tap: $0, singerTap: singerTap, sampleRate: sampleRate, hop: configuration.hop, window: configuration.window)
        }
        let recording = try plan.record.map { (path) throws(SessionError) in try TakeRecording(path: path, sampleRate: sampleRate) }
        return LiveSetup(
            tracker: tracker, judging: judging, configuration: configuration, ring: ring, capture: capture, mix: mix, echo: echo,
            recording: recording)
    }

    /// Starts the session on its own thread.
    public func start() throws(SessionError) {
        do {
            let started = try StreamThread("session") { [self] in finishRun(run()) }
            thread.withLock { $0 = started }
        } catch {
            throw SessionError(.audio, "\(error)")
        }
    }

    /// Where the session is now.
    public var snapshot: SessionSnapshot { state.withLock { $0 } }

    /// The monotonic clock of ``SessionSnapshot/heard``, now, in nanoseconds.
    public static func clock() -> Int { AudioClock.now() }

    /// Queues a command for the session's thread.
    public func send(_ command: SessionCommand) {
        inbox.withLock { $0.append(command) }
    }

    /// Ends the session as sung so far; ``wait()`` then returns its report.
    public func cancel() { cancelled.store(true, ordering: .releasing) }

    /// Whether the session has ended.
    public var hasEnded: Bool { result.withLock { $0 != nil } }

    /// Waits for the session to end and returns its report; every verdict is in the history by then.
    public func wait() -> Outcome {
        thread.withLock { $0 }?.joinWhenDone()
        if let outcome = result.withLock({ $0 }) { return outcome }
        // Never started: nothing was judged.
        return Outcome(report: header, ending: .cancelled, historyFailure: recorder?.failure, recording: recorded.withLock { $0 })
    }

    private var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    private func finishRun(_ run: (judged: (results: [NoteResult], trace: [TracePoint]), audio: AudioHealth?, ending: Ending)) {
        var report = header
        report.results = run.judged.results
        report.trace = run.judged.trace
        report.audio = run.audio
        recorder?.finish(audio: run.audio)
        state.withLock { $0.ended = true }
        result.withLock {
            $0 = Outcome(report: report, ending: run.ending, historyFailure: recorder?.failure, recording: recorded.withLock { $0 })
        }
    }

    private func run() -> (judged: (results: [NoteResult], trace: [TracePoint]), audio: AudioHealth?, ending: Ending) {
        switch source {
        case .take(let take): return runTake(take)
        case .live(let live): return runLive(live)
        }
    }

    /// Hands what the judge added since the last call to the history.
    private struct Saver {
        var results = 0, trace = 0
        mutating func save(_ recorder: SessionRecorder?, results all: [NoteResult], trace allTrace: [TracePoint]) {
            recorder?.add(all[results...], trace: allTrace[trace...])
            results = all.count
            trace = allTrace.count
        }
    }

    private func runTake(_ take: TakeSetup) -> (judged: (results: [NoteResult], trace: [TracePoint]), audio: AudioHealth?, ending: Ending) {
        let offset = resolved.schedule.preroll + latency
        let analysis: TakeAnalysis
        do {
            analysis = try TakeAnalysis(
                samples: take.audio.samples, sampleRate: Double(take.audio.sampleRate), notes: notes, start: offset,
                mix: take.heard?.mix, singersLine: take.heard?.singersLine, tracker: plan.tracker, accompanied: plan.accompanied)
        } catch {
            return (([], []), nil, .failed(SessionError(.input, "\(take.path): \(error)")))
        }
        var judge = analysis.judge(notes, options: plan.options)
        var saver = Saver()
        var ending = Ending.completed
        do {
            try take.mix.start()
            var lastSave = -Double.infinity
            for var frame in analysis.frames {
                frame.time -= offset
                try take.mix.advance(to: frame.time + resolved.schedule.preroll)
                _ = judge.add(frame)
                // Every quarter second of the take: hand over, show, and hear a cancel or a quit.
                guard frame.time - lastSave >= 0.25 else { continue }
                saver.save(recorder, results: judge.results, trace: judge.trace)
                publish(time: frame.time, results: judge.results, trace: judge.trace)
                lastSave = frame.time
                if isCancelled { ending = .cancelled }
                if inbox.withLock({ commands in
                    defer { commands.removeAll() }
                    return commands.contains(.quit)
                }) {
                    ending = .quit
                }
                if ending != .completed { break }
            }
            if ending == .completed {
                _ = judge.finish()
                try take.mix.finish()
            } else {
                take.mix.abandon()
            }
        } catch {
            take.mix.abandon()
            ending = .failed(error)
        }
        saver.save(recorder, results: judge.results, trace: judge.trace)
        return ((judge.results, judge.trace), nil, ending)
    }

    private func runLive(_ live: LiveSetup) -> (judged: (results: [NoteResult], trace: [TracePoint]), audio: AudioHealth?, ending: Ending) {
        let sampleRate = plan.sampleRate, rate = Double(sampleRate)
        let (tracker, ring, capture, mix, echo) = (live.tracker, live.ring, live.capture, live.mix, live.echo)
        let preroll = resolved.schedule.preroll
        var judge = SteeredJudge(notes: notes, options: plan.options, start: SteeredJudge.Segment(time: 0, scoreTime: -preroll, speed: 1))
        var transport = Transport(resolved: resolved, notes: notes, renderer: mix.renderer, sampleRate: sampleRate, locked: plan.locked)
        let frames = SlidingWindow(window: live.configuration.window, hop: live.configuration.hop)
        var saver = Saver()
        var ending = Ending.completed
        var position = 0.0
        var lastSung: (time: Double, midi: Double)?
        var heard: Int?
        var lastPublished = -Double.infinity
        do throws(SessionError) {
            try mix.start()
            do { try capture.start(following: mix.playback) } catch { throw SessionError(.audio, "\(error)") }
        } catch {
            capture.stop()
            mix.abandon()
            return (([], []), nil, .failed(error))
        }
        // Played on a device, the mix runs on its own stream: captured frames are put on its time line.
        let alignment = mix.playback.map(\.clock).map { StreamAlignment(capture: capture.clock, playback: $0, sampleRate: sampleRate) }
        do {
            while capture.isRunning && capture.error == nil && !mix.failed {
                if isCancelled {
                    ending = .cancelled
                    break
                }
                if inbox.withLock({ commands in
                    defer { commands.removeAll() }
                    return commands.contains { transport.apply($0) }
                }) {
                    ending = .quit
                    break
                }
                for segment in mix.renderer?.segments() ?? [] {
                    judge.follow(
                        SteeredJudge.Segment(
                            time: Double(segment.frame) / rate, scoreTime: (segment.cursor - Double(transport.zeroSample)) / rate,
                            speed: segment.speed))
                }
                // The next hop's first sample on the mix's time line (by the streams' offset so far), so that the
                // mix's echo can be taken out of it before the tracker hears it.
                let heardAt =
                    alignment == nil
                    ? Double(frames.consumed + ring.dropped) : alignment?.offset.map { Double(frames.consumed + ring.dropped) + $0 }
                let advanced = frames.advance(from: ring) { hop in
                    if let recording = live.recording, let heardAt { recording.add(UnsafeBufferPointer(hop), at: Int(heardAt.rounded())) }
                    if let echo, let heardAt, alignment != nil { echo.cancel(hop, heardFrame: heardAt - latency * rate) }
                }
                guard advanced else {
                    if let segment = judge.segment(at: position - latency) {
                        transport.scoreTime = segment.scoreTime(at: position - latency)
                    }
                    publish(transport, judge: judge, sung: lastSung, at: position - latency, heard: heard, live: live)
                    // Wait about as long as the rest of the hop takes to arrive.
                    let missing = max(1, frames.hop - ring.available)
                    usleep(UInt32(max(500, min(10_000, missing * 1_000_000 / sampleRate))))
                    continue
                }
                // Samples the ring dropped were captured all the same.
                let newest = frames.consumed + ring.dropped
                // The frame a front end shows is decided the tracker's delay after its window's newest sample.
                if let reading = capture.clock.reading {
                    heard = reading.nanoseconds + (newest - reading.frame) * 1_000_000_000 / sampleRate - Int(tracker.delay * 1e9)
                }
                var frame = Double(newest) - Double(frames.window) / 2
                if let alignment {
                    alignment.update()
                    guard let offset = alignment.offset else { continue }
                    frame += offset
                }
                position = frame / rate
                try mix.advance(to: position)
                let time = position - latency
                guard frames.isFull else { continue }
                // The trackers decide each frame a few hops after analysing it (the learned one, a few more).
                let level = echo?.echoLevel ?? 0
                let shown = frames.withSamples { tracker.analyse($0, time: time, accompaniment: level) }
                let judged = live.judging.map { judging in frames.withSamples { judging.analyse($0, time: time, accompaniment: level) } }
                if let shown, let midi = judge.sungPitch(shown) { lastSung = (shown.time, midi) }
                guard let pitch = live.judging == nil ? shown : judged ?? nil else { continue }
                judge.add(pitch)
                if pitch.time - lastPublished >= 0.25 {
                    saver.save(recorder, results: judge.results, trace: judge.trace)
                    lastPublished = pitch.time
                }
                if let renderer = mix.renderer {
                    if renderer.isFinished && position >= Double(renderer.position) / rate { break }
                } else if time > preroll + resolved.schedule.length + 0.5 {
                    break
                }
            }
        } catch {
            ending = .failed(error)
        }
        // Read while the streams run: a stalled stream's error is that it runs without moving.
        let deviceError = capture.error ?? mix.playback?.error
        capture.stop()
        if let recording = live.recording { recorded.withLock { $0 = recording.finish(latency: latency) } }
        (live.judging ?? tracker).finish { judge.add($0) }
        judge.finish(at: position - latency)
        if ending == .completed, let deviceError { ending = .failed(SessionError(.audio, "\(deviceError)")) }
        do {
            if case .failed = ending { mix.abandon() } else { try mix.finish() }
        } catch {
            ending = .failed(error)
        }
        saver.save(recorder, results: judge.results, trace: judge.trace)
        let audio = AudioHealth(
            underruns: mix.underruns, overruns: capture.overruns, droppedSamples: ring.dropped, error: deviceError.map { "\($0)" },
            loudspeakersDecibels: echo.flatMap { AudioHealth.loudspeakers(gain: $0.gain) })
        return ((judge.results, judge.trace), audio, ending)
    }

    /// A recorded take's progress, for the snapshot.
    private func publish(time: Double, results: [NoteResult], trace: [TracePoint]) {
        let (measure, beat) = resolved.position(at: time)
        state.withLock {
            $0.time = time
            $0.measure = measure
            $0.beat = beat
            $0.results = results
            $0.current = notes.last { $0.onset <= time && $0.end > time }
            $0.next = notes.first { $0.onset > time }
            $0.trace = Array(trace.suffix(400).drop { $0.time < time - 10 })
        }
    }

    /// A live session's state, for the snapshot: where playback is, what the transport has changed, what the
    /// judge has heard and decided.
    private func publish(
        _ transport: Transport, judge: SteeredJudge, sung: (time: Double, midi: Double)?, at time: Double, heard: Int?,
        live: LiveSetup
    ) {
        let scoreTime = transport.scoreTime
        let (measure, beat) = resolved.position(at: scoreTime)
        let marks = header.measureStarts
        state.withLock {
            $0.time = scoreTime
            $0.measure = measure
            $0.beat = beat
            $0.tempo = resolved.schedule.initialTempo * Double(transport.percent) / 100
            $0.tempoPercent = transport.percent
            $0.paused = transport.paused
            $0.loop = transport.looping.map { (marks[$0.lowerBound].number, marks[$0.upperBound].number) }
            $0.mineMuted = transport.mineMuted
            $0.pass = judge.pass
            $0.current = notes.last { $0.onset <= scoreTime && $0.end > scoreTime }
            $0.next = notes.first { $0.onset > scoreTime }
            $0.sung = sung.flatMap { time - $0.time < 0.15 ? $0.midi : nil }
            $0.heard = heard
            $0.judgeDelay = live.judging.map(\.delay)
            if $0.results.count != judge.results.count { $0.results = judge.results }
            $0.trace = Array(judge.trace.suffix(400).drop { $0.time < scoreTime - 10 })
            $0.audio = AudioHealth(
                underruns: live.mix.underruns, overruns: live.capture.overruns, droppedSamples: live.ring.dropped, error: nil,
                loudspeakersDecibels: nil)
        }
    }
}
