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
    public func isSung(_ frame: PitchFrame) -> Bool {
        frame.isVoiced && frame.confidence >= options.minimumConfidence && frame.level >= levelGate
    }

    /// The verdict on `note` from `frames`, which must cover the note (time-stamped on the session's clock;
    /// frames outside the note are ignored).
    public func judge(_ note: ExpectedNote, frames: some Collection<PitchFrame>) -> NoteResult {
        let written = 440 * pow(2, Double(note.midi - 69) / 12)
        func cents(_ frame: PitchFrame) -> Double { 1200 * log2(frame.frequency / written) }

        // The body of the note: after the grace window, and short of the very end, where a singer leaves
        // for the next note.
        let grace = min(options.graceSeconds, note.duration * 0.4)
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

        // What the singer was singing just before the note, right or not: where a slide or a step comes from.
        let lead = frames.filter { $0.time >= note.onset - 0.25 && $0.time < note.onset - 0.03 && isSung($0) }
            .map { cents($0) - shift }.sorted()
        let before = lead.isEmpty ? nil : lead[lead.count / 2]
        // Nearer this note than the one before: for a step smaller than vibrato's sway, a crest of the old note
        // can reach the new one, so only a frame that stays nearer for 50 ms (longer than a crest) counts.
        let candidates = frames.filter { $0.time >= note.onset - 0.25 && $0.time < note.end }
        func nearer(_ frame: PitchFrame) -> Bool {
            // A repeated pitch has nothing to be nearer to.
            guard let before, abs(before - folded) > 60 else { return true }
            let c = cents(frame) - shift
            return abs(c - folded) < abs(c - before)
        }
        func staysNearer(from index: Int) -> Bool {
            guard let before, abs(before - folded) < 250 else { return true }
            let start = candidates[index].time
            return candidates[index...].prefix { $0.time <= start + 0.05 }.allSatisfy { !isSung($0) || nearer($0) }
        }

        // The singer has arrived at the first frame near the pitch they settle on (closer than a semitone,
        // wider than vibrato's sway), or, sliding from the previous note, once they have clearly left it
        // towards this one: a fast slide is often unvoiced in the middle. An entrance may come a little
        // early. Frames in a scoop or a slide are less periodic, so a lower confidence is enough here.
        let origin = before ?? note.previousMIDI.map { Double($0 - note.midi) * 100 }
        let searchStart = note.onset - (note.isEntrance ? 0.1 : 0)
        let arrivalIndex = candidates.indices.first { index in
            let frame = candidates[index]
            guard frame.time >= searchStart, frame.isVoiced, frame.confidence >= 0.5, frame.level >= levelGate else { return false }
            let c = cents(frame) - shift
            let leaving = origin.map { ($0 - c) * ($0 - folded) > 0 && abs(c - $0) >= min(100, 0.7 * abs(folded - $0)) }
            return (abs(c - folded) <= 70 || leaving == true) && nearer(frame) && staysNearer(from: index)
        }
        let arrival = arrivalIndex.map { candidates[$0] }
        // Sliding legato, the singer has come in when they leave the previous note (the slide's frames are
        // too unsteady to trust): the frame after the last one still nearer the pitch sung before, if the
        // slide ran on without a break into the arrival.
        var departure: Double?
        if let arrival, let before, abs(before - folded) > 60 {
            let held = candidates.last { frame in
                frame.time < arrival.time && frame.isVoiced && frame.confidence >= 0.5 && frame.level >= levelGate
                    && !nearer(frame) && abs(cents(frame) - shift - before) <= 150
            }
            if let held, arrival.time - held.time <= 0.15 {
                departure = candidates.first { $0.time > held.time }.map(\.time)
            }
        }
        let onsetError = arrival.map { min($0.time, departure ?? .infinity) - note.onset }

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
            // Too short for a whole cycle, where a mean leans towards whichever side of the vibrato it caught:
            // fit the vibrato (a sinusoid at a singer's rate, 4.5 to 7 Hz) around a centre, and take the centre.
            return fittedCentre(frames) ?? frames.map(\.cents).reduce(0, +) / Double(max(1, frames.count))
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

    /// The centre of a least-squares fit of `centre + a·sin(2πft) + b·cos(2πft)` over the vibrato rates
    /// singers use; nil when there are too few frames or no fit is a plausible vibrato (wider than ±100 cents).
    static func fittedCentre(_ frames: [(time: Double, cents: Double)]) -> Double? {
        guard frames.count >= 8, let start = frames.first?.time else { return nil }
        var best: (residual: Double, centre: Double)?
        for rate in stride(from: 4.5, through: 7.0, by: 0.5) {
            // Normal equations for (centre, a, b).
            var m = [[Double]](repeating: [0, 0, 0], count: 3)
            var v = [0.0, 0.0, 0.0]
            for frame in frames {
                let phase = 2 * Double.pi * rate * (frame.time - start)
                let basis = [1, sin(phase), cos(phase)]
                for i in 0..<3 {
                    v[i] += basis[i] * frame.cents
                    for j in 0..<3 { m[i][j] += basis[i] * basis[j] }
                }
            }
            guard let x = solve(m, v), (x[1] * x[1] + x[2] * x[2]).squareRoot() <= 100 else { continue }
            var residual = 0.0
            for frame in frames {
                let phase = 2 * Double.pi * rate * (frame.time - start)
                let error = frame.cents - (x[0] + x[1] * sin(phase) + x[2] * cos(phase))
                residual += error * error
            }
            if residual < best?.residual ?? .infinity { best = (residual, x[0]) }
        }
        return best?.centre
    }

    /// Solves a 3×3 system by Cramer's rule; nil when it is singular.
    private static func solve(_ m: [[Double]], _ v: [Double]) -> [Double]? {
        func det(_ a: [[Double]]) -> Double {
            let d1: Double = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
            let d2: Double = a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
            let d3: Double = a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
            return d1 - d2 + d3
        }
        let d = det(m)
        guard abs(d) > 1e-9 else { return nil }
        return (0..<3).map { column in
            var replaced = m
            for row in 0..<3 { replaced[row][column] = v[row] }
            return det(replaced) / d
        }
    }
}
