import ChoirPitch
import ChoirPractice
import Glibc

/// A synthetic singer of a second, independent design, so that the judge is not proven only on the singer it
/// was tuned with (``SyntheticSinger``). Where that one adds sine harmonics under bell-shaped formants, this one
/// drives a cascade of five vocal-tract resonators (Klatt's) with glottal pulses (Klatt's KLGLOTT88 shape, with his
/// spectral tilt) whose periods jitter and whose heights shimmer, with breath noise in their open phase; its vowel
/// changes from note to note. Its vibrato comes in after the onset, at a rate and extent of its own that wander; it prepares a note
/// from below, overshoots a legato step, and has a timing habit (ahead of or behind the beat); its room is a
/// feedback delay network rather than combs and all-passes. It plants the same mistakes, octaves up or down.
public struct SyntheticChorister: PlantingSinger, Sendable {
    public let sampleRate: Double
    public var seed: UInt64
    public var mistakeShare = 0.25

    public init(sampleRate: Double, seed: UInt64) {
        self.sampleRate = sampleRate
        self.seed = seed
    }

    public func plan(_ notes: [ExpectedNote]) -> [Int: PlantedMistake] {
        PlantedMistake.plan(notes, share: mistakeShare, seed: seed &* 0xBF58_476D &+ 5)
    }

    /// Formant frequencies and bandwidths (Hz) of five vowels as a trained singer shapes them, with the singer's
    /// formant cluster near 3 kHz.
    static let vowels: [[(Double, Double)]] = [
        [(700, 80), (1150, 90), (2600, 120), (2900, 130), (3400, 150)],  // a
        [(450, 70), (1900, 100), (2550, 120), (2950, 130), (3450, 150)],  // e
        [(300, 60), (2250, 110), (2900, 130), (3200, 140), (3600, 160)],  // i
        [(480, 70), (850, 80), (2500, 120), (2850, 130), (3300, 150)],  // o
        [(330, 60), (750, 80), (2400, 120), (2800, 130), (3250, 150)],  // u
    ]

    /// What the singer does on one note.
    struct Sung {
        var start: Double, end: Double
        /// The pitch aimed at, in cents from A4.
        var cents: Double
        /// Cents away the voice comes from at the start (the previous note when legato, else below).
        var from: Double
        var glide: Double
        var vowel: Int
        var legato: Bool
    }

