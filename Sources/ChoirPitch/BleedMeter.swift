import CFFTW

/// Measures how loud a known signal, the mix played through loudspeakers, comes through a microphone: the
/// least-squares gain from the mix to the microphone at the delay where they match best, from cross-correlations
/// accumulated block by block through FFTW. What else the microphone hears (the singer) does not correlate with
/// the mix, so it makes the estimate noisier, not larger. Older blocks count less and less (`memory`): the delay
/// drifts when the loudspeakers and the microphone run on different clocks, or a sound server resamples between
/// them, and a correlation summed over a drifting delay smears.
///
/// Building a meter allocates every buffer and plans the transforms; `add` allocates nothing and takes no lock.
public final class BleedMeter: @unchecked Sendable {
    /// Microphone samples per block.
    public let block: Int
    /// The largest delay, either way, between the mix and the microphone that is looked for, in samples.
    public let maximumLag: Int
    private let length: Int
    private let microphone: UnsafeMutablePointer<Float>
    private let mix: UnsafeMutablePointer<Float>
    private let microphoneSpectrum: UnsafeMutablePointer<fftwf_complex>
    private let mixSpectrum: UnsafeMutablePointer<fftwf_complex>
    /// Σ microphone[i] · mix[i + k] over every block, for k from 0 (the mix `maximumLag` later than the
    /// microphone) to 2 · `maximumLag` (that much earlier).
    private let correlation: UnsafeMutablePointer<Double>
    private let forwardMicrophone: fftwf_plan
    private let forwardMix: fftwf_plan
    private let inverse: fftwf_plan
    private var mixEnergy = 0.0
    /// Where the correlation peaks.
    private var peak = 0
    /// What each block's sums are multiplied by before the next is added.
    private let decay: Double

    /// A meter for blocks of `block` microphone samples and delays up to `maximumLag` samples either way, whose
    /// estimate rests mostly on the latest `memory` blocks.
    public init(block: Int, maximumLag: Int, memory: Double) {
        precondition(block > 0 && maximumLag >= 0 && memory >= 1)
        self.block = block
        self.maximumLag = maximumLag
        decay = 1 - 1 / memory
        let length = FFTW.fastLength(atLeast: block + 2 * maximumLag)
        self.length = length
        let microphone = fftwf_alloc_real(length)!, mix = fftwf_alloc_real(length)!
        let microphoneSpectrum = fftwf_alloc_complex(length / 2 + 1)!, mixSpectrum = fftwf_alloc_complex(length / 2 + 1)!
        (self.microphone, self.mix, self.microphoneSpectrum, self.mixSpectrum) = (microphone, mix, microphoneSpectrum, mixSpectrum)
        (forwardMicrophone, forwardMix, inverse) = FFTWPlanner.withLock {
            let flags = UInt32(FFTW_ESTIMATE)
            return (
                fftwf_plan_dft_r2c_1d(Int32(length), microphone, microphoneSpectrum, flags)!,
                fftwf_plan_dft_r2c_1d(Int32(length), mix, mixSpectrum, flags)!,
                fftwf_plan_dft_c2r_1d(Int32(length), mixSpectrum, mix, flags)!
            )
        }
        correlation = .allocate(capacity: 2 * maximumLag + 1)
        correlation.initialize(repeating: 0, count: 2 * maximumLag + 1)
    }

    deinit {
        FFTWPlanner.withLock { [forwardMicrophone, forwardMix, inverse].forEach { fftwf_destroy_plan($0) } }
        fftwf_free(microphone)
        fftwf_free(mix)
        fftwf_free(microphoneSpectrum)
        fftwf_free(mixSpectrum)
        correlation.deallocate()
    }

    /// Adds one block: `block` microphone samples, and the `block + 2 · maximumLag` samples of the mix around
    /// them, `mix[maximumLag + i]` being what played when `microphone[i]` was captured, as far as the clocks know.
    public func add(microphone captured: UnsafeBufferPointer<Float>, mix played: UnsafeBufferPointer<Float>) {
        precondition(captured.count == block && played.count == block + 2 * maximumLag)
        microphone.update(from: captured.baseAddress!, count: block)
        microphone.advanced(by: block).update(repeating: 0, count: length - block)
        mix.update(from: played.baseAddress!, count: played.count)
        mix.advanced(by: played.count).update(repeating: 0, count: length - played.count)
        mixEnergy *= decay
        for i in 0..<block { mixEnergy += Double(played[maximumLag + i] * played[maximumLag + i]) }
        fftwf_execute(forwardMicrophone)
        fftwf_execute(forwardMix)
        // conj(M) × X: the inverse transform at index k is Σ microphone[i] · mix[i + k].
        for i in 0..<(length / 2 + 1) {
            let (mr, mi) = (microphoneSpectrum[i].0, microphoneSpectrum[i].1)
            let (xr, xi) = (mixSpectrum[i].0, mixSpectrum[i].1)
            mixSpectrum[i] = (mr * xr + mi * xi, mr * xi - mi * xr)
        }
        fftwf_execute(inverse)
        let scale = 1 / Double(length)
        peak = 0
        for k in 0...(2 * maximumLag) {
            correlation[k] = correlation[k] * decay + Double(mix[k]) * scale
            if abs(correlation[k]) > abs(correlation[peak]) { peak = k }
        }
    }

    /// Adds a whole recording, `microphone`, block by block, with `mix` (sample for sample at the same moments)
    /// around each block; silence where the mix does not reach. A trailing part block is left out. Allocates one
    /// block's worth of mix: this is for recordings, not for a real-time thread.
    public func add(recording microphone: [Float], mix: [Float]) {
        var around = [Float](repeating: 0, count: block + 2 * maximumLag)
        for start in stride(from: 0, through: microphone.count - block, by: block) {
            for i in around.indices {
                let j = start - maximumLag + i
                around[i] = j >= 0 && j < mix.count ? mix[j] : 0
            }
            microphone[start..<(start + block)].withUnsafeBufferPointer { captured in
                around.withUnsafeBufferPointer { add(microphone: captured, mix: $0) }
            }
        }
    }

    /// The gain from the mix to the microphone at the delay where they match best; 0 before any mix was heard.
    public var gain: Double { mixEnergy > 0 ? abs(correlation[peak]) / mixEnergy : 0 }

    /// Samples by which the microphone hears the mix later than the clocks said (negative: earlier).
    public var delay: Int { maximumLag - peak }

    /// The mix's energy measured so far: how much there was to hear.
    public var energy: Double { mixEnergy }

    /// A meter for a practice session at `sampleRate`: blocks of about a sixth of a second, delays up to 250 ms
    /// either way (loudspeakers across a room, a latency left uncompensated, a sound server's loopback), and a
    /// memory of `memory` seconds (a recorded take, which cannot drift, remembers all of it).
    public static func forPractice(sampleRate: Double, memory: Double) -> BleedMeter {
        let block = fastLengthBelow(sampleRate / 6)
        return BleedMeter(block: block, maximumLag: Int(0.25 * sampleRate), memory: max(1, memory * sampleRate / Double(block)))
    }

    private static func fastLengthBelow(_ limit: Double) -> Int {
        var length = 256
        while Double(length * 2) <= limit { length *= 2 }
        return length
    }
}
