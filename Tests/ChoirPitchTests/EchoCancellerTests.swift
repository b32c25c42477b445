import ChoirTestSupport
import Glibc
import Testing

@testable import ChoirPitch

/// The echo path and canceller on signals whose mixing is known exactly.
struct EchoCancellerTests {
    static func rms(_ x: some Collection<Float>) -> Double {
        (x.reduce(0.0) { $0 + Double($1 * $1) } / Double(max(1, x.count))).squareRoot()
    }

    /// A direct sound 6 ms late at 0.3, a reflection 9 ms after it at −0.15 and one 31 ms after at 0.1.
    static func room(_ mix: [Float], rate: Double) -> [Float] {
        let taps = [(Int(0.006 * rate), Float(0.3)), (Int(0.015 * rate), Float(-0.15)), (Int(0.037 * rate), Float(0.1))]
        return mix.indices.map { i in taps.reduce(Float(0)) { $0 + (i >= $1.0 ? $1.1 * mix[i - $1.0] : 0) } }
    }

    /// Levinson's recursion gives the same solution as Gaussian elimination on a small symmetric Toeplitz system.
    @Test func toeplitzSolutionIsExact() {
        let solver = ToeplitzSolver(count: 4)
        for (i, r) in [4.0, 1.0, 0.5, 0.25].enumerated() { solver.firstRow[i] = r }
        for (i, b) in [1.0, 2.0, 3.0, 4.0].enumerated() { solver.rightHandSide[i] = b }
        var x = [Float](repeating: 0, count: 4)
        x.withUnsafeMutableBufferPointer { solver.solve(into: $0) }
        // The diagonal is loaded by a thousandth: R[i][i] = 4.004.
        let matrix: [[Double]] = [[4.004, 1, 0.5, 0.25], [1, 4.004, 1, 0.5], [0.5, 1, 4.004, 1], [0.25, 0.5, 1, 4.004]]
        for (row, b) in zip(matrix, [1.0, 2.0, 3.0, 4.0]) {
            let product = zip(row, x).reduce(0.0) { $0 + $1.0 * Double($1.1) }
            #expect(abs(product - b) < 1e-5, "\(row) · \(x) = \(product), expected \(b)")
        }
    }

    /// The partitioned convolution gives the mix through the filter, sample for sample, with the filter's lead.
    @Test func cancellingIsConvolving() {
        let rate = 16000.0, hop = 64, lead = 10
        let mix = Chords.render(count: 8000, sampleRate: rate, seed: 3)
        var filter = [Float](repeating: 0, count: 300)
        var random = SplitMix(seed: 9)
        for i in filter.indices { filter[i] = Float(random.unit() - 0.5) * 0.1 }
        let canceller = EchoCanceller(hop: hop, taps: filter.count, lead: lead)
        filter.withUnsafeBufferPointer { canceller.load($0) }
        var worst: Float = 0
        for start in stride(from: 0, to: 8000 - hop - lead, by: hop) {
            var silence = [Float](repeating: 0, count: hop)
            let ahead = Array(mix[(start + lead)..<(start + lead + hop)])
            silence.withUnsafeMutableBufferPointer { s in ahead.withUnsafeBufferPointer { canceller.cancel(s, mix: $0) } }
            for i in 0..<hop {
                // echo[n] = Σ h[m] · mix[n + lead − m], the mix before the first hop given being silence
                var expected: Float = 0
                for m in filter.indices where start + i - m >= 0 { expected += filter[m] * mix[start + i + lead - m] }
                worst = max(worst, abs(-silence[i] - expected))
            }
        }
        #expect(worst < 1e-4, "largest difference \(worst)")
    }

    /// A recording's path learned by two or three threads, each from its share of the blocks, is the path one thread
    /// learns from all of them: the same strongest tap, and the same filter to within float rounding.
    @Test(arguments: [2, 3])
    func aRecordingsPathIsLearnedAsWellInParts(threads: Int) {
        let (mix, microphone) = Self.recording()
        let one = Self.learned { $0.add(recording: microphone, mix: mix, threads: 1) }
        let two = Self.learned { $0.add(recording: microphone, mix: mix, threads: threads) }
        #expect(one.samples == microphone.count / 2048 * 2048)
        Self.expectSame(one, two)
    }

    /// A recording's path, learned from the sums of its blocks' spectra, is the path learned block by block as a live
    /// session learns it; given a second recording, it adds what it learns to what it had.
    @Test func aRecordingsPathIsLearnedAsItsBlocksAre() {
        let (mix, microphone) = Self.recording()
        let half = microphone.count / 2
        let recordings = [(Array(mix[..<half]), Array(microphone[..<half])), (Array(mix[half...]), Array(microphone[half...]))]
        let whole = Self.learned { path in
            for (mix, microphone) in recordings { path.add(recording: microphone, mix: mix, threads: 1) }
        }
        let blockByBlock = Self.learned { path in
            var around = [Float](repeating: 0, count: path.context)
            for (mix, microphone) in recordings {
                for start in stride(from: 0, through: microphone.count - path.block, by: path.block) {
                    for i in around.indices {
                        let j = start - (path.taps - 1 - path.lead) + i
                        around[i] = j >= 0 && j < mix.count ? mix[j] : 0
                    }
                    microphone[start..<(start + path.block)].withUnsafeBufferPointer { captured in
                        around.withUnsafeBufferPointer { path.add(microphone: captured, mix: $0) }
                    }
                }
            }
        }
        Self.expectSame(blockByBlock, whole)
    }