    public func perform(_ notes: [ExpectedNote], mistakes: [Int: PlantedMistake], length: Double) -> [Float] {
        var random = SplitMix(seed: seed ^ 0xC0FF_EE)
        // The singer's habits.
        let habit = (random.unit() * 2 - 1) * 0.035
        let bias = (random.unit() * 2 - 1) * 8
        let vibratoRate = 4.8 + random.unit() * 2
        let vibratoExtent = 15 + random.unit() * 30
        let openQuotient = 0.5 + random.unit() * 0.2
        // The closing glottis is not as abrupt as KLGLOTT88's corner: Klatt's spectral tilt, a one-pole low-pass
        // from 800 to 2000 Hz, gives the source the fall of a real voice's.
        let tilt = exp(-2 * .pi * (800 + random.unit() * 1200) / (4 * sampleRate))
        var tilted = 0.0
        let loudness = 0.18

        var sung: [Sung] = []
        var previousEnd = -1.0, previousCents: Double?
        for (i, note) in notes.enumerated() {
            let mistake = mistakes[note.index]
            let offset = mistake?.offset(random: &random, octaveUp: note.midi < 60) ?? 0
            let tuning = bias + (random.unit() * 2 - 1) * 5
            let jitter = habit + (random.unit() * 2 - 1) * 0.025
            let late = mistake == .late ? 0.12 + random.unit() * 0.13 : 0
            guard mistake != .missing else {
                previousCents = nil
                continue
            }
            let next = i + 1 < notes.count ? notes[i + 1] : nil
            let legato = next.map { $0.onset - note.end < 0.05 } ?? false
            let start = note.onset + (late > 0 ? late : jitter)
            var end = legato ? next!.onset + habit : note.end - 0.04 - random.unit() * 0.08
            if !legato || random.unit() < 0.1 { end -= (end - start) * (0.1 + random.unit() * 0.15) }
            let cents = Double(note.midi - 69) * 100 + offset + (offset == 0 ? tuning : 0)
            let joined = start - previousEnd < 0.04 ? previousCents : nil
            sung.append(
                Sung(
                    start: start, end: max(start + 0.08, end), cents: cents,
                    from: joined.map { $0 - cents } ?? -(50 + random.unit() * 100),
                    glide: joined != nil ? 0.04 + random.unit() * 0.05 : 0.03 + random.unit() * 0.05,
                    vowel: Int(random.next() % 5), legato: joined != nil))
            previousEnd = sung.last!.end
            previousCents = cents
        }

        // The glottis and the tract run at four times the sample rate: a glottal pulse's corner at closure has
        // harmonics far above half the sample rate, which would fold back as inharmonic components.
        let rate = 4 * sampleRate
        var out = [Float](repeating: 0, count: Int(length * rate))
        var tract = Tract(sampleRate: rate)
        var noise = SplitMix(seed: seed &+ 17)
        // Slow random wanders of the pitch (about ±5 cents) and of the vibrato's rate (±0.3 Hz), each a leaky
        // random walk with a memory of a quarter of a second.
        let leak = 1 / (0.25 * rate)
        var wander = 0.0, rateWander = 0.0
        for note in sung {
            // Where the glottis is in its cycle (0 to 1), and this cycle's jitter and shimmer.
            var cycle = 0.0, stretch = 1.0, periodHeight = 1.0
            let first = max(0, Int(note.start * rate)), last = min(out.count, Int(note.end * rate))
            guard first < last else { continue }
            if !note.legato { tract.reset() }
            let vowel = Self.vowels[note.vowel]
            for i in first..<last {
                let t = Double(i) / rate - note.start
                let remaining = note.end - Double(i) / rate
                // Pitch: a prepared or sliding approach, then (legato) an overshoot of a tenth of the step, at most
                // 15 cents, that dies away; a vibrato that grows in after 0.2 s; and a slow random wander.
                let overshoot = -(note.from < 0 ? -1.0 : 1.0) * min(15, 0.1 * abs(note.from))
                let approach =
                    note.from * exp(-3 * t / note.glide)
                    + overshoot * (t / note.glide) * exp(1 - t / note.glide) * (note.legato ? 1 : 0)
                wander += (noise.unit() * 2 - 1) * 5 * (6 * leak).squareRoot() - wander * leak
                rateWander += (noise.unit() * 2 - 1) * 0.3 * (6 * leak).squareRoot() - rateWander * leak
                let depth = vibratoExtent * min(1, max(0, (t - 0.2) / 0.3))
                let vibrato = depth * sin(2 * .pi * (vibratoRate + rateWander) * t)
                let f0 = PitchMath.a4 * PitchMath.ratio(cents: note.cents + approach + vibrato + wander)
                // A new glottal period: its length jitters by 0.5% and its height shimmers by 4%.
                cycle += f0 / rate / stretch
                if cycle >= 1 {
                    cycle -= 1
                    stretch = 1 + (noise.unit() * 2 - 1) * 0.008
                    periodHeight = 1 + (noise.unit() * 2 - 1) * 0.07
                }
                let x = cycle
                // KLGLOTT88: flow 27/4 x²(1 − x) over the open phase, differentiated for the lips' radiation.
                let open = x / openQuotient
                let flowSlope = open < 1 ? (2 * open - 3 * open * open) * 6.75 / openQuotient : 0
                let breath = open < 1 ? (noise.unit() * 2 - 1) * 0.25 : (noise.unit() * 2 - 1) * 0.03
                let envelope = min(1, t / 0.04, remaining / 0.07) * (0.85 + 0.15 * sin(.pi * min(1, t / max(0.1, note.end - note.start))))
                tilted = flowSlope * periodHeight * (1 - tilt) + tilted * tilt
                let source = (tilted + breath * (1 - tilt)) * envelope
                out[i] += Float(loudness * tract.filter(source, formants: vowel, moving: t < 0.03))
            }
        }
        var decimated = Self.decimate(out, by: 4)
        decimated = Array(decimated.prefix(Int(length * sampleRate)))
        FeedbackDelayNetwork(sampleRate: sampleRate, seed: seed).reverberate(&decimated, level: 0.25)
        let peak = decimated.reduce(0) { max($0, abs($1)) }
        return peak > 0 ? decimated.map { $0 * 0.5 / peak } : decimated
    }

