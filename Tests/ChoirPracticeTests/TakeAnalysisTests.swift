import ChoirPitch
import ChoirTestSupport
import Glibc
import Testing

@testable import ChoirPractice

/// A take prepared for judging as a whole.
struct TakeAnalysisTests {
    /// A take's echo taken out in one convolution is what a live session's canceller, going through the take hop by
    /// hop, takes out (within float rounding), and the same to the sample whether one, two or five threads share it.
    /// Over the filter's first span it is the sum that defines it: the live canceller's first hop starts `lead`
    /// samples into the mix, so it never hears the mix's first `lead` samples, which the convolution does.
    @Test func anEchoTakenOutWholeIsTheEchoTakenOutLive() {
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
        // The echo over the filter's first span, summed directly.
        for i in 0..<filter.count {
            expectedEcho[i] = Float(
                filter.indices.reduce(0.0) { sum, m in i + lead - m >= 0 ? sum + Double(filter[m]) * Double(mix[i + lead - m]) : sum })
            expected[i] = microphone[i] - expectedEcho[i]
        }
        var first: [Float]?
        for threads in [1, 2, 5] {
            var cleaned = microphone
            let echo = TakeAnalysis.cancel(&cleaned, mix: mix, filter: filter, lead: lead, threads: threads)
            let apart = zip(echo, expectedEcho).map { abs($0 - $1) }.max() ?? .infinity
            #expect(echo.count == expectedEcho.count && apart < 1e-5, "\(threads) threads: \(apart) from the expected echo")
            let cleanedApart = zip(cleaned, expected).map { abs($0 - $1) }.max() ?? .infinity
            #expect(cleaned.count == expected.count && cleanedApart < 1e-5, "\(threads) threads: \(cleanedApart) from the expected echo")
            #expect(first == nil || echo == first, "\(threads) threads")
            first = echo
        }
    }

    /// Each frame's accompaniment is the RMS of the echo over the frame's window, as summed directly, for an echo
    /// whose level changes from sample to sample.
    @Test func aFramesAccompanimentIsTheEchoOverItsWindow() throws {
        let rate = 16000.0
        let note = ExpectedNote(
            index: 0, measure: "1", measureIndex: 0, onset: 0.2, duration: 1.5, midi: 57, isEntrance: true, previousMIDI: nil,
            quarterSeconds: 0.5)
        let sung = (0..<32037).map { (i: Int) -> Float in Float(0.3 * sin(2 * Double.pi * 220 * Double(i) / rate)) }
        var random = SplitMix(seed: 4)
        let echo = sung.indices.map { (i: Int) -> Float in Float((random.unit() - 0.5) * Double(i % 5000) / 5000) }
        let analysis = try TakeAnalysis(
            cleaned: sung, echo: echo, loudspeakers: 0.1, sampleRate: rate, notes: [note], tracker: .yin, accompanied: false)
        let window = PracticeJudge.detector(for: [note], sampleRate: rate).window
        #expect(analysis.frames.count > 50)
        for frame in analysis.frames {
            let start = max(0, min(echo.count, Int((frame.time * rate).rounded()) - window / 2)), end = min(echo.count, start + window)
            let rms = (echo[start..<end].reduce(0.0) { $0 + Double($1 * $1) } / Double(end - start)).squareRoot()
            #expect(abs(frame.accompaniment - rms) < 1e-6 * max(rms, 1e-3), "at \(frame.time) s")
        }
    }

    /// A take the loudspeakers did not reach (made with headphones, or rendered) is judged as heard, as one with no mix
    /// is, by the tracker asked for: YIN, the learned tracker (its frames 16 ms apart), or YIN guided by it where other
    /// sound is expected.
    @Test(arguments: [(PitchTrackerKind.yin, false, "yin"), (.net, false, "net"), (.auto, true, "yin+net"), (.auto, false, "yin")])
    func aTakeTheMixDidNotReachIsTrackedAsAsked(tracker: PitchTrackerKind, accompanied: Bool, name: String) throws {
        let rate = 16000.0
        let note = ExpectedNote(
            index: 0, measure: "1", measureIndex: 0, onset: 0.2, duration: 1.0, midi: 57, isEntrance: true, previousMIDI: nil,
            quarterSeconds: 0.5)
        // A3 sung from 0.2 s to 1.2 s, then silence to 2 s while the other lines play on in the headphones.
        let sung = (0..<32000).map { (i: Int) -> Float in
            let t = Double(i) / rate
            return t >= 0.2 && t < 1.2 ? Float(0.3 * sin(2 * Double.pi * 220 * t)) : 0
        }
        let mix = Chords.render(count: sung.count, sampleRate: rate, seed: 3)
        let heard = try TakeAnalysis(samples: sung, sampleRate: rate, notes: [note], mix: mix, tracker: tracker, accompanied: accompanied)
        let alone = try TakeAnalysis(samples: sung, sampleRate: rate, notes: [note], mix: nil, tracker: tracker, accompanied: accompanied)
        #expect(heard.loudspeakers == 0)
        #expect(heard.tracker == name && alone.tracker == name)
        let same = heard.frames.map { [$0.time, $0.frequency] } == alone.frames.map { [$0.time, $0.frequency] }
        #expect(same, "\(heard.frames.count) frames, against \(alone.frames.count) with no mix")
        let hop = heard.frames[1].time - heard.frames[0].time
        #expect(tracker == .net ? abs(hop - 0.016) < 1e-9 : hop < 0.01, "\(hop) s between frames")
    }

    /// The RMS over windows from running sums a hop apart is the RMS summed directly: over windows shorter than a hop,
    /// within one hop or across two, over whole hops, over the signal's first and last samples (its length no whole
    /// number of hops), and 0 over an empty window.
    @Test func windowsRMSIsTheDirectRMS() {
        var random = SplitMix(seed: 9)
        let signal = (0..<1000).map { (i: Int) -> Float in Float((random.unit() - 0.5) * Double(1 + i % 7)) }
        let windows = [0..<5, 30..<36, 60..<70, 64..<128, 0..<1000, 3..<997, 100..<611, 990..<1000, 999..<1000, 500..<500]
        let measured = TakeAnalysis.rms(of: signal, over: windows, hop: 64)
        for (window, rms) in zip(windows, measured) {
            let direct = window.isEmpty ? 0 : (signal[window].reduce(0.0) { $0 + Double($1 * $1) } / Double(window.count)).squareRoot()
            #expect(abs(rms - direct) < 1e-9 * max(1, direct), "\(window): \(rms) against \(direct)")
        }
        #expect(measured.count == windows.count)
    }
}
