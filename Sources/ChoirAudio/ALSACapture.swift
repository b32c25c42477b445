import CALSA
import Glibc
import Synchronization

/// Why an audio device could not be used.
public struct AudioDeviceError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

/// Captures mono float samples from an ALSA device on a real-time thread into an `SPSCRing`.
///
/// The capture thread only reads the device and writes the ring: no allocation, lock or logging. Overruns
/// (the device's buffer filled because the thread fell behind) are recovered and counted.
public final class ALSACapture: @unchecked Sendable {
    public let device: String
    public let sampleRate: Int
    public let periodFrames: Int
    public let ring: SPSCRing<Float>
    /// Rung after each period written into ``ring``, and when capture ends: the ring's reader waits on it.
    public let doorbell: Doorbell

    private let pcm: OpaquePointer
    private let buffer: UnsafeMutablePointer<Float>
    private let running = Atomic<Bool>(false)
    private let overrunCount = Atomic<Int>(0)
    private let failure = Atomic<Int32>(0)
    private var thread: StreamThread?
    /// Whether the thread was left stuck in the device, which then cannot be closed.
    private let abandoned = Atomic<Bool>(false)
    /// Frames read so far; only the capture thread touches it.
    private var captured = 0
    /// Which frame (counted from the first one read) is being captured when; see ``AudioClock``.
    public let clock = AudioClock()

    /// Opens `device` for capture at `sampleRate`, reading `periodFrames` at a time.
    public init(device: String, sampleRate: Int, periodFrames: Int = 256, ring: SPSCRing<Float>) throws(AudioDeviceError) {
        doorbell = try Doorbell()
        let handle = try ALSADevice.open(device, capture: true, channels: 1, sampleRate: sampleRate, periodFrames: periodFrames)
        pcm = handle
        self.device = device
        self.sampleRate = sampleRate
        self.periodFrames = periodFrames
        self.ring = ring
        buffer = .allocate(capacity: periodFrames)
        buffer.initialize(repeating: 0, count: periodFrames)
    }

    deinit {
        stop()
        guard !abandoned.load(ordering: .acquiring) else { return }
        ALSADevice.close(pcm)
        buffer.deallocate()
    }

    /// Overruns recovered so far.
    public var overruns: Int { overrunCount.load(ordering: .relaxed) }

    /// The error that ended capture, if the device failed, disappeared or stopped delivering frames.
    public var error: AudioDeviceError? {
        let code = failure.load(ordering: .acquiring)
        if code != 0 { return AudioDeviceError(description: "capture device '\(device)' failed: \(String(cString: snd_strerror(code)))") }
        // A thread that did not come back when asked to stop is stuck in a device that no longer answers, however
        // recently it last moved a frame.
        if (running.load(ordering: .acquiring) && clock.hasStalled) || abandoned.load(ordering: .acquiring) {
            return AudioDeviceError(description: "capture device '\(device)' stopped delivering sound")
        }
        return nil
    }

    public var isRunning: Bool { running.load(ordering: .acquiring) }

    /// Starts the capture thread, at real-time priority where the system allows it.
    public func start() throws(AudioDeviceError) {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        clock.streamStarts()
        snd_pcm_prepare(pcm)
        snd_pcm_start(pcm)
        let created: StreamThread
        do {
            created = try RealTime.spawn("capture", realTime: ALSADevice.wantsRealTime(pcm)) { self.loop() }
        } catch {
            running.store(false, ordering: .releasing)
            throw error
        }
        thread = created
    }

    /// Starts `playback` (when there is one) and waits until it plays, then starts capturing: the order a
    /// full-duplex session needs, because a sound server settles its latencies as streams connect and reports
    /// the capture's delay wrongly for a while when a playback stream starts after it.
    public func start(following playback: (any PlaybackStream)?) throws(AudioDeviceError) {
        if let playback {
            try playback.start()
            playback.waitUntilPlaying()
        }
        try start()
    }

