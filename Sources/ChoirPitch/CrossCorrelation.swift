import CFFTW

/// Finds how far one signal lags another, by cross-correlation through FFTW: how `choir calibrate` measures a
/// round trip from the tones it played and the sound it captured.
public enum CrossCorrelation {
    /// The lag, in samples from 0 to `maximumLag`, at which `captured` best matches `played`, and how well:
    /// the peak normalised by both signals' energy (1 for an exact, unscaled copy; near 0 for unrelated sound).
    public static func lag(of captured: [Float], behind played: [Float], maximumLag: Int) -> (lag: Int, strength: Double) {
        let length = FFTW.fastLength(atLeast: max(captured.count, played.count) + maximumLag + 1)
        let a = fftwf_alloc_real(length)!, b = fftwf_alloc_real(length)!
        let spectrumA = fftwf_alloc_complex(length / 2 + 1)!, spectrumB = fftwf_alloc_complex(length / 2 + 1)!
        defer {
            fftwf_free(a)
            fftwf_free(b)
            fftwf_free(spectrumA)
            fftwf_free(spectrumB)
        }
        let (forwardA, forwardB, inverse) = FFTWPlanner.withLock {
            let flags = UInt32(FFTW_ESTIMATE)
            return (
                fftwf_plan_dft_r2c_1d(Int32(length), a, spectrumA, flags)!,
                fftwf_plan_dft_r2c_1d(Int32(length), b, spectrumB, flags)!,
                fftwf_plan_dft_c2r_1d(Int32(length), spectrumA, a, flags)!
            )
        }
        defer { FFTWPlanner.withLock { [forwardA, forwardB, inverse].forEach { fftwf_destroy_plan($0) } } }
        a.initialize(repeating: 0, count: length)
        b.initialize(repeating: 0, count: length)
        captured.withUnsafeBufferPointer { a.update(from: $0.baseAddress!, count: captured.count) }
        played.withUnsafeBufferPointer { b.update(from: $0.baseAddress!, count: played.count) }
        let energy = captured.reduce(0.0) { $0 + Double($1 * $1) } * played.reduce(0.0) { $0 + Double($1 * $1) }
        fftwf_execute(forwardA)
        fftwf_execute(forwardB)
        // A × conj(B): the inverse transform at index k is Σ captured[n + k] · played[n].
        for i in 0..<(length / 2 + 1) {
            let (re, im) = (spectrumA[i].0, spectrumA[i].1)
            let (pre, pim) = (spectrumB[i].0, spectrumB[i].1)
            spectrumA[i] = (re * pre + im * pim, im * pre - re * pim)
        }
        fftwf_execute(inverse)
        var best = 0
        for k in 0...min(maximumLag, length - 1) where a[k] > a[best] { best = k }
        let strength = energy > 0 ? Double(a[best]) / Double(length) / energy.squareRoot() : 0
        return (best, strength)
    }
}
