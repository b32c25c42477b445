import CFFTW
import Glibc

/// The first half of the pitch tracker: YIN's difference function (de Cheveigné and Kawahara, 2002), computed
/// through FFTW's single-precision real transforms, and the periods it suggests, weighed as probabilistic YIN
/// does (Mauch and Dixon, 2014). ``PitchDecoder`` chooses among them over time.
///
/// Each dip of d′ is the period for every YIN threshold that it is the first dip to pass; with the thresholds
/// spread as a Beta(2, 18) distribution (mean 0.1), a dip's share of them is how likely it is the period. A
/// low spread of thresholds is what keeps YIN from a voice's octave above: a strong second harmonic makes a dip
/// at half the period, but rarely a deep one. Whether the window is voiced at all is a separate question,
/// answered from how periodic its best dip is (``PitchTrackerConfiguration/voicingThreshold``), so that the
/// low thresholds do not also make soft or breathy singing unvoiced.
///
/// Construction allocates every buffer and plans the transforms; `observe` allocates nothing, takes no lock
/// and makes no system call, so it may run on a real-time thread. One detector must not be used from two
/// threads at once.
public final class YINDetector: @unchecked Sendable {
    public let configuration: PitchTrackerConfiguration
    private let minimumLag: Int
    private let maximumLag: Int

    /// Transform length: the window plus the longest lag, so the correlation does not wrap around.
    private let transformLength: Int
    private let frame: UnsafeMutablePointer<Float>
    private let spectrum: UnsafeMutablePointer<fftwf_complex>
    private let correlation: UnsafeMutablePointer<Float>
    /// Running sums of squares of the window.
    private let energy: UnsafeMutablePointer<Float>
    private let difference: UnsafeMutablePointer<Float>
    private let normalised: UnsafeMutablePointer<Float>
    /// The dips that are deeper than every dip at a shorter lag: the only ones a threshold can pick.
    private let records: UnsafeMutablePointer<(lag: Int, depth: Float, share: Double)>
    private let forwardPlan: fftwf_plan
    private let inversePlan: fftwf_plan

    /// Allocates and plans for a configuration that ``PitchTrackerConfiguration/validate()`` accepted: do it
    /// off the audio thread.
    init(_ configuration: PitchTrackerConfiguration) {
        let c = configuration
        self.configuration = c
        maximumLag = c.maximumLag
        minimumLag = max(2, Int((c.sampleRate / c.maximumFrequency).rounded(.down)) - 1)

        let n = c.window
        let length = FFTW.fastLength(atLeast: n + maximumLag + 1)
        transformLength = length
        let frame = fftwf_alloc_real(length)!, correlation = fftwf_alloc_real(length)!
        let spectrum = fftwf_alloc_complex(length / 2 + 1)!
        // FFTW's planner keeps global state: plan under its lock, here and only here.
        (forwardPlan, inversePlan) = FFTWPlanner.withLock {
            let flags = UInt32(FFTW_ESTIMATE)
            return (
                fftwf_plan_dft_r2c_1d(Int32(length), frame, spectrum, flags)!,
                fftwf_plan_dft_c2r_1d(Int32(length), spectrum, correlation, flags)!
            )
        }
        frame.initialize(repeating: 0, count: length)
        (self.frame, self.correlation, self.spectrum) = (frame, correlation, spectrum)
        energy = .allocate(capacity: n + 1)
        energy.initialize(repeating: 0, count: n + 1)
        difference = .allocate(capacity: maximumLag + 2)
        difference.initialize(repeating: 0, count: maximumLag + 2)
        normalised = .allocate(capacity: maximumLag + 2)
        normalised.initialize(repeating: 1, count: maximumLag + 2)
        records = .allocate(capacity: maximumLag + 1)
    }

    deinit {
        FFTWPlanner.withLock {
            fftwf_destroy_plan(forwardPlan)
            fftwf_destroy_plan(inversePlan)
        }
        fftwf_free(frame)
        fftwf_free(correlation)
        fftwf_free(spectrum)
        energy.deallocate()
        difference.deallocate()
        normalised.deallocate()
        records.deallocate()
    }

    /// The share of thresholds, spread as Beta(2, 18), that lie below `x`: its cumulative distribution,
    /// 1 − (1 − x)¹⁸ (1 + 18x).
    @inline(__always)
    static func thresholdsBelow(_ x: Float) -> Double {
        let x = Double(min(1, max(0, x)))
        return 1 - pow(1 - x, 18) * (1 + 18 * x)
    }

