import CFFTW
import Dispatch

/// One analysed frame.
public struct PitchFrame: Equatable, Sendable {
    /// Centre of the analysis window, in seconds from the start of the signal.
    public var time: Double
    /// Fundamental frequency in Hz; 0 when unvoiced.
    public var frequency: Double
    /// 1 − d′ at the chosen lag (the cumulative mean normalised difference); 0 for silence.
    public var confidence: Double
    /// RMS of the window, so that a judge can tell the singer from quieter sounds around them.
    public var level: Double
    /// RMS, over the same window, of the mix that was playing: what the microphone may hear besides the singer
    /// (0 when nothing is known to play). The detector leaves it at 0; a practice session fills it in.
    public var accompaniment: Double
    public var isVoiced: Bool { frequency > 0 }

    public init(time: Double, frequency: Double, confidence: Double, level: Double = 0, accompaniment: Double = 0) {
        self.time = time
        self.frequency = frequency
        self.confidence = confidence
        self.level = level
        self.accompaniment = accompaniment
    }
}

/// The YIN fundamental-frequency estimator (de Cheveigné and Kawahara, 2002), with the difference function
/// computed through FFTW's single-precision real transforms.
///
/// Construction allocates every buffer and plans the transforms; `analyse` allocates nothing, takes no lock
/// and makes no system call, so it may run on a real-time thread. One detector must not be used from two
/// threads at once.
public final class YINDetector: @unchecked Sendable {
    /// What a detector listens for and how.
    public struct Configuration: Equatable, Sendable {
        public var sampleRate: Double
        /// Analysis window in samples; it must hold two periods of the lowest frequency.
        public var window: Int
        /// Samples between successive frames.
        public var hop: Int
        public var minimumFrequency: Double
        public var maximumFrequency: Double
        /// The absolute threshold on d′ below which a dip counts as the period.
        public var threshold: Double
        /// Frames quieter than this RMS are unvoiced (silence gate).
        public var silenceRMS: Double

        /// A bass's low E (E2) up to a soprano's high C (C6).
        public static let singingRange = (minimum: 82.0, maximum: 1050.0)

        public init(
            sampleRate: Double, window: Int = 2048, hop: Int = 256,
            minimumFrequency: Double = singingRange.minimum, maximumFrequency: Double = singingRange.maximum,
            threshold: Double = 0.15, silenceRMS: Double = 0.001
        ) {
            self.sampleRate = sampleRate
            self.window = window
            self.hop = hop
            self.minimumFrequency = minimumFrequency
            self.maximumFrequency = maximumFrequency
            self.threshold = threshold
            self.silenceRMS = silenceRMS
        }
    }

    /// A configuration that cannot work, with what was expected.
    public struct ConfigurationError: Error, CustomStringConvertible, Equatable, Sendable {
        public var description: String
    }

    public let configuration: Configuration
    private let minimumLag: Int
    private let maximumLag: Int

    /// Transform length: the window plus the longest lag, so the correlation does not wrap around.
    private let transformLength: Int
    private let frame: UnsafeMutablePointer<Float>
    private let spectrum: UnsafeMutablePointer<fftwf_complex>
    private let correlation: UnsafeMutablePointer<Float>
    /// Running sums of squares: energy[i] = Σ_{j<i} x_j².
    private let energy: UnsafeMutablePointer<Float>
    private let difference: UnsafeMutablePointer<Float>
    private let normalised: UnsafeMutablePointer<Float>
    private let forwardPlan: fftwf_plan
    private let inversePlan: fftwf_plan

