import ChoirTestSupport
import Glibc
import Testing

@testable import ChoirPitch

/// The spectra of a whole recording, as the judge times entrances by them.
struct SpectrumAnalyserTests {
    /// A 1 kHz sine at 48 kHz peaks in the bin of 1 kHz in every spectrum, one every 5 ms from 0, and sharing the
    /// work among analysers changes no spectrum: a recording analysed by one and by three gives the same levels in
    /// every bin at the same times.
    @Test func sharedAnalysisGivesEverySpectrumAsOneAnalyserWould() {
        let rate = 48000.0
        var random = SplitMix(seed: 4)
        let signal = (0..<Int(rate * 1.2)).map { i in
            Float(0.5 * sin(2 * Double.pi * 1000 * Double(i) / rate) + 0.01 * (random.unit() - 0.5))
        }
        let one = SpectrumAnalyser.spectra(of: signal, sampleRate: rate, hop: 0.005, threads: 1)
        let three = SpectrumAnalyser.spectra(of: signal, sampleRate: rate, hop: 0.005, threads: 3)
        #expect(one.count == 240)
        #expect(three.count == one.count)
        for (index, (a, b)) in zip(one, three).enumerated() {
            #expect(a.time == Double(index) * 0.005 && b.time == a.time)
            #expect((0..<Spectrum.binCount).allSatisfy { a.power(at: $0) == b.power(at: $0) }, "spectrum \(index)")
        }
        for spectrum in one.dropFirst(10).dropLast(10) {
            let peak = (0..<Spectrum.binCount).max { spectrum.power(at: $0) < spectrum.power(at: $1) }!
            #expect(abs(Double(peak) * spectrum.binWidth - 1000) <= spectrum.binWidth / 2, "peak at bin \(peak) at \(spectrum.time) s")
        }
    }
}
