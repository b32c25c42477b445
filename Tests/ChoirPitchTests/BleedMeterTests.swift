import ChoirTestSupport
import Glibc
import Testing

@testable import ChoirPitch

/// The loudspeaker meter on signals whose mixing is known exactly.
struct BleedMeterTests {
    /// A mix-like signal: a few notes' harmonics with a little noise, from `seed`.
    static func music(count: Int, rate: Double, seed: UInt64) -> [Float] {
        var random = SplitMix(seed: seed)
        let frequencies = (0..<3).map { _ in 110 * pow(2, Double(random.next() % 24) / 12) }
        var samples = [Float](repeating: 0, count: count)
        for i in 0..<count {
            let t = Double(i) / rate
            var chord = 0.0
            for f in frequencies {
                for k in 1...6 { chord += sin(2 * .pi * Double(k) * f * t + Double(k)) / Double(k) }
            }
            samples[i] = Float(0.05 * chord + 0.01 * (random.unit() * 2 - 1))
        }
        return samples
    }

    /// The mix heard 6 ms late at 0.3, under a voice 10 dB louder: the gain and the delay come out; without the
    /// mix in the microphone the gain is near nothing.
    @Test func findsTheGainAndDelayUnderAVoice() {
        let rate = 16000.0, count = 16000 * 20
        let mix = Self.music(count: count, rate: rate, seed: 1)
        var voice = SyntheticVoice(sampleRate: rate)
        voice.amplitude = 0.5
        let sung = voice.render((0..<20).map { SyntheticVoice.Note(start: Double($0), duration: 0.9, frequency: 196 * pow(2, Double($0 % 5) / 12)) }, length: 20)
        func rms(_ x: [Float]) -> Float { (x.reduce(0) { $0 + $1 * $1 } / Float(x.count)).squareRoot() }
        let delay = 96
        let heard = (0..<count).map { i in i >= delay ? 0.3 * mix[i - delay] : 0 }
        #expect(20 * log10(rms(sung) / rms(heard)) > 9)
        let microphone = zip(sung, heard).map { $0 + $1 }
        let meter = BleedMeter.forPractice(sampleRate: rate, memory: .infinity)
        meter.add(recording: microphone, mix: mix)
        #expect(abs(meter.gain - 0.3) < 0.02 && meter.delay == delay, "gain \(meter.gain), delay \(meter.delay)")

        let alone = BleedMeter.forPractice(sampleRate: rate, memory: .infinity)
        alone.add(recording: sung, mix: mix)
        #expect(alone.gain < 0.03, "gain \(alone.gain) with no mix in the microphone")
    }

    /// With a short memory the meter follows a delay that drifts, as between two clocks, where a sum over the whole
    /// run would smear.
    @Test func followsADriftingDelay() {
        let rate = 16000.0, count = 16000 * 30
        let mix = Self.music(count: count, rate: rate, seed: 2)
        // The microphone's clock runs 100 ppm slow, as two sound cards' clocks may: the delay grows from 50 to 98
        // samples.
        let heard = (0..<count).map { i -> Float in
            let j = Double(i) * (1 - 0.0001) - 50
            let k = Int(j)
            return k >= 0 && k + 1 < count ? 0.5 * Float(Double(mix[k]) * (Double(k + 1) - j) + Double(mix[k + 1]) * (j - Double(k))) : 0
        }
        let following = BleedMeter.forPractice(sampleRate: rate, memory: 2)
        following.add(recording: heard, mix: mix)
        #expect(abs(following.gain - 0.5) < 0.1, "gain \(following.gain)")
        #expect(abs(following.delay - 96) < 4, "delay \(following.delay)")
        let summing = BleedMeter.forPractice(sampleRate: rate, memory: .infinity)
        summing.add(recording: heard, mix: mix)
        #expect(summing.gain < following.gain * 0.6, "summed \(summing.gain), followed \(following.gain)")
    }
}
