import ChoirBase
import CFFTW

/// Learns how a known signal, the mix played through loudspeakers, reaches a microphone: the impulse response
/// (an FIR filter) that best turns the mix into what the microphone heard of it, in the least-squares sense.
///
/// Block by block, it accumulates through FFTW the correlation of the microphone with the mix and the mix's own
/// correlation over the filter's lags; the filter solves the Wiener–Hopf equations they make (a Toeplitz system,
/// by ``ToeplitzSolver``). What else the microphone hears (the singer) does not correlate with the
/// mix, so it makes the estimate noisier, not biased. Older blocks count less and less (`memory`): the path
/// changes when someone moves, and two clocks drift.
///
/// The filter's first tap is `lead` samples before the moment the clocks say the microphone heard the mix (the
/// clocks may be a little off), its last `length` − 1 samples after: a room's direct sound and its first tenth
/// of a second of reflections. Building a path allocates every buffer and plans the transforms; `add` and
/// `solve` allocate nothing and take no lock.
public final class EchoPath: @unchecked Sendable {
    /// Microphone samples per block.
    public let block: Int
    /// Taps before and after the clocks' moment.
    public let lead: Int
    public let length: Int
    /// Taps of the filter: `lead + length`.
    public var taps: Int { lead + length }
    private let transform: Int
    private let buffer: UnsafeMutablePointer<Float>
    private let contextSpectrum: UnsafeMutablePointer<fftwf_complex>
    private let spectrum: UnsafeMutablePointer<fftwf_complex>
    private let forward: fftwf_plan
    private let forwardContext: fftwf_plan
    private let inverse: fftwf_plan
    /// Σ microphone[i] · mix[i + lead − m] and Σ mix[i + lead] · mix[i + lead − m], for m from 0 to taps − 1.
    private let crossCorrelation: UnsafeMutablePointer<Double>
    private let autoCorrelation: UnsafeMutablePointer<Double>
    /// Where the correlation with the microphone peaks.
    private var peak = 0
    private let decay: Double
    /// Blocks added so far.
    public private(set) var blocks = 0

    /// A path for blocks of `block` microphone samples and a filter of `lead + length` taps, whose estimate rests
    /// mostly on the latest `memory` blocks.
    public init(block: Int, lead: Int, length: Int, memory: Double) {
        precondition(block > 0 && lead >= 0 && length > 0 && memory >= 1)
        self.block = block
        self.lead = lead
        self.length = length
        decay = 1 - 1 / memory
        let taps = lead + length
        let transform = FFTW.fastLength(atLeast: block + taps - 1)
        self.transform = transform
        let buffer = fftwf_alloc_real(transform)!
        let contextSpectrum = fftwf_alloc_complex(transform / 2 + 1)!, spectrum = fftwf_alloc_complex(transform / 2 + 1)!
        (self.buffer, self.contextSpectrum, self.spectrum) = (buffer, contextSpectrum, spectrum)
        (forward, forwardContext, inverse) = FFTWPlanner.withLock {
            let flags = UInt32(FFTW_ESTIMATE)
            return (
                fftwf_plan_dft_r2c_1d(Int32(transform), buffer, spectrum, flags)!,
                fftwf_plan_dft_r2c_1d(Int32(transform), buffer, contextSpectrum, flags)!,
                fftwf_plan_dft_c2r_1d(Int32(transform), spectrum, buffer, flags)!
            )
        }
        crossCorrelation = .allocate(capacity: taps)
        crossCorrelation.initialize(repeating: 0, count: taps)
        autoCorrelation = .allocate(capacity: taps)
        autoCorrelation.initialize(repeating: 0, count: taps)
    }

    deinit {
        FFTWPlanner.withLock { [forward, forwardContext, inverse].forEach { fftwf_destroy_plan($0) } }
        fftwf_free(buffer)
        fftwf_free(contextSpectrum)
        fftwf_free(spectrum)
        crossCorrelation.deallocate()
        autoCorrelation.deallocate()
    }

    /// Samples of the mix around a block that `add` needs: `mix[taps − 1 − lead + i]` is what played when
    /// `microphone[i]` was captured, as far as the clocks know.
    public var context: Int { block + taps - 1 }

