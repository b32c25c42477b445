import ChoirPitch
import ChoirTestSupport
import Testing

/// Convolution by FFT against the sum that defines it.
struct ConvolutionTests {
    /// Over outputs that start before the signal and end past it, across several blocks, every output is the direct
    /// sum `Σ_m response[m] · signal[n − m]` (in `Double`) within float rounding; a unit impulse `d` taps in delays the
    /// signal by `d` samples.
    @Test func theConvolutionIsTheDirectSum() {
        var random = SplitMix(seed: 3)
        let signal = (0..<5000).map { _ in Float(random.unit() - 0.5) }
        let response = (0..<300).map { _ in Float(random.unit() - 0.5) * 0.1 }
        let outputs = -40..<5350
        let convolved = Convolution.convolve(signal, response, outputs: outputs, threads: 3)
        #expect(convolved.count == outputs.count)
        var apart = 0.0
        for (index, n) in outputs.enumerated() {
            let sum = response.indices.reduce(0.0) { sum, m in
                n - m >= 0 && n - m < signal.count ? sum + Double(response[m]) * Double(signal[n - m]) : sum
            }
            apart = max(apart, abs(sum - Double(convolved[index])))
        }
        #expect(apart < 1e-5, "\(apart) from the direct sum")

        let delayed = Convolution.convolve(signal, [0, 0, 0, 1], outputs: 0..<signal.count)
        #expect(delayed[0..<3].allSatisfy { abs($0) < 1e-6 })
        #expect(zip(delayed[3...], signal).allSatisfy { abs($0 - $1) < 1e-6 })
    }
}
