import ArgumentParser
import ChoirAudio
import ChoirPitch
import ChoirPlayback
import ChoirPractice
import ChoirScore
import FoundationEssentials
import Glibc

/// The audio side of a practice session: the mix out, the microphone (or a take) in, on one clock whose
/// zero is the first beat of the practised range.
struct SessionAudio {
    var resolved: PlaybackArguments.Resolved
    var notes: [ExpectedNote]
    var options: NoteComparator.Options
    var sampleRate: Int
    /// Whether the microphone may hear the mix from loudspeakers, to be told apart from the singer.
    var loudspeakers: Bool

    /// Judges a recorded take, as fast as the machine allows when the mix goes to a file or nowhere.
    func judgeFile(_ path: String, latency: Double, output: String, recorder: HistoryRecorder) throws -> PracticeJudge {
        let take: WAVFile.Audio
        do { take = try WAVFile.read(contentsOf: path) } catch { throw fail(error) }
        guard (8000...192_000).contains(take.sampleRate) else {
            throw fail("\(path): sample rate \(take.sampleRate) Hz: expected 8000 to 192000 Hz")
        }
        // With a count-in the take starts with it; otherwise its time 0 is the first beat.
        let offset = resolved.schedule.preroll + latency
        let last = notes.last!
        guard take.duration - offset > last.onset else {
            throw fail("\(path): the take is \(String(printf: "%.1f", take.duration)) s long: expected at least "
                + "\(String(printf: "%.1f", last.onset + offset)) s, to the last note of the practised range")
        }
        var heard: (mix: [Float], singersLine: [Float]?)?
        if loudspeakers {
            do { heard = try played(sampleRate: take.sampleRate, latency: latency, length: take.samples.count) } catch { throw fail("\(error)") }
        }
        let analysis: TakeAnalysis
        do {
            analysis = try TakeAnalysis(
                samples: take.samples, sampleRate: Double(take.sampleRate), notes: notes, start: offset, mix: heard?.mix,
                singersLine: heard?.singersLine)
        } catch {
            throw fail("\(path): \(error)")
        }
        var judge = analysis.judge(notes, options: options)
        let mix = try MixOutput(output, resolved: resolved, sampleRate: sampleRate)
        try mix.start()
        var lastSave = 0.0
        for var frame in analysis.frames {
            if interrupted.load(ordering: .relaxed) { break }
            frame.time -= offset
            try mix.advance(to: frame.time + resolved.schedule.preroll)
            _ = judge.add(frame)
            if frame.time - lastSave >= 1 {
                recorder.save(judge)
                lastSave = frame.time
            }
        }
        if !interrupted.load(ordering: .relaxed) { _ = judge.finish() }
        try mix.finish()
        return judge
    }