    /// A recording's path learned in a recording's longer blocks is the path learned in a live session's: its
    /// correlations are sums over the whole recording, whatever the block. (The recording is cut to a whole number of
    /// both blocks, so that neither leaves out a part block the other takes.) Its blocks are at most a thirty-second
    /// part of the recording.
    @Test func aRecordingsPathIsTheSameInLongerBlocks() {
        let (mix, microphone) = Self.recording()
        let long = EchoPath.forRecording(sampleRate: 16000, count: microphone.count)
        #expect(long.block == 8192 && long.block <= microphone.count / 32)
        let count = microphone.count / long.block * long.block
        let (played, heard) = (Array(mix[..<count]), Array(microphone[..<count]))
        let inLongBlocks = Self.learned(.forRecording(sampleRate: 16000, count: count)) { $0.add(recording: heard, mix: played) }
        #expect(inLongBlocks.samples == count)
        Self.expectSame(Self.learned { $0.add(recording: heard, mix: played) }, inLongBlocks)
    }

    /// Twenty seconds of chords at 16 kHz through a room, with noise on two samples in three: the mix, and what the
    /// microphone heard.
    static func recording() -> (mix: [Float], microphone: [Float]) {
        let rate = 16000.0, count = 16000 * 20 + 777
        let mix = Chords.render(count: count, sampleRate: rate, seed: 5)
        var random = SplitMix(seed: 11)
        return (mix, zip(Self.room(mix, rate: rate), mix.indices).map { $0 + Float(random.unit() - 0.5) * 0.05 * Float($1 % 3) })
    }

    /// What a path learned: its filter, its strongest tap and from how many samples (its blocks').
    typealias Learned = (filter: [Float], coarse: (gain: Double, delay: Int), samples: Int)

    /// What `path` (by default a practice path at 16 kHz that forgets nothing) learned from `learn`.
    static func learned(
        _ path: EchoPath = .forPractice(sampleRate: 16000, memory: .infinity), _ learn: (EchoPath) -> Void
    ) -> Learned {
        learn(path)
        var filter = [Float](repeating: 0, count: path.taps)
        filter.withUnsafeMutableBufferPointer { path.solve(with: ToeplitzSolver(count: path.taps), into: $0) }
        return (filter, path.coarse, path.blocks * path.block)
    }

    /// The same samples, the same strongest tap, and the same filter to within float rounding.
    static func expectSame(_ one: Learned, _ two: Learned, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(two.samples == one.samples, sourceLocation: sourceLocation)
        #expect(
            two.coarse.delay == one.coarse.delay && abs(two.coarse.gain - one.coarse.gain) < 1e-6 * one.coarse.gain,
            sourceLocation: sourceLocation)
        let largest = one.filter.map(abs).max()!
        let worst = zip(one.filter, two.filter).map { abs($0 - $1) }.max()!
        #expect(
            largest > 0.1 && worst < 1e-4 * largest, "largest tap \(largest), largest difference \(worst)", sourceLocation: sourceLocation)
    }

    /// Learns the path from a whole recording, and takes the echo out hop by hop: returns what was taken out.
    static func cancel(_ microphone: [Float], mix: [Float], rate: Double) -> [Float] {
        let path = EchoPath.forPractice(sampleRate: rate, memory: .infinity)
        path.add(recording: microphone, mix: mix)
        var filter = [Float](repeating: 0, count: path.taps)
        filter.withUnsafeMutableBufferPointer { path.solve(with: ToeplitzSolver(count: path.taps), into: $0) }
        let canceller = EchoCanceller(hop: 64, taps: path.taps, lead: path.lead)
        filter.withUnsafeBufferPointer { canceller.load($0) }
        var echo = [Float](repeating: 0, count: microphone.count)
        for start in stride(from: 0, to: microphone.count - 64 - path.lead, by: 64) {
            var hop = Array(microphone[start..<(start + 64)])
            let ahead = Array(mix[(start + path.lead)..<(start + path.lead + 64)])
            hop.withUnsafeMutableBufferPointer { h in ahead.withUnsafeBufferPointer { canceller.cancel(h, mix: $0) } }
            for i in 0..<64 { echo[start + i] = canceller.echo[i] }
        }
        return echo
    }

    /// A room's echo under a voice 10 dB louder: the path learned from the whole recording takes the echo down by
    /// 12 dB or more (from 10 dB under the voice to 22 dB under it), and the echo it takes out is as loud as the
    /// room's; without the mix in the microphone, it takes out next to nothing.
    @Test func aRoomsEchoIsTakenOutUnderAVoice() {
        let rate = 16000.0, count = 16000 * 30
        let mix = Chords.render(count: count, sampleRate: rate, seed: 1)
        var voice = SyntheticVoice(sampleRate: rate)
        voice.amplitude = 0.5
        let sung = voice.render(
            (0..<30).map { SyntheticVoice.Note(start: Double($0), duration: 0.9, frequency: 196 * pow(2, Double($0 % 5) / 12)) }, length: 30
        )
        var echo = Self.room(mix, rate: rate)
        let scale = Float(Self.rms(sung) / Self.rms(echo) * pow(10, -10.0 / 20))
        echo = echo.map { $0 * scale }
        let microphone = zip(sung, echo).map { $0 + $1 }
        let takenOut = Self.cancel(microphone, mix: mix, rate: rate)
        let left = zip(echo, takenOut).map { $0 - $1 }
        let reduction = 20 * log10(Self.rms(left[16000...]) / Self.rms(echo[16000...]))
        #expect(reduction < -12, "echo reduced by \(reduction) dB")
        let loudness = Self.rms(takenOut) / Self.rms(echo)
        #expect(abs(loudness - 1) < 0.1, "the echo taken out is \(loudness) times as loud as the room's")
        let stray = Self.rms(Self.cancel(sung, mix: mix, rate: rate)) / Self.rms(echo)
        #expect(stray < 0.2, "with no mix in the microphone, \(stray) of the room's echo taken out")
    }
}