    /// Analyses one window of `configuration.window` samples whose centre lies at `time` seconds.
    /// Allocates nothing and takes no lock.
    public func observe(_ samples: UnsafeBufferPointer<Float>, time: Double) -> PitchObservation {
        let n = configuration.window
        precondition(samples.count >= n, "a frame needs \(n) samples")
        var sum: Float = 0
        for i in 0..<n { sum += samples[i] }
        // Remove DC so that a constant offset is not heard as a very low pitch. energy[i] = Σ_{j<i} x_j².
        let mean = sum / Float(n)
        energy[0] = 0
        for i in 0..<n {
            let x = samples[i] - mean
            frame[i] = x
            energy[i + 1] = energy[i] + x * x
        }
        let rms = (energy[n] / Float(n)).squareRoot()
        guard rms.isFinite, Double(rms) > configuration.silenceRMS else {
            return PitchObservation(time: time, level: rms.isFinite ? Double(rms) : 0)
        }

        // r(τ) = Σ_{j<n−τ} x_j x_{j+τ}, the autocorrelation over the whole window, by FFT (zero-padded so
        // that it does not wrap). Using the whole window keeps every lag's estimate centred on the window's
        // centre, where the frame is stamped, so a gliding pitch is not read early.
        fftwf_execute(forwardPlan)
        let scale = 1 / Float(transformLength)
        for k in 0..<(transformLength / 2 + 1) {
            let (re, im) = (spectrum[k].0, spectrum[k].1)
            spectrum[k] = ((re * re + im * im) * scale, 0)
        }
        fftwf_execute(inversePlan)

        // d(τ) = Σ (x_j − x_{j+τ})² = E(0, n−τ) + E(τ, n) − 2 r(τ), scaled by n / (n − τ) so that the shorter
        // overlap at long lags does not favour them.
        let top = maximumLag + 1
        var running: Float = 0
        for tau in 1...top {
            let overlap = n - tau
            let pairs: Float = energy[overlap] + energy[n] - energy[tau] - 2 * correlation[tau]
            let d: Float = max(0, pairs) * Float(n) / Float(overlap)
            difference[tau] = d
            running += d
            normalised[tau] = running > 0 ? d * Float(tau) / running : 1
        }

        // The dips a threshold can pick, in order of lag: each deeper than every one before it. The
        // thresholds between the previous record and this dip pick this one.
        var count = 0
        var lowest: Float = 1
        var previousShare = 1.0
        for tau in minimumLag..<maximumLag where normalised[tau] < normalised[tau - 1] && normalised[tau] <= normalised[tau + 1] {
            guard normalised[tau] < lowest else { continue }
            let share = Self.thresholdsBelow(normalised[tau])
            records[count] = (tau, normalised[tau], previousShare - share)
            previousShare = share
            lowest = normalised[tau]
            count += 1
        }
        var observation = PitchObservation(time: time, level: Double(rms), aperiodicity: Double(lowest))
        guard count > 0 else { return observation }
        // Thresholds below every dip pick none; like probabilistic YIN, give them to the deepest dip.
        records[count - 1].share += previousShare
        // How likely the window is voiced, from how periodic its best dip is: even at this aperiodicity, as
        // likely voiced as not, each 0.05 below it about three times as likely.
        let voiced = 1 / (1 + exp((Double(lowest) - configuration.voicingThreshold) / 0.05))
        for i in 0..<count {
            let (tau, depth, share) = records[i]
            guard share > 1e-6 else { continue }
            // Parabolic interpolation on the raw difference, which is smooth near the period.
            let (a, b, c) = (difference[tau - 1], difference[tau], difference[tau + 1])
            let curvature = a - 2 * b + c
            var offset: Float = curvature > 0 ? 0.5 * (a - c) / curvature : 0
            if !offset.isFinite || abs(offset) > 1 { offset = 0 }
            let frequency = configuration.sampleRate / (Double(tau) + Double(offset))
            guard frequency >= configuration.minimumFrequency * 0.97, frequency <= configuration.maximumFrequency * 1.03 else {
                continue
            }
            observation.candidates.add(PitchCandidate(frequency: frequency, aperiodicity: Double(depth), probability: share * voiced))
        }
        return observation
    }
}
