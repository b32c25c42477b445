import CALSA
import Glibc
import Synchronization

/// Something that renders stereo audio on demand, from the playback thread: it must not allocate, lock or
/// block. Returns how many frames it wrote (fewer at the end).
public protocol AudioSource: AnyObject {
    func render(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) -> Int
}

/// Plays an `AudioSource` through an ALSA device on a real-time thread, a period at a time.
///
/// The thread renders, interleaves into a buffer allocated at construction and writes; underruns are
/// recovered and counted. Pausing plays silence without advancing the source. The stream starts with half a
/// second of silence before the source's first frame: a sound server (PulseAudio) drops or shifts the first
/// tenths of a second of a stream while it starts it, by a different amount each time, which would cut into
/// a count-in.
public final class ALSAPlayback: @unchecked Sendable {
    public let device: String
    public let sampleRate: Int
    public let periodFrames: Int

    private let pcm: OpaquePointer
    private let source: AudioSource
    private let left: UnsafeMutablePointer<Float>
    private let right: UnsafeMutablePointer<Float>
    private let interleaved: UnsafeMutablePointer<Float>
    private let running = Atomic<Bool>(false)
    private let pausedFlag = Atomic<Bool>(false)
    private let finishedFlag = Atomic<Bool>(false)
    private let underrunCount = Atomic<Int>(0)
    /// When the first ``underrunsPlaced`` underruns came, in nanoseconds after the stream started: each written once
    /// by the playback thread, before the count that publishes it.
    private let underrunsAfter: UnsafeMutablePointer<Int>
    /// When the stream started (``AudioClock/now()``); written before the thread starts.
    private var startedAt = 0
    private let failure = Atomic<Int32>(0)
    private var thread: StreamThread?
    /// Whether the thread was left stuck in the device, which then cannot be closed.
    private let abandoned = Atomic<Bool>(false)
    /// Source frames handed to the device so far; only the playback thread touches it.
    private var rendered = 0
    /// Frames of silence still to be played before the source's first frame; only the playback thread touches it.
    private var leadIn: Int
    /// Which source frame is being heard when; see ``AudioClock``.
    public let clock = AudioClock()
    /// Rung after each period handed to the device, and when the stream ends.
    public let doorbell: Doorbell
    /// Receives every source frame played, mixed to mono, for a listener who needs to know what was played (a
    /// practice session telling the singer from the loudspeakers). Frames that do not fit are dropped.
    public let tap: SPSCRing<Float>?
    private let mono: UnsafeMutablePointer<Float>

    public init(
        device: String, sampleRate: Int, periodFrames: Int = 256, source: AudioSource, tap: SPSCRing<Float>? = nil
    ) throws(AudioDeviceError) {
        doorbell = try Doorbell()
        let handle = try ALSADevice.open(device, capture: false, channels: 2, sampleRate: sampleRate, periodFrames: periodFrames)
        pcm = handle
        self.device = device
        self.sampleRate = sampleRate
        self.periodFrames = periodFrames
        self.source = source
        self.tap = tap
        leadIn = sampleRate / 2
        mono = .allocate(capacity: periodFrames)
        mono.initialize(repeating: 0, count: periodFrames)
        left = .allocate(capacity: periodFrames)
        right = .allocate(capacity: periodFrames)
        interleaved = .allocate(capacity: 2 * periodFrames)
        left.initialize(repeating: 0, count: periodFrames)
        right.initialize(repeating: 0, count: periodFrames)
        interleaved.initialize(repeating: 0, count: 2 * periodFrames)
        underrunsAfter = .allocate(capacity: Self.underrunsPlaced)
        underrunsAfter.initialize(repeating: 0, count: Self.underrunsPlaced)
    }

    deinit {
        stop()
        guard !abandoned.load(ordering: .acquiring) else { return }
        ALSADevice.close(pcm)
        left.deallocate()
        right.deallocate()
        interleaved.deallocate()
        mono.deallocate()
        underrunsAfter.deallocate()
    }

    public var underruns: Int { underrunCount.load(ordering: .relaxed) }
    /// How many underruns are placed in time; the rest are only counted.
    public static let underrunsPlaced = 8
    /// How long after the stream started each of the first ``underrunsPlaced`` underruns came, in seconds: whether
    /// it was the stream's start or something that held the process up later.
    public var underrunTimes: [Double] {
        let count = min(Self.underrunsPlaced, underrunCount.load(ordering: .acquiring))
        return (0..<count).map { Double(underrunsAfter[$0]) / 1e9 }
    }
    /// The source frame being heard now (negative during the lead-in), or nil before the device plays.
    public var heardFrame: Double? { clock.reading?.frame(at: AudioClock.now(), sampleRate: sampleRate) }
    /// Whether the source has run out and its last frames were written.
    public var isFinished: Bool { finishedFlag.load(ordering: .acquiring) }
    public var isPaused: Bool {
        get { pausedFlag.load(ordering: .relaxed) }
        set { pausedFlag.store(newValue, ordering: .relaxed) }
    }

