import Testing

@testable import ChoirAudio

/// Lining capture up with playback from the streams' clocks.
struct StreamAlignmentTests {
    /// Readings that jitter by ±4 ms around an offset of 1000 frames give that offset to within a frame or two; a
    /// jump of 100 ms (a stream restarted) is taken at once.
    @Test func averagesJitterAndFollowsAJump() {
        let capture = AudioClock(), playback = AudioClock()
        let alignment = StreamAlignment(capture: capture, playback: playback, sampleRate: 48000)
        var random: UInt64 = 7
        func jitter() -> Int {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return Int(random >> 33) % 385 - 192
        }
        var frame = 0
        func step(offset: Int) {
            frame += 256
            capture.publish(frame: frame)
            playback.publish(frame: frame + offset + jitter())
            alignment.update()
        }
        for _ in 0..<3000 { step(offset: 1000) }
        // The two readings are taken a moment apart, which adds a little to what the clocks say.
        #expect(abs((alignment.offset ?? 0) - 1000) < 8, "\(String(describing: alignment.offset))")
        for _ in 0..<100 { step(offset: 5800) }
        #expect(abs((alignment.offset ?? 0) - 5800) < 100, "\(String(describing: alignment.offset))")
    }
}