    /// Every `factor`-th sample of `signal` low-passed below 0.45 of the new rate (a Blackman-windowed sinc).
    static func decimate(_ signal: [Float], by factor: Int) -> [Float] {
        let half = 24 * factor
        let cutoff = 0.45 / Double(factor)
        let taps = (-half...half).map { k -> Float in
            let x = Double(k)
            let sinc = k == 0 ? 2 * cutoff : sin(2 * .pi * cutoff * x) / (.pi * x)
            let window = 0.42 + 0.5 * cos(.pi * x / Double(half)) + 0.08 * cos(2 * .pi * x / Double(half))
            return Float(sinc * window)
        }
        return stride(from: 0, to: signal.count, by: factor).map { i in
            var sum: Float = 0
            for (j, tap) in taps.enumerated() {
                let k = i + j - half
                if k >= 0 && k < signal.count { sum += tap * signal[k] }
            }
            return sum
        }
    }

    /// Five two-pole resonators in cascade, each with unit gain at 0 Hz, whose frequencies follow the vowel (and
    /// glide towards a new one over its first 30 ms).
    struct Tract {
        var sampleRate: Double
        var state = [(Double, Double)](repeating: (0, 0), count: 5)
        var current: [(Double, Double)] = SyntheticChorister.vowels[0]

        mutating func reset() { state = [(Double, Double)](repeating: (0, 0), count: 5) }

        mutating func filter(_ input: Double, formants: [(Double, Double)], moving: Bool) -> Double {
            var x = input
            for k in 0..<5 {
                if moving {
                    current[k].0 += (formants[k].0 - current[k].0) * 0.01
                    current[k].1 = formants[k].1
                } else {
                    current[k] = formants[k]
                }
                let r = exp(-.pi * current[k].1 / sampleRate)
                let c = -r * r, b = 2 * r * cos(2 * .pi * current[k].0 / sampleRate), a = 1 - b - c
                let y = a * x + b * state[k].0 + c * state[k].1
                state[k] = (y, state[k].0)
                x = y
            }
            return x
        }
    }
}

/// A room as a feedback delay network: eight delay lines mixed through a Hadamard matrix, each losing what it
/// must to fall 60 dB in about 0.6 s.
struct FeedbackDelayNetwork {
    var sampleRate: Double
    var seed: UInt64

    func reverberate(_ samples: inout [Float], level: Double) {
        var random = SplitMix(seed: seed &+ 99)
        let lengths = (0..<8).map { k in Int((0.011 + 0.0047 * Double(k) + random.unit() * 0.003) * sampleRate) }
        let gains = lengths.map { pow(10, -3 * Double($0) / sampleRate / 0.6) }
        var lines = lengths.map { [Double](repeating: 0, count: $0) }
        var at = [Int](repeating: 0, count: 8)
        for i in samples.indices {
            let outputs = (0..<8).map { lines[$0][at[$0]] * gains[$0] }
            // Hadamard mixing of eight, scaled to keep the energy.
            var mixed = outputs
            var width = 1
            while width < 8 {
                for j in stride(from: 0, to: 8, by: 2 * width) {
                    for k in j..<(j + width) {
                        let (u, v) = (mixed[k], mixed[k + width])
                        (mixed[k], mixed[k + width]) = (u + v, u - v)
                    }
                }
                width *= 2
            }
            let input = Double(samples[i])
            for k in 0..<8 {
                lines[k][at[k]] = input + mixed[k] / 8.0.squareRoot()
                at[k] = (at[k] + 1) % lengths[k]
            }
            samples[i] += Float(level * outputs.reduce(0, +) / 8)
        }
    }
}
