import ChoirPitch
import Glibc

/// Judges each written note from the pitch frames sung inside it.
///
/// The median of the note's voiced frames decides, so vibrato and drift around the right pitch do not count
/// against the singer. The first part of a note is a grace window for scoops and slides, and frames that
/// are unvoiced, uncertain or much quieter than the singer (breaths, consonants, the accompaniment leaking
/// into the microphone) are left out rather than counted as wrong pitches.
public struct NoteComparator: Sendable {
    /// How strictly to judge.
    public struct Options: Sendable, Equatable, Codable {
        /// Cents either side of the written pitch that still count as in tune.
        public var toleranceCents = 25.0
        /// An entrance whose first in-tune frame comes later than this is late.
        public var lateSeconds = 0.1
        /// Count a note sung an octave (or two) away as correct.
        public var octaveIsCorrect = false
        /// Seconds at the start of a note left out of the median, for scoops and slides.
        public var graceSeconds = 0.1
        /// A note with fewer of its frames voiced than this share is missing.
        public var minimumVoicedShare = 0.35
        /// Frames less sure than this are not the singer.
        public var minimumConfidence = 0.8

        public init() {}
    }

    public var options: Options
    /// Frames quieter than this RMS are not the singer; see ``LevelGate``.
    public var levelGate: Double

    public init(options: Options = Options(), levelGate: Double = 0) {
        self.options = options
        self.levelGate = levelGate
    }

    /// A frame the singer sang: voiced, sure and loud enough.
    func isSung(_ frame: PitchFrame) -> Bool {
        frame.isVoiced && frame.confidence >= options.minimumConfidence && frame.level >= levelGate
    }

    /// The verdict on `note` from `frames`, which must cover the note (time-stamped on the session's clock;
    /// frames outside the note are ignored).
    public func judge(_ note: ExpectedNote, frames: some Collection<PitchFrame>) -> NoteResult {
        let written = 440 * pow(2, Double(note.midi - 69) / 12)
        func cents(_ frame: PitchFrame) -> Double { 1200 * log2(frame.frequency / written) }

        // The body of the note: after the grace window, and short of the very end, where a singer leaves
        // for the next note.
        let grace = min(options.graceSeconds, note.duration * 0.3)
        let bodyStart = note.onset + grace, bodyEnd = note.end - min(0.05, note.duration * 0.15)
        var body: [(time: Double, cents: Double)] = []
        var bodyFrames = 0
        for frame in frames where frame.time >= bodyStart && frame.time < bodyEnd {
            bodyFrames += 1
            if isSung(frame) { body.append((frame.time, cents(frame))) }
        }
        guard bodyFrames > 0, Double(body.count) >= options.minimumVoicedShare * Double(bodyFrames) else {
            return NoteResult(note: note, verdict: .missing, medianCents: nil, onsetError: nil, inTunePercent: 0)
        }
        let median = Self.centre(body)
        let octaves = (median / 1200).rounded()
        let offOctave = octaves != 0 && abs(median - 1200 * octaves) <= options.toleranceCents
        // With --octave-ok, the pitch an octave away stands for the written one.
        let shift = octaves != 0 && options.octaveIsCorrect ? 1200 * octaves : 0
        let folded = median - shift
        let inTune = body.filter { abs($0.cents - shift) <= options.toleranceCents }.count
        let inTunePercent = 100 * Double(inTune) / Double(body.count)

        // The singer has arrived at the first frame near the pitch they settle on (closer than a semitone,
        // wider than vibrato's sway), or, sliding from the previous note, once they have clearly left it
        // towards this one: a fast slide is often unvoiced in the middle. An entrance may come a little
        // early. Frames in a scoop or a slide are less periodic, so a lower confidence is enough here.
        let previous = note.previousMIDI.map { Double($0 - note.midi) * 100 }
        let searchStart = note.onset - (note.isEntrance ? 0.1 : 0)
        let arrival = frames.first { frame in
            guard frame.time >= searchStart, frame.time < note.end, frame.isVoiced, frame.confidence >= 0.5,
                frame.level >= levelGate
            else { return false }
            let c = cents(frame) - shift
            let leaving = previous.map { ($0 - c) * ($0 - folded) > 0 && abs(c - $0) >= min(100, 0.7 * abs(folded - $0)) }
            return abs(c - folded) <= 70 || leaving == true
        }
        let onsetError = arrival.map { $0.time - note.onset }

        let verdict: Verdict
        if offOctave && !options.octaveIsCorrect {
            verdict = .octave
        } else if (folded / 100).rounded() != 0 {
            verdict = .wrong
        } else if folded < -options.toleranceCents {
            verdict = .flat
        } else if folded > options.toleranceCents {
            verdict = .sharp
        } else if note.isEntrance, (onsetError ?? .infinity) > options.lateSeconds {
            verdict = .late
        } else {
            verdict = .correct
        }
        return NoteResult(note: note, verdict: verdict, medianCents: median, onsetError: onsetError, inTunePercent: inTunePercent)
    }

    /// Where the sung pitch is centred: each frame averaged over one vibrato cycle around it (a median of
    /// raw frames over a cycle and a half would lean towards one side of the vibrato), then the median of
    /// those averages, which ignores a stray frame or a slide.
    static func centre(_ frames: [(time: Double, cents: Double)]) -> Double {
        let halfCycle = 0.09
        guard let first = frames.first?.time, let last = frames.last?.time, last - first >= 2 * halfCycle else {
            // Too short for a whole cycle: the plain mean.
            return frames.map(\.cents).reduce(0, +) / Double(max(1, frames.count))
        }
        var averages: [Double] = []
        averages.reserveCapacity(frames.count)
        var low = 0, high = 0, sum = 0.0
        for frame in frames where frame.time >= first + halfCycle && frame.time <= last - halfCycle {
            while high < frames.count && frames[high].time <= frame.time + halfCycle {
                sum += frames[high].cents
                high += 1
            }
            while frames[low].time < frame.time - halfCycle {
                sum -= frames[low].cents
                low += 1
            }
            averages.append(sum / Double(high - low))
        }
        guard !averages.isEmpty else { return frames.map(\.cents).reduce(0, +) / Double(frames.count) }
        averages.sort()
        let n = averages.count
        return n % 2 == 1 ? averages[n / 2] : (averages[n / 2 - 1] + averages[n / 2]) / 2
    }
}