    /// Checks `configuration`, allocates and plans: do it off the audio thread.
    public init(_ configuration: Configuration) throws(ConfigurationError) {
        let c = configuration
        guard c.sampleRate.isFinite, c.sampleRate >= 1000, c.sampleRate <= 768_000 else {
            throw ConfigurationError(description: "sample rate \(c.sampleRate) Hz: expected 1000 to 768000")
        }
        guard c.minimumFrequency.isFinite, c.maximumFrequency.isFinite, c.minimumFrequency > 0,
            c.minimumFrequency < c.maximumFrequency, c.maximumFrequency < c.sampleRate / 2
        else {
            throw ConfigurationError(
                description: "frequency range \(c.minimumFrequency)–\(c.maximumFrequency) Hz: expected 0 < min < max "
                    + "< \(c.sampleRate / 2) Hz (half the sample rate)")
        }
        guard c.window >= 32, c.window <= 1 << 18, c.window % 2 == 0 else {
            throw ConfigurationError(description: "window \(c.window): expected an even number of samples from 32 to 262144")
        }
        let maximumLag = Int((c.sampleRate / c.minimumFrequency).rounded(.up)) + 1
        guard c.window >= 2 * (maximumLag + 1) else {
            throw ConfigurationError(
                description: "window \(c.window) is too short for \(c.minimumFrequency) Hz at \(Int(c.sampleRate)) Hz: "
                    + "expected at least \(2 * (maximumLag + 1)) samples")
        }
        guard c.hop >= 1, c.hop <= c.window else {
            throw ConfigurationError(description: "hop \(c.hop): expected 1 to the window (\(c.window) samples)")
        }
        guard c.threshold > 0, c.threshold < 1 else {
            throw ConfigurationError(description: "threshold \(c.threshold): expected a value between 0 and 1")
        }
        guard c.silenceRMS >= 0, c.silenceRMS.isFinite else {
            throw ConfigurationError(description: "silence RMS \(c.silenceRMS): expected zero or more")
        }
        self.configuration = c
        self.maximumLag = maximumLag
        minimumLag = max(2, Int((c.sampleRate / c.maximumFrequency).rounded(.down)) - 1)

        let n = c.window
        let length = Self.fastLength(atLeast: n + maximumLag + 1)
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
        // Planning with FFTW_MEASURE overwrites the arrays, so they are cleared after it.
        frame.initialize(repeating: 0, count: length)
        (self.frame, self.correlation, self.spectrum) = (frame, correlation, spectrum)
        energy = .allocate(capacity: n + 1)
        energy.initialize(repeating: 0, count: n + 1)
        difference = .allocate(capacity: maximumLag + 2)
        difference.initialize(repeating: 0, count: maximumLag + 2)
        normalised = .allocate(capacity: maximumLag + 2)
        normalised.initialize(repeating: 1, count: maximumLag + 2)
    }

    /// The smallest power of two at least `minimum`: planned with FFTW_ESTIMATE (which costs microseconds
    /// rather than FFTW_MEASURE's tenth of a second), powers of two transform fastest.
    static func fastLength(atLeast minimum: Int) -> Int {
        var length = 1
        while length < minimum { length <<= 1 }
        return length
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
    }

