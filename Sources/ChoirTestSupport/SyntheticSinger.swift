import ChoirPitch
import ChoirPractice
import Glibc

/// A synthetic singer who sings a line from its written notes, as awkwardly as a person: harmonics through
/// vowel formants, vibrato up to ±60 cents, scoops, slides from the previous note, intonation drift of
/// ±15 cents, onsets a few tens of milliseconds early or late, consonants before vowels, breaths that cut
/// notes short, and a room's reverberation. It can plant mistakes, so that judging is tested against known
/// answers; the bundled demo take is one of its performances.
public struct SyntheticSinger: PlantingSinger, Sendable {
    public var sampleRate: Double
    public var seed: UInt64
    /// Share of the notes that get a mistake.
    public var mistakeShare = 0.25
    /// Reverberation level, relative to the dry voice (0 for none).
    public var reverbLevel = 0.3
    public var amplitude = 0.25

    public init(sampleRate: Double, seed: UInt64) {
        self.sampleRate = sampleRate
        self.seed = seed
    }

    /// Chooses the notes to get wrong, and how; see ``PlantedMistake/plan(_:share:seed:)``.
    public func plan(_ notes: [ExpectedNote]) -> [Int: PlantedMistake] {
        PlantedMistake.plan(notes, share: mistakeShare, seed: seed &* 0x51_7CC1 &+ 7)
    }

    /// A performance: the samples, and what was sung for each written note (nil where it was missing).
    public struct Take: Sendable {
        /// Mono samples whose time 0 is the notes' time 0.
        public var samples: [Float]
        /// What was sung for each of the notes, in their order.
        public var sung: [SyntheticVoice.Note?]
    }

    /// Sings `notes` with the `mistakes` planted, into `length` seconds of mono samples whose time 0 is the
    /// notes' time 0.
    public func sing(_ notes: [ExpectedNote], mistakes: [Int: PlantedMistake], length: Double) -> Take {
        var random = SplitMix(seed: seed)
        var voice = SyntheticVoice(sampleRate: sampleRate)
        voice.driftCents = 0  // drift is added per note below, so that a planted error is the pitch sung
        voice.breath = 0.02
        voice.amplitude = amplitude
        voice.seed = seed
        let driftPhase = random.unit() * 2 * .pi

        // Where each note actually starts, so that a legato note can run on into a late neighbour.
        var starts = notes.map { note -> Double in
            let jitter = (random.unit() * 2 - 1) * 0.03
            switch mistakes[note.index] {
            case .late: return note.onset + 0.12 + random.unit() * 0.13
            default: return note.onset + jitter
            }
        }
        starts.append(length)
        var sung = [SyntheticVoice.Note?](repeating: nil, count: notes.count)
        var breaths: [(start: Double, end: Double)] = []
        var previousFrequency: Double?
        var previousEnd = -1.0
        for (i, note) in notes.enumerated() {
            let mistake = mistakes[note.index]
            if mistake == .missing {
                previousFrequency = nil
                continue
            }
            var midi = Double(note.midi)
            var detune = 15 * sin(2 * .pi * 0.05 * note.onset + driftPhase) + (random.unit() * 2 - 1) * 5
            switch mistake {
            case .flat: detune = -(30 + random.unit() * 15)
            case .sharp: detune = 30 + random.unit() * 15
            case .wrong: midi += Double(1 + Int(random.next() % 4)) * (random.unit() < 0.5 ? -1 : 1)
            case .octave: midi -= 12
            default: break
            }
            let frequency = PitchMath.hertz(midi: midi)
            let start = starts[i]
            let next = i + 1 < notes.count ? notes[i + 1] : nil
            let legato = next.map { $0.onset - note.end < 0.05 } ?? false
            var end = legato ? starts[i + 1] : note.end + (random.unit() * 2 - 1) * 0.03
            // A breath at the end of a phrase, and now and then inside one, cuts the note short.
            if !legato || random.unit() < 0.12 {
                let cut = (note.end - start) * (0.15 + random.unit() * 0.15)
                end -= cut
                breaths.append((end + 0.02, min(end + 0.02 + cut * 0.7, end + 0.3)))
            }
            let glide = start - previousEnd < 0.03 ? previousFrequency : nil
            let consonant = glide == nil && random.unit() < 0.5 ? 0.04 + random.unit() * 0.03 : 0
            sung[i] = SyntheticVoice.Note(
                start: start, duration: max(0.05, end - start), frequency: frequency, detuneCents: detune,
                glideFrom: glide, consonantSeconds: consonant, vibratoCents: 20 + random.unit() * 40)
            previousFrequency = frequency
            previousEnd = end
        }
        var samples = voice.render(sung.compactMap { $0 }, length: length)
        for breath in breaths { addBreath(breath, to: &samples, random: &random) }
        if reverbLevel > 0 { Room(sampleRate: sampleRate).reverberate(&samples, level: reverbLevel) }
        return Take(samples: samples, sung: sung)
    }

    public func perform(_ notes: [ExpectedNote], mistakes: [Int: PlantedMistake], length: Double) -> [Float] {
        sing(notes, mistakes: mistakes, length: length).samples
    }

    /// An audible in-breath: soft noise rising and falling.
    private func addBreath(_ span: (start: Double, end: Double), to samples: inout [Float], random: inout SplitMix) {
        let first = max(0, Int(span.start * sampleRate)), last = min(samples.count, Int(span.end * sampleRate))
        guard first < last else { return }
        var smooth = 0.0
        for i in first..<last {
            let x = Double(i - first) / Double(last - first)
            smooth += 0.3 * ((random.unit() * 2 - 1) - smooth)
            samples[i] += Float(amplitude * 0.12 * sin(.pi * x) * smooth)
        }
    }
}

/// A small room: Schroeder's reverberator (four parallel combs, two all-passes), about 0.6 s to fall 60 dB.
struct Room {
    var sampleRate: Double

    func reverberate(_ samples: inout [Float], level: Double) {
        let dry = samples
        var wet = [Float](repeating: 0, count: samples.count)
        for delay in [0.0297, 0.0371, 0.0411, 0.0437] {
            let d = Int(delay * sampleRate)
            let feedback = Float(pow(10, -3 * delay / 0.6))
            var line = [Float](repeating: 0, count: d)
            var at = 0
            for i in 0..<dry.count {
                let out = line[at]
                line[at] = dry[i] + feedback * out
                wet[i] += out / 4
                at = (at + 1) % d
            }
        }
        for delay in [0.005, 0.0017] {
            let d = Int(delay * sampleRate)
            var line = [Float](repeating: 0, count: d)
            var at = 0
            for i in 0..<wet.count {
                let delayed = line[at]
                let input = wet[i]
                let out = -0.7 * input + delayed
                line[at] = input + 0.7 * out
                wet[i] = out
                at = (at + 1) % d
            }
        }
        for i in samples.indices { samples[i] = dry[i] + Float(level) * wet[i] }
    }
}
