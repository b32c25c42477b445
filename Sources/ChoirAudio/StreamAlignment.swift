/// Puts capture frames on the playback's time line: the offset between the two streams' ``AudioClock``s,
/// as the median of recent readings, because the delay a sound server reports jitters by a few milliseconds.
/// For the thread that consumes the capture; allocates at construction only.
public final class StreamAlignment {
    public let sampleRate: Int
    private let capture: AudioClock
    private let playback: AudioClock
    private var recent: [Double]
    private var sorted: [Double]
    private var count = 0, next = 0

    public init(capture: AudioClock, playback: AudioClock, sampleRate: Int, readings: Int = 63) {
        self.capture = capture
        self.playback = playback
        self.sampleRate = sampleRate
        recent = [Double](repeating: 0, count: readings)
        sorted = recent
    }

    /// Takes the streams' latest readings; call it as often as capture frames are consumed.
    public func update() {
        guard let c = capture.reading, let p = playback.reading else { return }
        recent[next] = AudioClock.offset(capture: c, playback: p, sampleRate: sampleRate)
        next = (next + 1) % recent.count
        count = min(count + 1, recent.count)
    }

    /// Frames to add to a capture frame to get the playback frame heard at the moment it was captured, or nil
    /// before both streams are running.
    public var offset: Double? {
        guard count > 0 else { return nil }
        for i in 0..<count { sorted[i] = recent[i] }
        sorted[0..<count].sort()
        return sorted[count / 2]
    }
}
