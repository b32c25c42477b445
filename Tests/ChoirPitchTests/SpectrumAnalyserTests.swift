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

    /// One note of two sounding at once, a step apart, the other note 4 dB louder (a sampled voice's release under
    /// the next note): its pitch is read from its own harmonics within 3 cents, where a tracker reading one pitch
    /// per window hears the louder note or a pitch between the two. With nothing clear of the other's harmonics
    /// (an octave up) there is no reading.
    @Test func oneNoteOfAMixtureIsReadFromItsOwnHarmonics() throws {
        let rate = 48000.0
        func tone(_ hz: Double, _ amplitude: Double) -> (Int) -> Double {
            { i in (1...8).reduce(0) { $0 + amplitude / Double($1) * sin(2 * Double.pi * hz * Double($1) * Double(i) / rate) } }
        }
        for (written, sung, other) in [
            (440.0, 445.0, 396.0), (220.0, 218.0, 246.9), (130.8, 132.0, 116.5), (330.0, 327.0, 311.1), (130.8, 128.0, 138.6),
            (196.0, 199.0, 174.6),
        ] {
            let (mine, theirs) = (tone(sung, 0.1), tone(other, 0.16))
            let signal = (0..<Int(rate * 0.5)).map { Float(mine($0) + theirs($0)) }
            let spectra = SpectrumAnalyser.spectra(of: signal, sampleRate: rate, hop: 0.05)
            let heard = try #require(spectra[5].pitch(near: written, within: 150, excluding: [other]))
            #expect(abs(1200 * log2(heard.frequency / sung)) <= 3, "\(sung) Hz read as \(heard.frequency)")
        }
    }
}
