import Glibc
import Synchronization

/// Where a stream is, in time: the frame that was at the device's converter at a moment of the monotonic clock.
///
/// The stream's real-time thread publishes a reading after every transfer (frames transferred, corrected by
/// the device's reported delay); any other thread reads the latest. Capture and playback each keep one, which
/// puts both on one time line whatever moment each stream happened to start at.
public final class AudioClock: Sendable {
    /// One reading: `frame` was at the converter at `nanoseconds` on CLOCK_MONOTONIC.
    public struct Reading: Sendable, Equatable {
        public var frame: Int
        public var nanoseconds: Int

        public init(frame: Int, nanoseconds: Int) {
            self.frame = frame
            self.nanoseconds = nanoseconds
        }

        /// The frame at the converter at `nanoseconds`, for a stream running at `sampleRate`.
        public func frame(at nanoseconds: Int, sampleRate: Int) -> Double {
            Double(frame) + Double(nanoseconds - self.nanoseconds) * Double(sampleRate) / 1e9
        }
    }

    // Both halves in one double-word atomic, so that a reader never sees a frame from one reading and a time
    // from another.
    private let latest = Atomic<WordPair>(WordPair(first: 0, second: 0))
    /// When the stream started, on CLOCK_MONOTONIC; 0 before.
    private let startedAt = Atomic<Int>(0)
    /// When the stream's thread last moved frames to or from the device, on CLOCK_MONOTONIC.
    private let transferredAt = Atomic<Int>(0)

    public init() {}

    /// Publishes a reading; called only by the stream's thread. Never allocates or blocks.
    public func publish(frame: Int) {
        latest.store(WordPair(first: UInt(bitPattern: frame), second: UInt(bitPattern: Self.now())), ordering: .releasing)
    }

    /// The latest reading, or nil before the stream has transferred anything.
    public var reading: Reading? {
        let pair = latest.load(ordering: .acquiring)
        guard pair.second != 0 else { return nil }
        return Reading(frame: Int(bitPattern: pair.first), nanoseconds: Int(bitPattern: pair.second))
    }

    /// Notes that the stream is starting: from then on, a stream that neither publishes nor moves a frame for three
    /// seconds has stalled.
    public func streamStarts() {
        startedAt.store(Self.now(), ordering: .releasing)
    }

    /// Notes that the stream's thread has just moved frames to or from the device; called only by that thread.
    /// Never allocates or blocks.
    public func transferred() {
        transferredAt.store(Self.now(), ordering: .releasing)
    }

    /// Whether the stream, once started, has neither published nor moved a frame for three seconds: far beyond any
    /// device buffer, so its thread is stuck in a device that no longer answers (a sound server that died or froze
    /// can leave a plugin's call waiting for ever). A stream restarting after an underrun publishes nothing until
    /// the device runs again, but its writes go on: a machine that stalled the process for two seconds, and so
    /// underran, is not a device that stopped.
    public var hasStalled: Bool {
        let start = startedAt.load(ordering: .acquiring)
        let alive = max(start, transferredAt.load(ordering: .acquiring), reading?.nanoseconds ?? start)
        return start != 0 && Self.now() - alive > 3_000_000_000
    }

    /// The monotonic clock, in nanoseconds.
    public static func now() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }

    /// How many frames to add to a capture frame index to get the playback frame heard at the moment it was
    /// captured: both readings are brought to the capture reading's moment.
    public static func offset(capture: Reading, playback: Reading, sampleRate: Int) -> Double {
        playback.frame(at: capture.nanoseconds, sampleRate: sampleRate) - Double(capture.frame)
    }
}
