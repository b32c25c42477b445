import ChoirAudio
import Foundation
import Synchronization

/// Plays a recorded take into a device from a playback frame chosen once the stream runs, so that the take can
/// be lined up with another stream's clock; before it, a click marks a chosen frame. Silence otherwise.
final class TakePlayer: AudioSource, @unchecked Sendable {
    private let take: [Float]
    /// The playback frame at which the take's first sample is played; `Int.max` until it is chosen.
    private let start = Atomic<Int>(.max)
    /// The playback frame at which the click starts; `Int.max` for none.
    private let clickStart = Atomic<Int>(.max)
    /// Five milliseconds of 1 kHz at 48 kHz.
    private let click = (0..<240).map { Float(0.5 * sin(2 * Double.pi * 1000 * Double($0) / 48000)) }
    /// Frames rendered so far; only the playback thread writes it.
    private let position = Atomic<Int>(0)

    init(take: [Float]) {
        self.take = take
    }

    /// Frames rendered so far.
    var rendered: Int { position.load(ordering: .acquiring) }

    /// Plays the click from playback frame `frame`.
    func click(at frame: Int) {
        clickStart.store(frame, ordering: .releasing)
    }

    /// Plays the take's first sample as playback frame `frame`: the frame count ``ALSAPlayback``'s clock reads.
    func play(from frame: Int) {
        start.store(frame, ordering: .releasing)
    }

    /// Whether the take's first sample has been played.
    var isStarted: Bool {
        let start = start.load(ordering: .acquiring)
        return start != .max && position.load(ordering: .acquiring) >= start
    }

    /// Whether the whole take has been played.
    var isDone: Bool {
        let start = start.load(ordering: .acquiring)
        return start != .max && position.load(ordering: .acquiring) >= start + take.count
    }

    func render(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        let start = start.load(ordering: .acquiring)
        let clickStart = clickStart.load(ordering: .acquiring)
        let position = position.load(ordering: .relaxed)
        for i in 0..<frames {
            let k = position + i - start
            let c = position + i - clickStart
            let sample =
                start != .max && k >= 0 && k < take.count
                ? take[k]
                : clickStart != .max && c >= 0 && c < click.count ? click[c] : 0
            left[i] = sample
            right[i] = sample
        }
        self.position.store(position + frames, ordering: .releasing)
        return frames
    }
}
