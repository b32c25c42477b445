import Foundation
import Testing

@testable import ChoirAudio

struct SilentPlaybackTests {
    /// Renders silence for `frames` frames, then ends.
    private final class Silence: AudioSource {
        var left: Int
        init(frames: Int) { left = frames }

        func render(left buffer: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) -> Int {
            let count = min(frames, left)
            buffer.update(repeating: 0, count: count)
            right.update(repeating: 0, count: count)
            left -= count
            return count
        }
    }

    /// Ten periods of 10 ms: a thread following the stream is woken by each, and by the end, not by its timeout.
    @Test func itsDoorbellRingsEachPeriodAndAtTheEnd() throws {
        let playback = try SilentPlayback(sampleRate: 48_000, periodFrames: 480, source: Silence(frames: 4800))
        let start = AudioClock.now()
        try playback.start()
        playback.waitUntilPlaying()
        #expect(playback.clock.reading != nil)
        // Within a quarter of a second, though these tests run at the lowest priority beside the live ones.
        let started = Double(AudioClock.now() - start) / 1e6
        #expect(started < 250, "playing after \(started) ms")
        var wakes = 0
        while !playback.isFinished {
            let seen = playback.doorbell.count
            guard !playback.isFinished else { break }
            #expect(playback.doorbell.wait(after: seen, timeout: 2))
            wakes += 1
        }
        let ended = Double(AudioClock.now() - start) / 1e6
        // The source runs out as the eleventh period is due, 100 ms in.
        #expect(ended >= 95 && ended < 500, "ended after \(ended) ms")
        #expect(wakes >= 5, "woken \(wakes) times")
        // Once the thread has ended: a ring for each period, and one as it ended.
        playback.stop()
        #expect(playback.doorbell.count == 11)
    }
}
