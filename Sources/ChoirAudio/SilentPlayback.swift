import Glibc
import Synchronization

/// Plays an `AudioSource` nowhere, at the pace it would be heard: a thread renders a period at a time and sleeps
/// until the next is due on the monotonic clock, so that a session without a sound card (or whose singer wants no
/// sound) keeps true time, pauses, loops and ends as the music does. The source is rendered as a device would
/// render it, so that a renderer steered by commands behaves the same.
public final class SilentPlayback: PlaybackStream, @unchecked Sendable {
    public let sampleRate: Int
    public let periodFrames: Int
    public let clock = AudioClock()
    /// Rung after each period rendered, and when the stream ends.
    public let doorbell: Doorbell
    private let source: AudioSource
    private let left: UnsafeMutablePointer<Float>
    private let right: UnsafeMutablePointer<Float>
    private let running = Atomic<Bool>(false)
    private let finishedFlag = Atomic<Bool>(false)
    private var thread: StreamThread?
    /// Source frames rendered so far; only the thread touches it.
    private var rendered = 0

    public init(sampleRate: Int, periodFrames: Int = 256, source: AudioSource) throws(AudioDeviceError) {
        doorbell = try Doorbell()
        self.sampleRate = sampleRate
        self.periodFrames = periodFrames
        self.source = source
        left = .allocate(capacity: periodFrames)
        right = .allocate(capacity: periodFrames)
        left.initialize(repeating: 0, count: periodFrames)
        right.initialize(repeating: 0, count: periodFrames)
    }

    deinit {
        stop()
        left.deallocate()
        right.deallocate()
    }

    public var heardFrame: Double? { clock.reading?.frame(at: AudioClock.now(), sampleRate: sampleRate) }
    public var isFinished: Bool { finishedFlag.load(ordering: .acquiring) }
    public var underruns: Int { 0 }
    public var underrunTimes: [Double] { [] }
    public var error: AudioDeviceError? { nil }

    public func start() throws(AudioDeviceError) {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        clock.streamStarts()
        do {
            thread = try StreamThread("silent playback") { self.loop() }
        } catch {
            running.store(false, ordering: .releasing)
            throw error
        }
    }

    public func waitUntilPlaying() {
        doorbell.wait(timeout: 1) { clock.reading == nil && running.load(ordering: .acquiring) }
    }

    public func stop() {
        running.store(false, ordering: .releasing)
        thread?.joinWhenDone()
        thread = nil
    }

    private func loop() {
        defer { doorbell.ring() }
        var due = AudioClock.now()
        while running.load(ordering: .acquiring) {
            // The period rendered now is heard from `due` on: its first frame is the one heard then.
            clock.publish(frame: rendered)
            let frames = source.render(left: left, right: right, frames: periodFrames)
            if frames == 0 {
                finishedFlag.store(true, ordering: .releasing)
                running.store(false, ordering: .releasing)
                return
            }
            rendered += frames
            doorbell.ring()
            due += frames * 1_000_000_000 / sampleRate
            var until = timespec(tv_sec: due / 1_000_000_000, tv_nsec: due % 1_000_000_000)
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nil) == EINTR {}
        }
    }
}
