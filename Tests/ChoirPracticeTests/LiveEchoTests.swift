import ChoirAudio
import ChoirPitch
import ChoirTestSupport
import Glibc
import Testing

@testable import ChoirPractice

/// The live echo canceller fed as a live session feeds it: the playback thread's tap a little ahead of the
/// microphone, hop by hop.
struct LiveEchoTests {
    static func rms(_ x: some Collection<Float>) -> Double {
        (x.reduce(0.0) { $0 + Double($1 * $1) } / Double(max(1, x.count))).squareRoot()
    }

    /// A mix heard 20 ms late at half its level: after the first seconds, the echo left is at least 20 dB under
    /// the echo heard, and the loudspeakers' gain comes out near −6 dB.
    @Test func aDelayedMixIsLearnedAndTakenOut() {
        let rate = 16000, hop = 64, seconds = 20
        let mix = Chords.render(count: rate * seconds, sampleRate: Double(rate), seed: 5)
        let delay = rate / 50
        let echo = (0..<mix.count).map { $0 >= delay ? 0.5 * mix[$0 - delay] : 0 }
        let tap = SPSCRing<Float>(minimumCapacity: rate * 4, filler: 0)
        let live = LiveEcho(tap: tap, singerTap: nil, sampleRate: rate, hop: hop, window: 1024)
        var left = [Float](repeating: 0, count: mix.count)
        var played = 0
        // Mix frame 0 plays when the microphone captures its sample 1000: heardFrame = captured index − 1000.
        for start in stride(from: 0, to: mix.count - hop, by: hop) {
            // The playback thread runs 100 ms ahead of what is heard.
            let ahead = min(mix.count, start - 1000 + rate / 10)
            if ahead > played {
                mix[played..<ahead].withUnsafeBufferPointer { tap.write($0) }
                played = ahead
            }
            var captured = (start..<(start + hop)).map { $0 >= 1000 ? echo[$0 - 1000] : 0 }
            captured.withUnsafeMutableBufferPointer { live.cancel($0, heardFrame: Double(start - 1000)) }
            left.replaceSubrange(start..<(start + hop), with: captured)
            // Give the solver thread its moment, as the analysis thread's pace does.
            if start % (rate / 2) == 0 { usleep(20_000) }
        }
        let after = (rate * 8)..<(rate * seconds - hop)
        let reduction = 20 * log10(Self.rms(left[after]) / Self.rms(echo[(after.lowerBound - 1000)..<(after.upperBound - 1000)]))
        #expect(reduction < -20, "echo reduced by \(reduction) dB")
        #expect(abs(20 * log10(live.gain) + 6) < 1.5, "gain \(20 * log10(live.gain)) dB")
    }
}