    /// The mix as the take's microphone heard it from loudspeakers, and the singer's own line's share of it: mono
    /// at the take's sample rate, sample for sample with the take (whose time 0 is the mix's, `latency` later), so
    /// that the judge can take the loudspeakers' echo out.
    private func played(sampleRate: Int, latency: Double, length: Int) throws -> (mix: [Float], singersLine: [Float]?) {
        let renderer = try SynthRenderer(
            soundFont: resolved.soundFont, sampleRate: sampleRate, schedule: resolved.schedule, programs: resolved.programs,
            mixer: resolved.mixer, blockSize: 4096)
        let line = resolved.singer.map { singer in
            let ring = SPSCRing<Float>(minimumCapacity: renderer.totalFrames + 1, filler: 0)
            renderer.tap(line: singer, into: ring)
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

    /// Judges the microphone live while the mix plays; on a terminal the singer steers it with keys and
    /// watches the live view, otherwise one line per measure is printed.
    func judgeLive(device: String, latency: Double, output: String, locked: Bool, recorder: HistoryRecorder) throws -> LiveTake {
        let configuration = PracticeJudge.detector(for: notes, sampleRate: Double(sampleRate))
        let tracker: PitchTracker
        do { tracker = try PitchTracker(configuration) } catch { throw fail("\(error)") }
        let ring = SPSCRing<Float>(minimumCapacity: sampleRate * 2, filler: 0)
        let capture: ALSACapture
        do {
            capture = try ALSACapture(device: device, sampleRate: sampleRate, periodFrames: 256, ring: ring)
        } catch {
            throw unavailable("\(error); to practise with a recording, use --input take.wav --output mix.wav")
        }
        // Played on loudspeakers, the mix reaches the microphone too: what was played is tapped to tell them apart.
        let tap = loudspeakers && MixOutput.isDevice(output) ? SPSCRing<Float>(minimumCapacity: sampleRate * 4, filler: 0) : nil
        let mix = try MixOutput(output, resolved: resolved, sampleRate: sampleRate, tap: tap)
        // The singer's own line, as it plays, for learning the loudspeakers' echo against the other lines.
        let singerTap = tap != nil && mix.renderer != nil ? SPSCRing<Float>(minimumCapacity: sampleRate * 4, filler: 0) : nil
        if let singerTap, let singer = resolved.singer { mix.renderer?.tap(line: singer, into: singerTap) }
        let echo = tap.map {
            LiveEcho(tap: $0, singerTap: singerTap, sampleRate: sampleRate, hop: configuration.hop, window: configuration.window)
        }
        let rate = Double(sampleRate)
        let preroll = resolved.schedule.preroll
        let start = SteeredJudge.Segment(time: 0, scoreTime: -preroll, speed: 1)
        var judge = SteeredJudge(notes: notes, options: options, start: start)
        var controls = LiveControls(resolved: resolved, notes: notes, renderer: mix.renderer, sampleRate: sampleRate, locked: locked)
        do {
            try capture.start(following: mix.playback)
        } catch {
            throw fail("\(error)")
        }
        let frames = SlidingWindow(window: configuration.window, hop: configuration.hop)
        // Played on a device, the mix runs on its own stream: captured frames are put on its time line.
        let alignment = mix.playback.map(\.clock).map { StreamAlignment(capture: capture.clock, playback: $0, sampleRate: sampleRate) }
        var lastSave = 0.0
        var lastSung: (time: Double, midi: Double)?
        var position = 0.0
        var heard: Int?
        while !interrupted.load(ordering: .relaxed) && capture.isRunning && capture.error == nil && !mix.failed && !controls.quit {
            controls.poll()
            for segment in mix.renderer?.segments() ?? [] {
                judge.follow(SteeredJudge.Segment(
                    time: Double(segment.frame) / rate, scoreTime: (segment.cursor - Double(controls.zeroSample)) / rate,
                    speed: segment.speed))
            }
            // The next hop's first sample on the mix's time line (by the streams' offset so far), so that the mix's
            // echo can be taken out of it before the tracker hears it.
            let hopFrame = alignment?.offset.map { Double(frames.consumed + ring.dropped) + $0 - latency * rate }
            let advanced = frames.advance(from: ring) { hop in
                if let echo, let hopFrame { echo.cancel(hop, heardFrame: hopFrame) }
            }
            guard advanced else {
                controls.show(judge: judge, at: position - latency, sung: lastSung, heard: heard)
                usleep(2000)
                continue
            }
            // Samples the ring dropped were captured all the same.
            let newest = frames.consumed + ring.dropped
            // The frame the view shows is decided the tracker's delay after its window's newest sample.
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
            // The tracker decides each frame a few hops after analysing it.
            guard let pitch = frames.withSamples({ tracker.analyse($0, time: time, accompaniment: echo?.echoLevel ?? 0) }) else {
                continue
            }
            if judge.add(pitch) > 0, pitch.time - lastSave >= 1 {
                recorder.save(LiveTake(judge: judge))
                lastSave = pitch.time
            }
            if judge.isSung(pitch) { lastSung = (pitch.time, 69 + 12 * log2(pitch.frequency / 440)) }
            if let renderer = mix.renderer {
                if renderer.isFinished && position >= Double(renderer.position) / rate { break }
            } else if time > preroll + resolved.schedule.length + 0.5 {
                break
            }
        }
        // Read while the streams run: a stalled stream's error is that it runs without moving.
        let error = capture.error ?? mix.playback?.error
        capture.stop()
        controls.close()
        tracker.finish { judge.add($0) }
        judge.finish(at: position - latency)
        try mix.finish()
        var standardError = StandardError()
        if let lag = controls.lag {
            print("choir: the view showed what was sung \(lag.median) ms after it was captured (median; 95%: \(lag.percentile95) ms, "
                + "at most \(lag.maximum) ms), plus the analysis window's \(1000 * frames.window / 2 / sampleRate) ms to its centre", to: &standardError)
        }
        if let error {
            print("choir: \(error); the session ends here", to: &standardError)
        }
        let audio = AudioHealth(
            underruns: mix.underruns, overruns: capture.overruns, droppedSamples: ring.dropped, error: error.map { "\($0)" },
            loudspeakersDecibels: echo.flatMap { AudioHealth.loudspeakers(gain: $0.gain) })
        return LiveTake(judge: judge, audio: audio, quit: controls.quit)
    }
}

/// Where a session's mix goes: an ALSA device (played on its real-time thread), a WAV file (rendered in
/// step with the judging), or nowhere.
final class MixOutput {
    let renderer: SynthRenderer?
    private let writer: WAVWriter?
    /// The device the mix plays on, if it goes to one.
    let playback: ALSAPlayback?
    private var left: [Float], right: [Float]

    /// Whether `output` names an audio device rather than a file or nowhere.
    static func isDevice(_ output: String) -> Bool { output != "none" && !output.lowercased().hasSuffix(".wav") }

    /// Opens `output`; a device's playback thread feeds `tap` with every frame it plays.
    init(_ output: String, resolved: PlaybackArguments.Resolved, sampleRate: Int, tap: SPSCRing<Float>? = nil) throws {
        left = [Float](repeating: 0, count: 4096)
        right = left
        if output == "none" {
            renderer = nil; writer = nil; playback = nil
            return
        }
        let isFile = output.lowercased().hasSuffix(".wav")
        do {
            let synth = try SynthRenderer(
                soundFont: resolved.soundFont, sampleRate: sampleRate, schedule: resolved.schedule,
                programs: resolved.programs, mixer: resolved.mixer, blockSize: isFile ? 4096 : 256,
                promptProgram: resolved.singer.map { resolved.programs[$0] })
            renderer = synth
            if isFile {
                writer = try WAVWriter(path: output, channels: 2, sampleRate: sampleRate)
                playback = nil
            } else {
                writer = nil
                playback = try ALSAPlayback(device: output, sampleRate: sampleRate, periodFrames: 256, source: synth, tap: tap)
            }
        } catch let error as AudioDeviceError {
            throw unavailable("\(error); to practise with a recording, use --input take.wav --output mix.wav")
        } catch {
            throw fail("\(error)")
        }
    }

    var failed: Bool { playback?.error != nil }
    var underruns: Int { playback?.underruns ?? 0 }

    func start() throws {
        do { try playback?.start() } catch { throw fail(error) }
    }

    /// Renders the file's mix up to `seconds` from its start (the device plays on its own clock).
    func advance(to seconds: Double) throws {
        guard let renderer, let writer else { return }
        let target = min(renderer.totalFrames, Int(seconds * Double(renderer.sampleRate)))
        while renderer.position < target {
            try left.withUnsafeMutableBufferPointer { l in
                try right.withUnsafeMutableBufferPointer { r in
                    let count = renderer.render(left: l.baseAddress!, right: r.baseAddress!, frames: min(4096, target - renderer.position))
                    do { try writer.append(left: l.baseAddress!, right: r.baseAddress!, frames: count) } catch { throw fail("\(error)") }
                }
            }
        }
    }

    func finish() throws {
        if let renderer { try advance(to: Double(renderer.totalFrames) / Double(renderer.sampleRate)) }
        playback?.stop()
        do { try writer?.finish() } catch { throw fail(error) }
    }
}

/// Prints `message` as one line and exits with ``Choir/Practice/deviceUnavailable``.
func unavailable(_ message: String) -> ExitCode {
    var standardError = StandardError()
    print("choir: \(message)", to: &standardError)
    return ExitCode(Choir.Practice.deviceUnavailable)
}