    /// The error that ended playback, if the device failed, disappeared or stopped taking frames.
    public var error: AudioDeviceError? {
        let code = failure.load(ordering: .acquiring)
        if code != 0 { return AudioDeviceError(description: "playback device '\(device)' failed: \(String(cString: snd_strerror(code)))") }
        // Paused, the thread plays silence: its clock moves on all the same.
        // A thread that did not come back when asked to stop is stuck in a device that no longer answers, however
        // recently it last moved a frame.
        if (running.load(ordering: .acquiring) && clock.hasStalled) || abandoned.load(ordering: .acquiring) {
            return AudioDeviceError(description: "playback device '\(device)' stopped taking sound")
        }
        return nil
    }

    public func start() throws(AudioDeviceError) {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        clock.streamStarts()
        snd_pcm_prepare(pcm)
        startedAt = AudioClock.now()
        let created: StreamThread
        do {
            created = try RealTime.spawn("playback", realTime: ALSADevice.wantsRealTime(pcm)) { self.loop() }
        } catch {
            running.store(false, ordering: .releasing)
            throw error
        }
        thread = created
    }

    /// Waits (up to a second) until the device is playing: its buffer is full and its clock is moving.
    public func waitUntilPlaying() {
        doorbell.wait(timeout: 1) { clock.reading == nil && error == nil && running.load(ordering: .acquiring) }
    }

    /// Stops at once and joins the thread; one stuck in a device that no longer answers is left to it.
    public func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) || thread != nil else { return }
        if let thread {
            abandoned.store(!thread.join(), ordering: .releasing)
            self.thread = nil
        }
    }

    private func loop() {
        defer { doorbell.ring() }
        while running.load(ordering: .acquiring) {
            var frames = periodFrames
            let silent = leadIn > 0
            let paused = pausedFlag.load(ordering: .relaxed)
            if silent || paused {
                left.update(repeating: 0, count: periodFrames)
                right.update(repeating: 0, count: periodFrames)
            } else {
                frames = source.render(left: left, right: right, frames: periodFrames)
                if frames == 0 {
                    snd_pcm_drain(pcm)
                    finishedFlag.store(true, ordering: .releasing)
                    running.store(false, ordering: .releasing)
                    return
                }
                if let tap {
                    for i in 0..<frames { mono[i] = (left[i] + right[i]) / 2 }
                    tap.write(UnsafeBufferPointer(start: mono, count: frames))
                }
            }
            for i in 0..<frames {
                interleaved[2 * i] = left[i]
                interleaved[2 * i + 1] = right[i]
            }
            var offset = 0
            while offset < frames && running.load(ordering: .relaxed) {
                let written = snd_pcm_writei(pcm, interleaved + 2 * offset, snd_pcm_uframes_t(frames - offset))
                if written >= 0 {
                    offset += Int(written)
                    // A write of nothing is no sign of life: a stream that never starts takes none.
                    if written > 0 { clock.transferred() }
                } else if Int32(written) == -EPIPE {
                    // Only this thread counts, so the slot is written before the count that makes it readable.
                    let count = underrunCount.load(ordering: .relaxed)
                    if count < Self.underrunsPlaced { underrunsAfter[count] = AudioClock.now() - startedAt }
                    underrunCount.store(count + 1, ordering: .releasing)
                    snd_pcm_prepare(pcm)
                } else if Int32(written) == -ESTRPIPE {
                    ALSADevice.resume(pcm)
                } else if Int32(written) != -EAGAIN && Int32(written) != -EINTR {
                    failure.store(Int32(written), ordering: .releasing)
                    running.store(false, ordering: .releasing)
                    return
                }
            }
            if silent {
                leadIn -= frames
            } else if !paused {
                rendered += frames
            }
            var delay = snd_pcm_sframes_t(0)
            if snd_pcm_state(pcm) == SND_PCM_STATE_RUNNING && snd_pcm_delay(pcm, &delay) == 0 {
                // After an underrun the delay can be below zero (the device played on past what it was given), but
                // nothing is heard before it is rendered. (A paused view once showed 1.7 s after an underrun; this is
                // the one way found for the heard frame to pass the rendered one.)
                clock.publish(frame: rendered - max(0, Int(delay)))
            }
            doorbell.ring()
        }
    }
}