    /// Stops and joins the capture thread; one stuck in a device that no longer answers is left to it.
    public func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) || thread != nil else { return }
        if let thread {
            abandoned.store(!thread.join(), ordering: .releasing)
            self.thread = nil
        }
        if !abandoned.load(ordering: .acquiring) { snd_pcm_drop(pcm) }
    }

    private func loop() {
        defer { doorbell.ring() }
        while running.load(ordering: .acquiring) {
            let got = snd_pcm_readi(pcm, buffer, snd_pcm_uframes_t(periodFrames))
            if got >= 0 {
                if got > 0 { clock.transferred() }
                ring.write(UnsafeBufferPointer(start: buffer, count: Int(got)))
                captured += Int(got)
                // A sound server's plugin hands its fragments over in bursts of periods and reports one delay for
                // the whole burst, so frames read + delay is right only once the burst has been read. Published
                // mid-burst, a session woken by the doorbell saw readings up to a fragment (50 ms) apart.
                var delay = snd_pcm_sframes_t(0)
                if snd_pcm_avail(pcm) < periodFrames && snd_pcm_delay(pcm, &delay) == 0 { clock.publish(frame: captured + Int(delay)) }
                doorbell.ring()
                continue
            }
            let code = Int32(got)
            if code == -EPIPE {
                overrunCount.add(1, ordering: .relaxed)
                snd_pcm_prepare(pcm)
                snd_pcm_start(pcm)
            } else if code == -ESTRPIPE {
                ALSADevice.resume(pcm)
            } else if code == -EAGAIN || code == -EINTR {
                continue
            } else {
                failure.store(code, ordering: .releasing)
                running.store(false, ordering: .releasing)
            }
        }
    }
}

/// Opening ALSA devices the way choir uses them: interleaved float, through ALSA's conversions.
enum ALSADevice {
    /// Wakes a stream the system suspended (ESTRPIPE), trying for at most a second: a device that does not come
    /// back by then is restarted instead, so that the stream's thread never waits without end.
    static func resume(_ pcm: OpaquePointer) {
        var tries = 0
        while snd_pcm_resume(pcm) == -EAGAIN && tries < 1000 {
            tries += 1
            usleep(1000)
        }
        snd_pcm_prepare(pcm)
    }

    /// Closes `pcm`, giving up after two seconds. PulseAudio's plugin deadlocks closing a capture device whose server
    /// has gone since it was stopped (libpulse, holding its main loop's lock, waits for a fragment the plugin still
    /// holds, and the close waits for that lock): a session whose report was still showing then never ended. A close
    /// that does not return is left to its thread.
    static func close(_ pcm: OpaquePointer) {
        guard let closing = try? StreamThread("closing", body: { snd_pcm_close(pcm) }) else {
            snd_pcm_close(pcm)
            return
        }
        _ = closing.join()
    }

    /// Whether a stream's thread should run at real-time priority: yes on a device ALSA drives itself, no on a
    /// sound server's plugin (PulseAudio, PipeWire). A plugin's reads and writes wait on the plugin's own thread,
    /// which runs at normal priority; a real-time thread spinning on them starves it, and on a two-core machine
    /// two such threads stall the server and every client. The server's own threads are real-time already.
    static func wantsRealTime(_ pcm: OpaquePointer) -> Bool {
        let type = snd_pcm_type(pcm)
        return type != SND_PCM_TYPE_IOPLUG && type != SND_PCM_TYPE_EXTPLUG
    }

    /// Opens `device` with 200 ms of buffer (or four periods if more): enough to ride out a busy machine and a
    /// sound server that changes its own latency while a stream starts. Capture reads each period as soon as it
    /// arrives, so only playback is delayed by it, and practice measures that round trip and subtracts it.
    static func open(_ device: String, capture: Bool, channels: Int, sampleRate: Int, periodFrames: Int)
        throws(AudioDeviceError) -> OpaquePointer
    {
        choir_alsa_silence_errors()
        let role = capture ? "capture" : "playback"
        var handle: OpaquePointer?
        var status = snd_pcm_open(&handle, device, capture ? SND_PCM_STREAM_CAPTURE : SND_PCM_STREAM_PLAYBACK, 0)
        guard status >= 0, let handle else {
            throw AudioDeviceError(description: "cannot open \(role) device '\(device)': \(String(cString: snd_strerror(status)))")
        }
        let latency = UInt32(max(200_000, 4 * periodFrames * 1_000_000 / max(sampleRate, 1)))
        status = snd_pcm_set_params(
            handle, SND_PCM_FORMAT_FLOAT_LE, SND_PCM_ACCESS_RW_INTERLEAVED, UInt32(channels), UInt32(sampleRate), 1, latency)
        guard status >= 0 else {
            snd_pcm_close(handle)
            throw AudioDeviceError(
                description: "\(role) device '\(device)' cannot take \(channels) channel(s) at \(sampleRate) Hz: "
                    + String(cString: snd_strerror(status)))
        }
        return handle
    }
}
