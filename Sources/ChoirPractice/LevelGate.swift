import ChoirPitch
import Glibc

/// Learns how loud the singer is, so that quieter sounds (the accompaniment heard through the microphone,
/// room noise, breaths) can be told apart from singing.
///
/// It keeps a histogram of the levels of confident voiced frames in 1 dB steps; the gate sits a fixed
/// distance below the level that 90% of them stay under, which is the singer's full voice. Where loudspeakers'
/// echo was taken out of the microphone, it also learns how much of it is left (``EchoLeft``).
public struct LevelGate: Sendable {
    /// How far below the singer's full voice a frame may be and still count.
    public var rangeDecibels: Double
    private var counts = [Int](repeating: 0, count: 121)
    private var total = 0
    /// How much of the loudspeakers' echo is left in the microphone.
    public private(set) var echoLeft = EchoLeft()

    public init(rangeDecibels: Double = 20) { self.rangeDecibels = rangeDecibels }

    /// Learns from every frame of a whole take at once: the singer's level first, then the echo left (with the
    /// singer's rests in `notes`, whose time 0 is `start` seconds into the take), with the singer's level known
    /// throughout.
    public init(frames: some Collection<PitchFrame>, notes: [ExpectedNote], start: Double = 0, rangeDecibels: Double = 20) {
        self.init(rangeDecibels: rangeDecibels)
        for frame in frames { learnLevel(frame) }
        let floor = threshold
        for frame in frames {
            echoLeft.learn(from: frame, resting: ExpectedNote.isRest(at: frame.time - start, in: notes), floor: floor)
        }
    }

    /// Learns from one more frame, heard while the singer rests or not.
    public mutating func add(_ frame: PitchFrame, resting: Bool) {
        learnLevel(frame)
        if total >= 50 { echoLeft.learn(from: frame, resting: resting, floor: threshold) }
    }

    private mutating func learnLevel(_ frame: PitchFrame) {
        guard frame.isVoiced, frame.confidence >= 0.8, frame.level > 0 else { return }
        counts[bin(frame.level)] += 1
        total += 1
    }

    /// The RMS below which frames are not the singer; 0 until enough singing has been heard.
    public var threshold: Double {
        guard total >= 50 else { return 0 }
        var seen = 0
        for (index, count) in counts.enumerated() {
            seen += count
            if seen * 10 >= total * 9 {
                return pow(10, (Double(index) - 120 - rangeDecibels) / 20)
            }
        }
        return 0
    }

    private func bin(_ level: Double) -> Int { max(0, min(120, Int((20 * log10(level)).rounded()) + 120)) }
}
