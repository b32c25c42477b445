import ChoirPitch
import Glibc

/// A mix-like signal for tests of what hears the loudspeakers: three notes' harmonics, a new chord every half
/// second, with a little noise.
public enum Chords {
    public static func render(count: Int, sampleRate rate: Double, seed: UInt64) -> [Float] {
        var random = SplitMix(seed: seed)
        var samples = [Float](repeating: 0, count: count)
        var frequencies: [Double] = []
        for i in 0..<count {
            if i % Int(rate / 2) == 0 { frequencies = (0..<3).map { _ in PitchMath.hertz(midi: 45 + Int(random.next() % 24)) } }
            let t = Double(i) / rate
            var chord = 0.0
            for f in frequencies {
                for k in 1...6 { chord += sin(2 * .pi * Double(k) * f * t + Double(k)) / Double(k) }
            }
            samples[i] = Float(0.05 * chord + 0.01 * (random.unit() * 2 - 1))
        }
        return samples
    }
}
