import ChoirPractice
import Glibc

/// A real voice singing any line from its own recorded notes: for each written note, the recording nearest in
/// pitch, moved to the note (or to the planted mistake) by ``PitchShifter`` and stretched to its length where it
/// is too short. Each note keeps the singer's own attack, vibrato, wavering and release; notes are sung detached,
/// a breath apart, as the recordings were sung one by one.
public struct NoteSinger: PlantingSinger, Sendable {
    /// One recorded note: its samples and where, and at what pitch, it was sung.
    public struct Recording: Sendable {
        public var name: String
        var samples: [Float]
        /// The voiced stretch, in seconds.
        var start: Double, end: Double
        /// The sung pitch, in cents from A4, frame by frame.
        var sung: [(time: Double, cents: Double)]
        /// The median sung pitch.
        var cents: Double
    }

    public let recordings: [Recording]
    public let sampleRate: Double
    public var seed: UInt64
    /// Share of the notes that get a mistake.
    public var mistakeShare = 0.25
    /// Whether every note is sung an octave away (up from below A3, down from it and above), mistakes or not: a
    /// singer reading another voice's clef.
    public var displacedByOctave = false {
        didSet { if displacedByOctave { mistakeShare = 0 } }
    }

    /// Loads and measures `takes`, recordings of one note each at one sample rate; recordings with under 0.4 s
    /// of steady singing are left out.
    public init(takes: [String], seed: UInt64) throws {
        var recordings: [Recording] = []
        var rate = 44100
        for name in takes {
            let audio = try RealVoices.take(name)
            rate = audio.sampleRate
            let sung = RealVoices.sungCents(audio.samples, rate: audio.sampleRate)
            guard let first = sung.first, let last = sung.last, last.time - first.time >= 0.4 else { continue }
            recordings.append(
                Recording(
                    name: name, samples: audio.samples, start: first.time, end: last.time, sung: sung,
                    cents: RealVoices.median(sung.map(\.cents))))
        }
        self.recordings = recordings
        sampleRate = Double(rate)
        self.seed = seed
    }

    public func plan(_ notes: [ExpectedNote], kinds: [PlantedMistake]) -> [Int: PlantedMistake] {
        PlantedMistake.plan(notes, share: mistakeShare, seed: seed &* 0x2545_F491 &+ 3, kinds: kinds)
    }

    public func perform(_ notes: [ExpectedNote], mistakes: [Int: PlantedMistake], length: Double) -> [Float] {
        let rate = Int(sampleRate)
        var out = [Float](repeating: 0, count: Int(length * sampleRate))
        var random = SplitMix(seed: seed)
        // Where each note starts: on the beat give or take 20 ms, or as far off it as a planted mistake says.
        let delays = notes.map { note -> Double in
            guard let mistake = mistakes[note.index], mistake.isTiming else { return (random.unit() * 2 - 1) * 0.02 }
            return mistake.timing(random: &random)
        }
        for (i, note) in notes.enumerated() {
            let mistake = mistakes[note.index]
            let offset = mistake?.offset(random: &random, octaveUp: note.midi < 57) ?? 0
            let breath = 0.04 + random.unit() * 0.06, level = 0.12 * pow(10, (random.unit() * 4 - 2) / 20)
            guard mistake != .missing else { continue }
            let target = Double(note.midi - 69) * 100 + offset + (displacedByOctave ? (note.midi < 57 ? 1200 : -1200) : 0)
            // The nearest two recordings in pitch, one of them by chance.
            let nearest = recordings.indices.sorted { abs(recordings[$0].cents - target) < abs(recordings[$1].cents - target) }
            let recording = recordings[nearest[min(nearest.count - 1, Int(random.next() % 2))]]
            let delay = delays[i]
            let next = i + 1 < notes.count ? notes[i + 1].onset + min(0, delays[i + 1]) : length
            let sung = max(0.15, min(note.end, next) - note.onset - delay - breath)
            // For as long as the note is sung, stretched if need be: from just before the voice starts, or, where
            // the recording is longer than the note, from after its attack (a note sung in passing starts on its
            // pitch; a long note sung alone scoops into it).
            let available = recording.end - recording.start
            let skip = min(0.15, max(0, available - sung))
            let from = max(0, Int((recording.start + skip - 0.02) * sampleRate))
            let ratio = max(1, sung / (available - skip))
            let source = Array(
                recording.samples[from..<min(recording.samples.count, from + Int(min(sung, available - skip + 0.02) * sampleRate))])
            // On the target once the voice has arrived, its slow drift taken out; the attack as the singer sang it.
            let course = RealVoices.slowCourse(recording.sung.filter { $0.time >= recording.start + 0.08 })
            let excerptStart = Double(from) / sampleRate
            var voice = PitchShifter.shift(source, sampleRate: rate, timeRatio: ratio) { time in
                target - course(min(recording.end, max(recording.start + 0.08, excerptStart + time)))
            }
            RealVoices.fade(&voice, voice.indices, seconds: 0.03, rate: rate)
            let rms = (voice.reduce(0) { $0 + $1 * $1 } / Float(max(1, voice.count))).squareRoot()
            let at = Int((note.onset + delay) * sampleRate)
            for (j, sample) in voice.enumerated() where at + j >= 0 && at + j < out.count {
                out[at + j] += sample * Float(level) / max(rms, 1e-6)
            }
        }
        return out
    }
}
