import CFFTW
import Glibc

/// The frequency of a steady sound's partial near a given one, read off a long, finely sampled spectrum through
/// FFTW: how an instrument's tuning is measured, as a tuner for instruments measures it.
public enum SpectralPeak {
    /// The frequency in Hz of the strongest peak of the spectrum of `channels` (their powers added: a stereo
    /// sound as two ears hear it) within `cents` of `near` (Hann window, zero-padded to at least `resolution` Hz a
    /// bin): the centre of the spectrum's power within `spread` cents of it. Nil when the signal is silent there.
    public static func frequency(
        of channels: [[Float]], sampleRate: Double, near: Double, within cents: Double = 50,
        spread: Double = 20, resolution: Double = 0.1
    ) -> Double? {
        let count = channels.map(\.count).max() ?? 0
        guard count > 2 else { return nil }
        var length = 1
        while length < count || sampleRate / Double(length) > resolution { length *= 2 }
        let input = fftwf_alloc_real(length)!, spectrum = fftwf_alloc_complex(length / 2 + 1)!
        defer {
            fftwf_free(input)
            fftwf_free(spectrum)
        }
        let plan = FFTWPlanner.withLock { fftwf_plan_dft_r2c_1d(Int32(length), input, spectrum, UInt32(FFTW_ESTIMATE))! }
        defer { FFTWPlanner.withLock { fftwf_destroy_plan(plan) } }
        // Each channel's power, added: a stereo sample's two sides can be in opposite phase at the fundamental
        // (FluidR3's Choir Aahs at G2), which their mono sum cancels but each ear hears.
        var power = [Double](repeating: 0, count: length / 2 + 1)
        for signal in channels {
            input.initialize(repeating: 0, count: length)
            let n = Double(signal.count)
            for i in signal.indices { input[i] = signal[i] * Float(0.5 - 0.5 * cos(2 * .pi * Double(i) / (n - 1))) }
            fftwf_execute(plan)
            for bin in power.indices { power[bin] += Double(spectrum[bin].0 * spectrum[bin].0 + spectrum[bin].1 * spectrum[bin].1) }
        }
        func magnitude(_ bin: Int) -> Double { log(power[bin].squareRoot() + 1e-20) }
        let binWidth = sampleRate / Double(length)
        let low = max(1, Int(near * PitchMath.ratio(cents: -cents) / binWidth)),
            high = min(length / 2 - 1, Int(near * PitchMath.ratio(cents: cents) / binWidth) + 1)
        guard low < high else { return nil }
        var best = low
        for bin in low...high where magnitude(bin) > magnitude(best) { best = bin }
        guard magnitude(best) > log(1e-9) else { return nil }
        // A sound of several voices (an ensemble sample) has several peaks close together, whose strongest changes
        // with small differences: its pitch is their centre, the power-weighted mean over `spread` cents around the
        // strongest.
        let from = max(1, Int(Double(best) * PitchMath.ratio(cents: -spread))),
            to = min(length / 2 - 1, Int(Double(best) * PitchMath.ratio(cents: spread)) + 1)
        var sum = 0.0, weights = 0.0
        for bin in from...to {
            sum += power[bin] * Double(bin)
            weights += power[bin]
        }
        return sum / weights * binWidth
    }
}
