import ChoirAudio
import ChoirBase
import ChoirPitch
import ChoirPlayback
import ChoirPractice
import ChoirScore
import Glibc
import Synchronization

/// A practice session: the mix out, the singer's voice in, every note judged on one clock whose zero is the first
/// beat of the practised range, and the session kept in the history as it goes.
///
/// A front end builds it from a ``PracticePlan`` (devices and files are opened there, so that their errors come
/// first), subscribes to its ``events()``, calls ``start()``, sends ``SessionCommand``s, may ``cancel()``, and gets the
/// report as the last event or from ``wait()``. The session runs on a thread of its own, which turns what the
/// real-time threads leave in their rings into events; every member may be used from any thread.
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
    /// The singer's notes in the range, on the score's clock (of a take, those it may hold).
    public let notes: [ExpectedNote]
    /// All the singer's notes in the range, a take's or not: what a take too short for them leaves unsung.
    private let range: [ExpectedNote]
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
    private let broadcaster: EventBroadcaster<SessionEvent, SessionSnapshot>
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
        var audio: AudioFile.Audio
        var heard: (mix: [Float], singersLine: [Float]?)?
        var mix: MixOutput
    }

    private struct LiveSetup {
        var tracker: any PitchTracker
        var configuration: PitchTrackerConfiguration
        var spectra: SpectrumAnalyser
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
        let range = ExpectedNote.notes(of: resolved.singers, in: resolved.schedule, score: resolved.score, divisi: plan.divisi)
        var notes = range
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
            let take = try Self.openTake(path, plan: plan, resolved: resolved, latency: latency)
            // A take shorter than the range is judged up to its end: the notes it holds whole (a take moved to fit
            // the score may hold a few more or fewer, which the session finds once it has heard it).
            let end = take.audio.duration - resolved.schedule.preroll - latency + (plan.aligns ? TakeAlignment.reach : 0)
            let covered = notes.prefix { $0.onset + $0.duration <= end }
            guard !covered.isEmpty else {
                throw SessionError(
                    .input,
                    "\(path): the take is \(String(printf: "%.1f", take.audio.duration)) s long: expected at "
                        + "least \(String(printf: "%.1f", notes[0].onset + notes[0].duration + resolved.schedule.preroll + latency)) s, "
                        + "to the end of the first note of the practised range")
            }
            notes = Array(covered)
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
        self.range = range
        self.header = header
        var start = SessionSnapshot()
        start.tempo = resolved.schedule.initialTempo
        start.locked = plan.locked
        start.passes = resolved.schedule.passes
        start.next = notes.first
        start.time = -resolved.schedule.preroll
        broadcaster = EventBroadcaster(start)
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
        report.title = resolved.title
        report.identity = resolved.identity
        report.transpose = plan.playback.transpose
        report.verse = plan.playback.verse
        report.lyrics = resolved.schedule.lyrics
        // Chords in the singer's own lines: one of their notes is judged, and the report says which.
        let chords = ExpectedNote.chords(of: resolved.singers, in: resolved.schedule).count { Set($0.map(\.midi)).count > 1 }
        if chords > 0 { report.divisi = SessionReport.DivisiChoice(note: plan.divisi, chords: chords) }
        report.kind = plan.input.isTake ? .file : .live
        // The singer's marks on these measures (a history that cannot be read has none to give).
        if let history = plan.history,
            let marks = try? PracticeHistory(path: history).marks(of: resolved.identity, lines: report.lines)
        {
            report.keep(marks)
        }
        return report
    }

    private static func openTake(_ path: String, plan: PracticePlan, resolved: ResolvedPlayback, latency: Double)
        throws(SessionError) -> TakeSetup
    {
        let take: AudioFile.Audio
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
        let configuration = PracticeJudge.detector(for: notes, sampleRate: Double(sampleRate))
        let tracker: any PitchTracker
        do { tracker = try PitchTrackers.make(configuration) } catch { throw SessionError(.usage, "\(error)") }
        let ring = SPSCRing<Float>(minimumCapacity: sampleRate * 2, filler: 0)
        let capture: ALSACapture
        do {
            capture = try ALSACapture(device: device, sampleRate: sampleRate, periodFrames: 256, ring: ring)
        } catch {
            throw SessionError(.deviceUnavailable, "\(error)")
        }
        // Played on loudspeakers, the mix reaches the microphone too: what was played is tapped to tell them apart.
        let tap = plan.loudspeakers && plan.output.isDevice ? SPSCRing<Float>(minimumCapacity: sampleRate * 4, filler: 0) : nil
        let mix = try MixOutput(plan.output, resolved: resolved, sampleRate: sampleRate, tap: tap, paced: true)
        // The singer's own line, as it plays, for learning the loudspeakers' echo against the other lines.
        let singerTap = tap != nil && mix.renderer != nil ? SPSCRing<Float>(minimumCapacity: sampleRate * 4, filler: 0) : nil
        if let singerTap, !resolved.singers.isEmpty { mix.renderer?.tap(lines: resolved.singers, into: singerTap) }
        let echo = tap.map {
            LiveEcho(tap: $0, singerTap: singerTap, sampleRate: sampleRate, hop: configuration.hop, window: configuration.window)
        }
        let recording = try plan.record.map { (path) throws(SessionError) in try TakeRecording(path: path, sampleRate: sampleRate) }
        return LiveSetup(
            tracker: tracker, configuration: configuration, spectra: SpectrumAnalyser(sampleRate: Double(sampleRate)), ring: ring,
            capture: capture, mix: mix, echo: echo, recording: recording)
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

    /// What happens in the session from now on, as it happens: each call gives a stream of its own (see
    /// ``EventBroadcaster`` for how much a slow subscriber may fall behind).
    public func events() -> AsyncStream<SessionEvent> { broadcaster.subscribe() }

    /// The monotonic clock of ``SessionSnapshot/heard``, now, in nanoseconds.
    public static func clock() -> Int { AudioClock.now() }

    /// Queues a command for the session's thread.
    public func send(_ command: SessionCommand) {
        inbox.withLock { $0.append(command) }
    }

    /// Ends the session as sung so far; ``wait()`` then returns its report.
    public func cancel() { cancelled.store(true, ordering: .releasing) }

    /// Waits for the session to end and returns its report; every verdict is in the history by then.
    public func wait() -> Outcome {
        thread.withLock { $0 }?.joinWhenDone()
        if let outcome = result.withLock({ $0 }) { return outcome }
        // Never started: nothing was judged.
        return Outcome(report: header, ending: .cancelled, historyFailure: recorder?.failure, recording: recorded.withLock { $0 })
    }

    private var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// What a run of the session came to: what was judged, how the audio fared, how it ended and where the music
    /// was then (its measure and pass; nil for a run that failed before the music began).
    private struct Run {
        var results: [NoteResult] = []
        var trace: [TracePoint] = []
        var audio: AudioHealth?
        var ending: Ending
        var place: (measure: String, pass: Int)?
        /// Seconds a take was moved by to fit the score (``TakeAlignment``).
        var alignment: Double?
        /// The notes a take ended before.
        var unsung: SessionReport.Unsung?
        /// How many of the results have been published as events.
        var published = 0
    }

    private func finishRun(_ run: Run) {
        var report = header
        report.results = run.results
        report.trace = run.trace
        report.audio = run.audio
        report.alignment = run.alignment
        report.unsung = run.unsung
        // Ended before its range was done (quit, a signal, a closed window, a failure), the session is kept as
        // interrupted with what was sung, saying where it stopped.
        if run.ending != .completed, let place = run.place {
            report.interruption = SessionReport.Interruption(
                measure: place.measure, pass: place.pass, passes: resolved.schedule.passes, notes: range.count
            )
        }
        recorder?.finish(audio: run.audio, interrupted: report.interruption, aligned: run.alignment)
        let outcome = Outcome(report: report, ending: run.ending, historyFailure: recorder?.failure, recording: recorded.withLock { $0 })
        result.withLock { $0 = outcome }
        for judged in run.results[min(run.published, run.results.count)...] { broadcaster.publish(.judged(judged)) }
        if let audio = run.audio { broadcaster.publish(.audio(audio)) }
        broadcaster.finish(with: .ended(outcome))
    }

    private func run() -> Run {
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

    private func runTake(_ take: TakeSetup) -> Run {
        var offset = resolved.schedule.preroll + latency
        let analysis: TakeAnalysis
        do {
            analysis = try TakeAnalysis(
                samples: take.audio.samples, sampleRate: Double(take.audio.sampleRate), notes: notes, start: offset,
                mix: take.heard?.mix, singersLine: take.heard?.singersLine)
        } catch {
            return Run(ending: .failed(SessionError(.input, "\(take.path): \(error)")))
        }
        var run = Run(ending: .completed)
        if plan.aligns {
            let shift = analysis.alignment(of: notes, options: plan.options, start: offset)
            offset += shift
            if shift != 0 { run.alignment = shift }
        }
        // A take shorter than the range is judged up to its end: the notes it holds whole. One that starts after
        // the first beat (cut) cannot be heard coming in on the notes it cuts into.
        let end = take.audio.duration - offset
        let notes = self.notes.prefix { $0.onset + $0.duration <= end }.map { note in
            var heard = note
            if note.onset + offset < 0 { heard.isEntrance = false }
            return heard
        }
        if notes.count < range.count {
            run.unsung = SessionReport.Unsung(notes: range.count - notes.count, measure: range[notes.count].measure)
        }
        guard !notes.isEmpty else {
            run.ending = .failed(
                SessionError(
                    .input,
                    "\(take.path): the take is \(String(printf: "%.1f", take.audio.duration)) s long"
                        + (run.alignment.map { ", its singing moved \(String(printf: "%+.2f", $0)) s to fit the score" } ?? "")
                        + ": expected at least \(String(printf: "%.1f", range[0].onset + range[0].duration + offset)) s, "
                        + "to the end of the first note of the practised range"))
            return run
        }
        var judge = analysis.judge(Array(notes), options: plan.options)
        var saver = Saver()
        var published = Published()
        var ending = Ending.completed
        var lastSave = -Double.infinity
        do throws(SessionError) {
            try take.mix.start()
            try analysis.feed(&judge, offset: offset) { (judge, time) throws(SessionError) -> Bool in
                try take.mix.advance(to: time + resolved.schedule.preroll)
                // Every quarter second of the take: hand over, show, and hear a cancel or a quit.
                guard time - lastSave >= 0.25 else { return true }
                saver.save(recorder, results: numbered(judge.results), trace: judge.trace)
                publish(&published, at: time, pass: resolved.pass(at: time), results: judge.results, trace: judge.trace)
                lastSave = time
                if isCancelled { ending = .cancelled }
                if inbox.withLock({ commands in
                    defer { commands.removeAll() }
                    return commands.contains(.quit)
                }) {
                    ending = .quit
                }
                return ending == .completed
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
        saver.save(recorder, results: numbered(judge.results), trace: judge.trace)
        run.results = numbered(judge.results)
        run.trace = judge.trace
        run.published = published.results
        run.ending = ending
        run.place = (resolved.position(at: lastSave).measure, resolved.pass(at: lastSave))
        return run
    }

    private func runLive(_ live: LiveSetup) -> Run {
        let sampleRate = plan.sampleRate, rate = Double(sampleRate)
        let (tracker, ring, capture, mix, echo) = (live.tracker, live.ring, live.capture, live.mix, live.echo)
        let preroll = resolved.schedule.preroll
        var judge = SteeredJudge(notes: notes, options: plan.options, start: SteeredJudge.Segment(time: 0, scoreTime: -preroll, speed: 1))
        var transport = Transport(resolved: resolved, notes: notes, renderer: mix.renderer, sampleRate: sampleRate, locked: plan.locked)
        // The tracker reads the newest part of the window; the spectra, which time entrances, the whole of it.
        let window = live.configuration.window, analyser = live.spectra
        let frames = SlidingWindow(window: max(window, analyser.length), hop: live.configuration.hop)
        var saver = Saver()
        var ending = Ending.completed
        var position = 0.0
        var lastSung: (time: Double, midi: Double)?
        var heard: Int?
        var lastPublished = -Double.infinity
        var published = Published()
        do throws(SessionError) {
            try mix.start()
            do { try capture.start(following: mix.playback) } catch { throw SessionError(.audio, "\(error)") }
        } catch {
            capture.stop()
            mix.abandon()
            return Run(ending: .failed(error))
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
                    publish(&published, transport, judge: judge, sung: lastSung, at: position - latency, heard: heard, live: live)
                    // Wait for the capture's next period (the window took all the ring had).
                    capture.doorbell.wait(timeout: 0.1) { ring.available == 0 && capture.isRunning }
                    continue
                }
                // Samples the ring dropped were captured all the same.
                let newest = frames.consumed + ring.dropped
                // The frame a front end shows is decided the tracker's delay after its window's newest sample.
                if let reading = capture.clock.reading {
                    heard = reading.nanoseconds + (newest - reading.frame) * 1_000_000_000 / sampleRate - Int(tracker.delay * 1e9)
                }
                var frame = Double(newest) - Double(window) / 2
                if let alignment {
                    alignment.update()
                    guard let offset = alignment.offset else { continue }
                    frame += offset
                }
                position = frame / rate
                try mix.advance(to: position)
                let time = position - latency
                guard frames.isFull else { continue }
                let spectrumTime = time - Double(frames.window - window) / 2 / rate
                judge.add(
                    frames.withSamples { analyser.analyse(UnsafeBufferPointer(rebasing: $0.suffix(analyser.length)), time: spectrumTime) })
                // The tracker decides each frame a few hops after analysing it.
                guard
                    let pitch = frames.withSamples({
                        tracker.analyse(UnsafeBufferPointer(rebasing: $0.suffix(window)), time: time, accompaniment: echo?.echoLevel ?? 0)
                    })
                else { continue }
                judge.add(pitch)
                if let midi = judge.sungPitch(pitch) { lastSung = (pitch.time, midi) }
                if pitch.time - lastPublished >= 0.25 {
                    saver.save(recorder, results: numbered(judge.results), trace: judge.trace)
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
        tracker.finish { judge.add($0) }
        judge.finish(at: position - latency)
        if ending == .completed, let deviceError { ending = .failed(SessionError(.audio, "\(deviceError)")) }
        do {
            if case .failed = ending { mix.abandon() } else { try mix.finish() }
        } catch {
            ending = .failed(error)
        }
        saver.save(recorder, results: numbered(judge.results), trace: judge.trace)
        let audio = AudioHealth(
            underruns: mix.underruns, overruns: capture.overruns, droppedSamples: ring.dropped, error: deviceError.map { "\($0)" },
            loudspeakersDecibels: echo.flatMap { AudioHealth.loudspeakers(gain: $0.gain) })
        return Run(
            results: numbered(judge.results), trace: judge.trace, audio: audio, ending: ending,
            place: (resolved.position(at: transport.scoreTime).measure, judge.pass + resolved.pass(at: transport.scoreTime) - 1),
            published: published.results)
    }

    /// `results` with the pass each was sung in: the judge's (a step back, a loop of a phrase) and, with `--loop`,
    /// which time through the range its note is in.
    private func numbered(_ results: [NoteResult]) -> [NoteResult] { results.map(numbered) }

    private func numbered(_ result: NoteResult) -> NoteResult {
        guard resolved.schedule.passes > 1 else { return result }
        var numbered = result
        numbered.pass += resolved.pass(at: result.note.onset) - 1
        return numbered
    }

    /// What the session's thread has published, so that it publishes only what changed.
    private struct Published {
        var position: SessionEvent.Position?
        var transport: SessionEvent.TransportState?
        var pass = 1
        var results = 0
        var trace = 0
        var pitch: (sung: Double?, heard: Int?) = (nil, nil)
        var audio: AudioHealth?
    }

    /// Publishes what changed since `published`: the transport first, then where the music is, the pass, the pitch
    /// and trace, the verdicts (`results`, before they are numbered by pass), and how the devices fare.
    private func publish(
        _ published: inout Published, at time: Double, transport: SessionEvent.TransportState? = nil, pass: Int,
        results: [NoteResult], trace: [TracePoint], sung: Double? = nil, heard: Int? = nil, audio: AudioHealth? = nil
    ) {
        if let transport, transport != published.transport {
            broadcaster.publish(.transport(transport))
            published.transport = transport
        }
        let position = SessionEvent.Position(at: time, in: resolved, notes: notes)
        if position != published.position {
            broadcaster.publish(.position(position))
            published.position = position
        }
        if pass != published.pass {
            broadcaster.publish(.pass(pass))
            published.pass = pass
        }
        if trace.count != published.trace || sung != published.pitch.sung || heard != published.pitch.heard {
            let added = Array(trace.dropFirst(published.trace))
            broadcaster.publish(.pitch(SessionEvent.Pitch(sung: sung, heard: heard, trace: added)))
            published.trace = trace.count
            published.pitch = (sung, heard)
        }
        for result in results.dropFirst(published.results) { broadcaster.publish(.judged(numbered(result))) }
        published.results = max(published.results, results.count)
        if let audio, audio != published.audio {
            broadcaster.publish(.audio(audio))
            published.audio = audio
        }
    }

    /// A live session's state: where playback is, what the transport has changed, what the judge has heard and
    /// decided.
    private func publish(
        _ published: inout Published, _ transport: Transport, judge: SteeredJudge, sung: (time: Double, midi: Double)?,
        at time: Double, heard: Int?, live: LiveSetup
    ) {
        let scoreTime = transport.scoreTime
        publish(
            &published, at: scoreTime, transport: transport.state, pass: judge.pass + resolved.pass(at: scoreTime) - 1,
            results: judge.results, trace: judge.trace, sung: sung.flatMap { time - $0.time < 0.15 ? $0.midi : nil }, heard: heard,
            audio: AudioHealth(
                underruns: live.mix.underruns, overruns: live.capture.overruns, droppedSamples: live.ring.dropped, error: nil,
                loudspeakersDecibels: nil))
    }
}