    /// Adds one block: `block` microphone samples and the ``context`` samples of the mix around them.
    public func add(microphone captured: UnsafeBufferPointer<Float>, mix played: UnsafeBufferPointer<Float>) {
        precondition(captured.count == block && played.count == context)
        let taps = self.taps
        transformContext(played.baseAddress!)
        let scale = 1 / Double(transform)
        crossSpectrum(captured.baseAddress!)
        fftwf_execute(inverse)
        peak = 0
        for m in 0..<taps {
            crossCorrelation[m] = crossCorrelation[m] * decay + Double(buffer[m]) * scale
            if abs(crossCorrelation[m]) > abs(crossCorrelation[peak]) { peak = m }
        }
        crossSpectrum(played.baseAddress! + taps - 1)
        fftwf_execute(inverse)
        for m in 0..<taps { autoCorrelation[m] = autoCorrelation[m] * decay + Double(buffer[m]) * scale }
        blocks += 1
    }

    /// Transforms a block's ``context`` samples of the mix into `contextSpectrum`.
    private func transformContext(_ played: UnsafePointer<Float>) {
        buffer.update(from: played, count: context)
        buffer.advanced(by: context).update(repeating: 0, count: transform - context)
        fftwf_execute(forwardContext)
    }

    /// Leaves in `spectrum` the spectrum of `block` samples of `signal`, placed where they sit in the context, times
    /// the context's conjugate: its inverse transform is Σ signal[j] · context[j − m] at index m.
    private func crossSpectrum(_ signal: UnsafePointer<Float>) {
        buffer.update(repeating: 0, count: transform)
        (buffer + taps - 1).update(from: signal, count: block)
        fftwf_execute(forward)
        for k in 0..<(transform / 2 + 1) {
            let (a, b) = (spectrum[k], contextSpectrum[k])
            spectrum[k] = (a.0 * b.0 + a.1 * b.1, a.1 * b.0 - a.0 * b.1)
        }
    }

    /// The path's strongest single tap: how loud the mix comes through at the delay it comes through most (in
    /// samples after the clocks' moment). A rough estimate, for when the filter cannot be trusted; 0 before any
    /// mix was heard.
    public var coarse: (gain: Double, delay: Int) {
        (autoCorrelation[0] > 0 ? abs(crossCorrelation[peak]) / autoCorrelation[0] : 0, peak - lead)
    }

    /// Adds a whole recording block by block, with `mix` (sample for sample at the same moments) around each
    /// block; silence where the mix does not reach. A trailing part block is left out. A path that forgets nothing
    /// (a recording's, whose correlations are sums over its blocks) shares the blocks out among `threads` paths of
    /// its own and adds up what they learned. Allocates: this is for recordings, not for a real-time thread.
    public func add(recording microphone: [Float], mix: [Float], threads: Int = 2) {
        let whole = microphone.count / block
        guard decay == 1, threads > 1, whole >= threads else {
            add(recording: microphone, mix: mix, numbered: 0..<whole)
            return
        }
        let workers = (0..<threads).map { _ in EchoPath(block: block, lead: lead, length: length, memory: .infinity) }
        Parallel.slices(of: whole, workers: threads) { worker, slice in
            workers[worker].add(recording: microphone, mix: mix, numbered: slice)
        }
        for worker in workers {
            for m in 0..<taps {
                crossCorrelation[m] += worker.crossCorrelation[m]
                autoCorrelation[m] += worker.autoCorrelation[m]
            }
            self.blocks += worker.blocks
        }
        peak = strongestTap()
    }