    /// Analyses one window of `configuration.window` samples whose centre lies at `time` seconds.
    /// Allocates nothing and takes no lock.
    public func analyse(_ samples: UnsafeBufferPointer<Float>, time: Double) -> PitchFrame {
        let n = configuration.window
        precondition(samples.count >= n, "a frame needs \(n) samples")
        var sum: Float = 0
        for i in 0..<n {
            frame[i] = samples[i]
            sum += samples[i]
        }
        // Remove DC so that a constant offset is not heard as a very low pitch.
        let mean = sum / Float(n)
        var power: Float = 0
        for i in 0..<n {
            frame[i] -= mean
            power += frame[i] * frame[i]
        }
        let rms = (power / Float(n)).squareRoot()
        guard rms.isFinite, Double(rms) > configuration.silenceRMS else {
            return PitchFrame(time: time, frequency: 0, confidence: 0, level: rms.isFinite ? Double(rms) : 0)
        }
        let level = Double(rms)

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
        energy[0] = 0
        for i in 0..<n { energy[i + 1] = energy[i] + frame[i] * frame[i] }
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

        // Absolute threshold: the first dip below it, followed down to its local minimum.
        let threshold = Float(configuration.threshold)
        var chosen = -1
        var tau = minimumLag
        while tau < maximumLag {
            if normalised[tau] < threshold {
                while tau + 1 < maximumLag && normalised[tau + 1] < normalised[tau] { tau += 1 }
                chosen = tau
                break
            }
            tau += 1
        }
        if chosen < 0 {
            // No dip is deep enough: report the best one as unvoiced, with its confidence.
            var best = minimumLag
            for t in minimumLag..<maximumLag where normalised[t] < normalised[best] { best = t }
            return PitchFrame(time: time, frequency: 0, confidence: Double(max(0, 1 - normalised[best])), level: level)
        }

        // A dip at a whole fraction of the chosen period that is nearly as deep is the voice's own period: the
        // chosen one is where the voice and another sound (a line a fifth or an octave away, heard through the
        // microphone) repeat together. A voice itself never repeats at half its period, so this does not move a
        // voice that really is an octave lower.
        for divisor in [3, 2] {
            let centre = Double(chosen) / Double(divisor)
            let low = max(minimumLag, Int(centre * 0.96)), high = min(maximumLag - 1, Int(centre * 1.04) + 1)
            guard low < high else { continue }
            var dip = low
            for t in low...high where normalised[t] < normalised[dip] { dip = t }
            if dip > low, dip < high, normalised[dip] < threshold + 0.15 {
                chosen = dip
                break
            }
        }

        // Parabolic interpolation on the raw difference, which is smooth near the period.
        let (a, b, c) = (difference[chosen - 1], difference[chosen], difference[chosen + 1])
        let curvature = a - 2 * b + c
        var offset: Float = curvature > 0 ? 0.5 * (a - c) / curvature : 0
        if !offset.isFinite || abs(offset) > 1 { offset = 0 }
        let period = Double(chosen) + Double(offset)
        let frequency = configuration.sampleRate / period
        guard frequency >= configuration.minimumFrequency * 0.97, frequency <= configuration.maximumFrequency * 1.03 else {
            return PitchFrame(time: time, frequency: 0, confidence: Double(max(0, 1 - normalised[chosen])), level: level)
        }
        return PitchFrame(time: time, frequency: frequency, confidence: Double(max(0, 1 - normalised[chosen])), level: level)
    }

    /// Analyses a whole signal, one frame per hop, each stamped with the centre of its window. Meant for
    /// files: it allocates the result, and splits the frames across `threads` detectors running in parallel.
    public static func track(signal: [Float], configuration: Configuration, threads: Int = 2)
        throws(ConfigurationError) -> [PitchFrame]
    {
        let n = configuration.window, hop = configuration.hop
        guard signal.count >= n else {
            _ = try YINDetector(configuration)
            return []
        }
        let count = (signal.count - n) / hop + 1
        let workers = max(1, min(threads, count / 64 + 1))
        let detectors = try (0..<workers).map { _ throws(ConfigurationError) in try YINDetector(configuration) }
        var frames = [PitchFrame](repeating: PitchFrame(time: 0, frequency: 0, confidence: 0), count: count)
        frames.withUnsafeMutableBufferPointer { output in
            nonisolated(unsafe) let output = output
            signal.withUnsafeBufferPointer { input in
                nonisolated(unsafe) let input = input
                DispatchQueue.concurrentPerform(iterations: workers) { worker in
                    let detector = detectors[worker]
                    var index = worker * count / workers
                    let end = (worker + 1) * count / workers
                    while index < end {
                        let start = index * hop
                        let time = (Double(start) + Double(n) / 2) / configuration.sampleRate
                        output[index] = detector.analyse(UnsafeBufferPointer(rebasing: input[start..<(start + n)]), time: time)
                        index += 1
                    }
                }
            }
        }
        return frames
    }
}
