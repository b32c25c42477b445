/// Puts capture frames on the playback's time line: the offset between the two streams' ``AudioClock``s.
///
/// A sound server's reported delays jitter by a few milliseconds from one reading to the next and wander by
/// tens of milliseconds over seconds, while the real offset between two running streams holds still. So the
/// offset is the median of recent readings, averaged over the whole run (over the last ten seconds or so once it
/// has run that long); a jump of more than 50 ms (the server settling as streams start, a stream restarted after
/// an xrun) starts the average again. For the thread that consumes the capture; allocates at construction only.
public final class StreamAlignment {
    public let sampleRate: Int
    private let capture: AudioClock
    private let playback: AudioClock
    private var recent: [Double]
    private var sorted: [Double]
    private var count = 0, next = 0
    private var average: Double?
    /// Updates averaged since the last jump.
    private var averaged = 0

    public init(capture: AudioClock, playback: AudioClock, sampleRate: Int, readings: Int = 63) {
        self.capture = capture
        self.playback = playback
        self.sampleRate = sampleRate
        recent = [Double](repeating: 0, count: readings)
        sorted = recent
    }

    /// Takes the streams' latest readings; call it as often as capture frames are consumed (about every 5 ms).
    public func update() {
        guard let c = capture.reading, let p = playback.reading else { return }
        recent[next] = AudioClock.offset(capture: c, playback: p, sampleRate: sampleRate)
        next = (next + 1) % recent.count
        count = min(count + 1, recent.count)
        for i in 0..<count { sorted[i] = recent[i] }
        sorted[0..<count].sort()
        let median = sorted[count / 2]
        if let average, abs(median - average) <= 0.05 * Double(sampleRate) {
            averaged += 1
            self.average = average + max(1 / Double(averaged), 1 / 2000) * (median - average)
        } else {
            average = median
            averaged = 1
        }
    }

    /// Frames to add to a capture frame to get the playback frame heard at the moment it was captured, or nil
    /// before both streams are running.
    public var offset: Double? { average }
}
