import ChoirAudio
import ChoirPitch
import ChoirPractice
import Glibc

/// A live session's loop, on the session's thread: drains the capture thread's ring hop by hop, puts each hop on
/// the mix's time line (recording it and taking the loudspeakers' echo out), steers the mix with the singer's
/// commands, analyses and judges every frame, and hands the history and the front ends what is new. Between hops
/// it waits for the capture's next period. The real-time threads (capture, playback) only fill
/// and drain rings; everything that allocates, locks or writes happens here.
struct LiveRun {
    let input: LiveInput
    let plan: PracticePlan
    let resolved: ResolvedPlayback
    let notes: [ExpectedNote]
    let latency: Double
    let inbox: SessionInbox
    var feed: HistoryFeed
    var publisher: SessionPublisher

    mutating func run() -> SessionRun {
        let sampleRate = plan.sampleRate, rate = Double(sampleRate)
        let (tracker, ring, capture, mix, echo) = (input.tracker, input.ring, input.capture, input.mix, input.echo)
        let preroll = resolved.schedule.preroll
        var judge = SteeredJudge(notes: notes, options: plan.options, start: SteeredJudge.Segment(time: 0, scoreTime: -preroll, speed: 1))
        var transport = Transport(resolved: resolved, notes: notes, renderer: mix.renderer, sampleRate: sampleRate, locked: plan.locked)
        // The tracker reads the newest part of the window; the spectra, which time entrances, the whole of it.
        let window = input.configuration.window, analyser = input.spectra
        let frames = SlidingWindow(window: max(window, analyser.length), hop: input.configuration.hop)
        var ending = PracticeSession.Ending.completed
        var position = 0.0
        var lastSung: (time: Double, midi: Double)?
        var heard: Int?
        var lastSaved = -Double.infinity
        do throws(SessionError) {
            try mix.start()
            do { try capture.start(following: mix.playback) } catch { throw SessionError(.audio, "\(error)") }
        } catch {
            capture.stop()
            mix.abandon()
            return SessionRun(ending: .failed(error))
        }
        // Played on a device, the mix runs on its own stream: captured frames are put on its time line.
        let alignment = mix.playback.map(\.clock).map { StreamAlignment(capture: capture.clock, playback: $0, sampleRate: sampleRate) }
        do {
            while capture.isRunning && capture.error == nil && !mix.failed {
                if inbox.isCancelled {
                    ending = .cancelled
                    break
                }
                if inbox.take().contains(where: { transport.apply($0) }) {
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
                    if let recording = input.recording, let heardAt { recording.add(UnsafeBufferPointer(hop), at: Int(heardAt.rounded())) }
                    if let echo, let heardAt, alignment != nil { echo.cancel(hop, heardFrame: heardAt - latency * rate) }
                }
                guard advanced else {
                    if let segment = judge.segment(at: position - latency) {
                        transport.scoreTime = segment.scoreTime(at: position - latency)
                    }
                    publish(transport, judge: judge, sung: lastSung, at: position - latency, heard: heard)
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
                // The trackers decide each frame a few hops after analysing it (the learned one, a few more).
                let level = echo?.echoLevel ?? 0
                let (shown, judged) = frames.withSamples { samples in
                    let newest = UnsafeBufferPointer(rebasing: samples.suffix(window))
                    return (
                        tracker.analyse(newest, time: time, accompaniment: level),
                        input.judging.map { $0.analyse(newest, time: time, accompaniment: level) }
                    )
                }
                if let shown, let midi = judge.sungPitch(shown) { lastSung = (shown.time, midi) }
                guard let pitch = input.judging == nil ? shown : judged ?? nil else { continue }
                judge.add(pitch)
                if pitch.time - lastSaved >= 0.25 {
                    feed.save(results: resolved.numbered(judge.results), trace: judge.trace)
                    lastSaved = pitch.time
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
        let recording = input.recording?.finish(latency: latency)
        (input.judging ?? tracker).finish { judge.add($0) }
        judge.finish(at: position - latency)
        if ending == .completed, let deviceError { ending = .failed(SessionError(.audio, "\(deviceError)")) }
        var mixFile: String?
        do {
            if case .failed = ending { mix.abandon() } else { mixFile = try mix.finish() }
        } catch {
            ending = .failed(error)
        }
        feed.save(results: resolved.numbered(judge.results), trace: judge.trace)
        let audio = AudioHealth(
            underruns: mix.underruns, overruns: capture.overruns, droppedSamples: ring.dropped, error: deviceError.map { "\($0)" },
            loudspeakersDecibels: echo.flatMap { AudioHealth.loudspeakers(gain: $0.gain) })
        return SessionRun(
            results: resolved.numbered(judge.results), trace: judge.trace, audio: audio, ending: ending,
            place: (resolved.position(at: transport.scoreTime).measure, judge.pass + resolved.pass(at: transport.scoreTime) - 1),
            published: publisher.published, recording: recording, mixFile: mixFile)
    }

    /// Publishes where playback is, what the transport has changed, and what the judge has heard and decided; the
    /// pitch sung shows while it is fresh (decided in the last 0.15 s).
    private mutating func publish(
        _ transport: Transport, judge: SteeredJudge, sung: (time: Double, midi: Double)?, at time: Double, heard: Int?
    ) {
        let scoreTime = transport.scoreTime
        publisher.publish(
            at: scoreTime, transport: transport.state, pass: judge.pass + resolved.pass(at: scoreTime) - 1,
            results: judge.results, trace: judge.trace, sung: sung.flatMap { time - $0.time < 0.15 ? $0.midi : nil }, heard: heard,
            audio: AudioHealth(
                underruns: input.mix.underruns, overruns: input.capture.overruns, droppedSamples: input.ring.dropped, error: nil,
                loudspeakersDecibels: nil))
    }
}
