import ChoirPitch
import Glibc

/// A synthetic singer with a known pitch at every instant: harmonics shaped by vowel formants, vibrato,
/// scoops into notes, slow intonation drift, breath noise and silences between notes.
///
/// It exists so that pitch tracking and judging can be tested against exact answers with signals that are
/// as awkward as a real voice.
public struct SyntheticVoice: Sendable {
    /// One sung note.
    public struct Note: Sendable {
        public var start: Double
        public var duration: Double
        /// Target frequency in Hz.
        public var frequency: Double
        /// Cents added to the target over the whole note (out-of-tune singing).
        public var detuneCents: Double
        /// A legato singer slides from the previous note's frequency instead of scooping.
        public var glideFrom: Double?
        /// Seconds of consonant noise (an "s", a "t") just before the vowel starts.
        public var consonantSeconds: Double
        /// This note's vibrato depth, in place of the voice's.
        public var vibratoCents: Double?

        public init(
            start: Double, duration: Double, frequency: Double, detuneCents: Double = 0, glideFrom: Double? = nil,
            consonantSeconds: Double = 0, vibratoCents: Double? = nil
        ) {
            self.start = start
            self.duration = duration
            self.frequency = frequency
            self.detuneCents = detuneCents
            self.glideFrom = glideFrom
            self.consonantSeconds = consonantSeconds
            self.vibratoCents = vibratoCents
        }
    }

    public var sampleRate: Double
    public var vibratoRate = 5.5
    public var vibratoCents = 40.0
    /// The pitch starts this many cents below the note and glides up over `scoopSeconds`.
    public var scoopCents = -80.0
    public var scoopSeconds = 0.08
    /// Slow random intonation drift, in cents (peak).
    public var driftCents = 10.0
    /// Breath noise level relative to the voice.
    public var breath = 0.03
    /// Formant centre frequencies and bandwidths in Hz ("ah" by default).
    public var formants: [(frequency: Double, bandwidth: Double)] = [(730, 90), (1090, 110), (2440, 170)]
    public var amplitude = 0.3
    public var seed: UInt64 = 1

    public init(sampleRate: Double) {
        self.sampleRate = sampleRate
    }

    /// The instantaneous fundamental at `time` while `note` sounds.
    public func frequency(of note: Note, at time: Double) -> Double {
        let t = time - note.start
        var cents = note.detuneCents + (note.vibratoCents ?? vibratoCents) * sin(2 * .pi * vibratoRate * t)
        if let from = note.glideFrom {
            let glide = scoopSeconds
            if t < glide { cents += PitchMath.cents(from, from: note.frequency) * (1 - t / glide) }
        } else if t < scoopSeconds {
            cents += scoopCents * (1 - t / scoopSeconds)
        }
        cents += driftCents * sin(2 * .pi * 0.31 * time + Double(seed % 7))
        return note.frequency * PitchMath.ratio(cents: cents)
    }

    /// The true fundamental at `time`, or nil between notes.
    public func truth(_ notes: [Note], at time: Double) -> Double? {
        notes.first { time >= $0.start && time < $0.start + $0.duration }.map { frequency(of: $0, at: time) }
    }

    /// Renders `notes` into `length` seconds of mono samples.
    public func render(_ notes: [Note], length: Double) -> [Float] {
        let count = Int(length * sampleRate)
        var out = [Float](repeating: 0, count: count)
        var random = SplitMix(seed: seed)
        for note in notes {
            // The consonant: a short hiss, loudest where the vowel begins.
            let hiss = max(0, Int((note.start - note.consonantSeconds) * sampleRate))
            for i in hiss..<min(count, max(hiss, Int(note.start * sampleRate))) {
                let ramp = (Double(i) / sampleRate - note.start + note.consonantSeconds) / max(note.consonantSeconds, 1e-3)
                out[i] += Float(amplitude * 0.4 * ramp * (random.unit() * 2 - 1))
            }
            var phase = 0.0
            let first = max(0, Int(note.start * sampleRate))
            let last = min(count, Int((note.start + note.duration) * sampleRate))
            guard first < last else { continue }
            let attack = 0.03, release = 0.05
            for i in first..<last {
                let time = Double(i) / sampleRate
                let f0 = frequency(of: note, at: time)
                phase += 2 * .pi * f0 / sampleRate
                if phase > 2 * .pi * 1000 { phase -= 2 * .pi * 1000 }
                var sample = 0.0
                var k = 1
                while Double(k) * f0 < min(5000, sampleRate / 2) {
                    sample += harmonicGain(Double(k) * f0) / Double(k) * sin(Double(k) * phase)
                    k += 1
                }
                let t = time - note.start
                let envelope = min(1, t / attack, (note.duration - t) / release)
                let noise = (random.unit() * 2 - 1) * breath
                out[i] += Float(amplitude * envelope * (sample + noise))
            }
        }
        return out
    }

    /// The vowel's resonance at `frequency`: the formants' bell curves over a floor.
    private func harmonicGain(_ frequency: Double) -> Double {
        var gain = 0.15
        for formant in formants {
            let x = (frequency - formant.frequency) / formant.bandwidth
            gain += 1 / (1 + x * x)
        }
        return gain
    }
}

/// A small deterministic generator, so synthetic signals are the same on every run.
public struct SplitMix: Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in 0..<1.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