    /// Adds the recording's blocks `numbered` (the first being 0), one after the other. A path that forgets nothing
    /// sums their cross spectra and transforms the sums back once: the transform is linear, so this is the sum of
    /// the blocks' correlations at two fifths fewer transforms a block.
    private func add(recording microphone: [Float], mix: [Float], numbered: Range<Int>) {
        var around = [Float](repeating: 0, count: context)
        func eachBlock(_ body: (_ captured: UnsafeBufferPointer<Float>, _ played: UnsafeBufferPointer<Float>) -> Void) {
            for number in numbered {
                let start = number * block
                for i in around.indices {
                    let j = start - (taps - 1 - lead) + i
                    around[i] = j >= 0 && j < mix.count ? mix[j] : 0
                }
                microphone[start..<(start + block)].withUnsafeBufferPointer { captured in
                    around.withUnsafeBufferPointer { body(captured, $0) }
                }
            }
        }
        guard decay == 1 else {
            eachBlock { add(microphone: $0, mix: $1) }
            return
        }
        let bins = transform / 2 + 1
        var sums = [Double](repeating: 0, count: 4 * bins)
        func accumulate(into offset: Int) {
            for k in 0..<bins {
                sums[offset + 2 * k] += Double(spectrum[k].0)
                sums[offset + 2 * k + 1] += Double(spectrum[k].1)
            }
        }
        eachBlock { captured, played in
            transformContext(played.baseAddress!)
            crossSpectrum(captured.baseAddress!)
            accumulate(into: 0)
            crossSpectrum(played.baseAddress! + taps - 1)
            accumulate(into: 2 * bins)
        }
        let scale = 1 / Double(transform)
        for (offset, correlation) in [(0, crossCorrelation), (2 * bins, autoCorrelation)] {
            for k in 0..<bins { spectrum[k] = (Float(sums[offset + 2 * k]), Float(sums[offset + 2 * k + 1])) }
            fftwf_execute(inverse)
            for m in 0..<taps { correlation[m] += Double(buffer[m]) * scale }
        }
        peak = strongestTap()
        blocks += numbered.count
    }

    /// The lag where the correlation with the microphone is strongest.
    private func strongestTap() -> Int {
        (0..<taps).max { abs(crossCorrelation[$0]) < abs(crossCorrelation[$1]) } ?? 0
    }

    /// Forgets everything learned, for a new mapping from the microphone's samples to the mix's frames.
    public func reset() {
        crossCorrelation.update(repeating: 0, count: taps)
        autoCorrelation.update(repeating: 0, count: taps)
        peak = 0
        blocks = 0
    }

    /// Copies the correlations accumulated so far, `taps` each: of the microphone with the mix, and of the mix
    /// with itself.
    public func copyCorrelations(cross: UnsafeMutableBufferPointer<Double>, auto: UnsafeMutableBufferPointer<Double>) {
        precondition(cross.count == taps && auto.count == taps)
        cross.baseAddress!.update(from: crossCorrelation, count: taps)
        auto.baseAddress!.update(from: autoCorrelation, count: taps)
    }

    /// The filter that best turns the mix into what the microphone heard of it, tap m applying to the mix
    /// `m − lead` samples before the microphone's sample (all zeros before anything was learned): the solution
    /// of the Wiener–Hopf equations the correlations make, by `solver`.
    public func solve(with solver: ToeplitzSolver, into filter: UnsafeMutableBufferPointer<Float>) {
        copyCorrelations(cross: solver.rightHandSide, auto: solver.firstRow)
        solver.solve(into: filter)
    }

}

extension EchoPath {
    /// A path for a practice session at `sampleRate`: blocks of about a sixth of a second, a filter from 10 ms
    /// before the clocks' moment to `length` seconds after it (loudspeakers a few metres away and the room's first
    /// reflections; later reverberation is too diffuse to learn while someone sings over it), and a memory of
    /// `memory` seconds. A recorded take, whose path cannot change, is learned by ``forRecording(sampleRate:count:)``.
    public static func forPractice(sampleRate: Double, memory: Double, length: Double = 0.12) -> EchoPath {
        practice(sampleRate: sampleRate, block: sampleRate / 6, memory: memory, length: length)
    }

    /// A practice path for a recorded take of `count` samples, which remembers all of it. Its correlations are sums
    /// over the whole take, the same whatever the block, so a take longer than about 11 s is learned in blocks of the
    /// longest power of two up to two thirds of a second (16,384 samples, 0.34 s, at 48 kHz): fewer, longer
    /// transforms, two fifths fewer operations a sample than a live session's blocks. A block is at most a thirty-second part of the take (256 samples at least), and only the
    /// part block at the take's end is left out.
    public static func forRecording(sampleRate: Double, count: Int) -> EchoPath {
        practice(sampleRate: sampleRate, block: min(sampleRate * 2 / 3, Double(count) / 32), memory: .infinity, length: 0.12)
    }

    /// Blocks of the longest power of two up to `block` samples (256 at least).
    private static func practice(sampleRate: Double, block longest: Double, memory: Double, length: Double) -> EchoPath {
        var block = 256
        while Double(block * 2) <= longest { block *= 2 }
        return EchoPath(
            block: block, lead: Int(0.01 * sampleRate), length: Int(length * sampleRate),
            memory: max(1, memory * sampleRate / Double(block)))
    }
}
