import ChoirBase
import CFFTW
import Glibc

/// Short-time power spectra (``Spectrum``) through FFTW: a Hann window of 64 ms, whose 15.6 Hz bins part the
/// harmonics of two notes a semitone apart from their fifth harmonic up.
///
/// Building one plans the transform and allocates every buffer; ``analyse(_:time:)`` allocates nothing.
public final class SpectrumAnalyser: @unchecked Sendable {
    /// The window's length in seconds.
    public static let windowSeconds = 0.064

    public let sampleRate: Double
    /// The window's length in samples.
    public let length: Int
    private let window: [Float]
    private let input: UnsafeMutablePointer<Float>
    private let output: UnsafeMutablePointer<fftwf_complex>
    private let plan: fftwf_plan
    /// A full-scale sine's peak power through the window: (N / 4)².
    private let reference: Float

    /// An analyser for signals at `sampleRate` Hz (8 kHz or more, so that the bins reach 4 kHz).
    public init(sampleRate: Double) {
        precondition(sampleRate >= 8000, "a spectrum to 4 kHz needs 8 kHz or more")
        self.sampleRate = sampleRate
        let length = Int((Self.windowSeconds * sampleRate).rounded())
        let input = fftwf_alloc_real(length)!, output = fftwf_alloc_complex(length / 2 + 1)!
        self.length = length
        self.input = input
        self.output = output
        window = (0..<length).map { Float(0.5 - 0.5 * cos(2 * Double.pi * (Double($0) + 0.5) / Double(length))) }
        plan = FFTWPlanner.withLock {
            fftwf_plan_dft_r2c_1d(Int32(length), input, output, UInt32(FFTW_ESTIMATE) | UInt32(FFTW_DESTROY_INPUT))!
        }
        reference = Float(length * length) / 16
    }

    deinit {
        FFTWPlanner.withLock { fftwf_destroy_plan(plan) }
        fftwf_free(input)
        fftwf_free(output)
    }

    /// The spectrum of `samples` (``length`` of them, oldest first; fewer are taken as followed by silence),
    /// whose centre is at `time`.
    public func analyse(_ samples: UnsafeBufferPointer<Float>, time: Double) -> Spectrum {
        let count = min(samples.count, length)
        for i in 0..<count { input[i] = samples[i] * window[i] }
        for i in count..<length { input[i] = 0 }
        fftwf_execute(plan)
        var spectrum = Spectrum(time: time, binWidth: sampleRate / Double(length))
        for bin in 0..<min(Spectrum.binCount, length / 2 + 1) {
            let (re, im) = output[bin]
            spectrum.set(bin, relativePower: (re * re + im * im) / reference)
        }
        return spectrum
    }

    /// The spectra of a whole recording every `hop` seconds from its start, each window centred on its time
    /// (the recording is taken as silent beyond its ends). Only what lies below 4 kHz is kept, so the signal is
    /// first decimated to 8 kHz or a little more, which makes the transforms six times shorter at 48 kHz. Meant
    /// for files: the work is shared by `threads` analysers.
    public static func spectra(of signal: [Float], sampleRate: Double, hop: Double, threads: Int = 2) -> [Spectrum] {
        let factor = max(1, Int(sampleRate / 8000))
        let reduced = factor == 1 ? signal : decimate(signal, by: factor, threads: threads)
        let analysers = (0..<max(1, threads)).map { _ in SpectrumAnalyser(sampleRate: sampleRate / Double(factor)) }
        let length = analysers[0].length, rate = analysers[0].sampleRate
        let padded = [Float](repeating: 0, count: length / 2) + reduced + [Float](repeating: 0, count: length)
        let duration = Double(signal.count) / sampleRate
        var count = Int((duration / hop).rounded(.up))
        while count > 0 && Double(count - 1) * hop >= duration { count -= 1 }
        var spectra = [Spectrum](repeating: Spectrum(time: 0, binWidth: 0), count: count)
        spectra.withUnsafeMutableBufferPointer { output in
            padded.withUnsafeBufferPointer { all in
                Parallel.slices(of: count, workers: analysers.count) { worker, slice in
                    for index in slice {
                        let time = Double(index) * hop
                        let start = Int((time * rate).rounded())
                        output[index] = analysers[worker].analyse(UnsafeBufferPointer(rebasing: all[start..<start + length]), time: time)
                    }
                }
            }
        }
        return spectra
    }

    /// Every `factor`th sample of `signal` after a low-pass at 90% of the new Nyquist frequency (a windowed sinc
    /// of 16 taps per step, Blackman-windowed: more than 70 dB down past the new Nyquist frequency), shared by
    /// `threads` workers.
    static func decimate(_ signal: [Float], by factor: Int, threads: Int = 2) -> [Float] {
        let half = 8 * factor
        let cutoff = 0.9 / Double(2 * factor)
        let taps = (-half...half).map { n -> Float in
            let x = Double(n)
            let sinc = n == 0 ? 2 * cutoff : sin(2 * Double.pi * cutoff * x) / (Double.pi * x)
            let t = (x + Double(half)) / Double(2 * half)
            return Float(sinc * (0.42 - 0.5 * cos(2 * Double.pi * t) + 0.08 * cos(4 * Double.pi * t)))
        }
        var out = [Float](repeating: 0, count: (signal.count + factor - 1) / factor)
        out.withUnsafeMutableBufferPointer { out in
            signal.withUnsafeBufferPointer { x in
                taps.withUnsafeBufferPointer { taps in
                    Parallel.slices(of: out.count, workers: threads) { _, slice in
                        for j in slice {
                            let i = j * factor
                            // Four partial sums, so that each addition need not wait for the one before.
                            var sums: (Float, Float, Float, Float) = (0, 0, 0, 0)
                            var n = max(-half, -i)
                            let upper = min(half, x.count - 1 - i)
                            while n + 3 <= upper {
                                sums.0 += taps[n + half] * x[i + n]
                                sums.1 += taps[n + half + 1] * x[i + n + 1]
                                sums.2 += taps[n + half + 2] * x[i + n + 2]
                                sums.3 += taps[n + half + 3] * x[i + n + 3]
                                n += 4
                            }
                            while n <= upper {
                                sums.0 += taps[n + half] * x[i + n]
                                n += 1
                            }
                            out[j] = (sums.0 + sums.1) + (sums.2 + sums.3)
                        }
                    }
                }
            }
        }
        return out
    }
}
