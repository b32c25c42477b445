import ChoirPitch
import ChoirTestSupport
import Testing

@testable import ChoirPractice

/// A take prepared for judging as a whole.
struct TakeAnalysisTests {
    /// A take's echo taken out in shares, by two or five cancellers at once, is sample for sample what one canceller
    /// going through the whole take hop by hop gives: each share's canceller has first heard the mix before it.
    @Test func anEchoTakenOutInSharesIsTheEchoOfOnePass() {
        let rate = 16000.0, hop = 80, lead = 24
        let mix = Chords.render(count: 40000, sampleRate: rate, seed: 5)
        var random = SplitMix(seed: 11)
        let filter = (0..<700).map { _ in Float(random.unit() - 0.5) * 0.05 }
        var microphone = [Float](repeating: 0, count: 39_950)
        for i in microphone.indices {
            let echo: Float = i >= 30 ? 0.3 * mix[i - 30] : 0
            microphone[i] = Float(random.unit() - 0.5) * 0.2 + echo
        }

        let canceller = EchoCanceller(hop: hop, taps: filter.count, lead: lead)
        filter.withUnsafeBufferPointer { canceller.load($0) }
        var expected = microphone, expectedEcho = [Float](repeating: 0, count: microphone.count)
        for start in stride(from: 0, to: microphone.count, by: hop) {
            let count = min(hop, microphone.count - start)
            var block = (0..<hop).map { $0 < count ? microphone[start + $0] : 0 }
            let ahead = (0..<hop).map { start + lead + $0 < mix.count ? mix[start + lead + $0] : 0 }
            block.withUnsafeMutableBufferPointer { b in ahead.withUnsafeBufferPointer { canceller.cancel(b, mix: $0) } }
            for i in 0..<count {
                expected[start + i] = block[i]
                expectedEcho[start + i] = canceller.echo[i]
            }
        }
        #expect(expectedEcho.contains { abs($0) > 0.01 })
        for threads in [1, 2, 5] {
            var cleaned = microphone
            let echo = TakeAnalysis.cancel(&cleaned, mix: mix, filter: filter, lead: lead, hop: hop, threads: threads)
            #expect(cleaned == expected, "\(threads) cancellers")
            #expect(echo == expectedEcho, "\(threads) cancellers")
        }
    }
}
