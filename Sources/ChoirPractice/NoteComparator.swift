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
        /// Frames less sure than this are not the singer. A voice under vibrato, or with the accompaniment
        /// leaking into the microphone, is less periodic than a steady tone, so this is lower than a tuner's;
        /// the level gates keep out what is not the singer.
        public var minimumConfidence = 0.6

        public init() {}
    }

    public var options: Options
    /// Frames quieter than this RMS are not the singer; see ``LevelGate``.
    public var levelGate: Double
    /// The share of the loudspeakers' echo left in the microphone once it has been taken out; see ``EchoLeft``.
    public var echoLeft = EchoLeft().share
    /// The singer's vibrato rate in Hz, once learned from their longer notes; see ``VibratoLearner``.
    public var vibratoRate: Double?

    /// A frame must be this much louder than the echo left in it to be the singer: 3 dB, a voice at least as loud
    /// as what is left of the loudspeakers. A frame no louder than that is the room, whatever its pitch.
    static let echoMargin = 2.0.squareRoot()

    /// Half the tracker's window, in seconds: how long before a voice starts the first window that hears it is
    /// centred.
    public var halfWindow = 0.0

    public init(options: Options = Options(), levelGate: Double = 0) {
        self.options = options
        self.levelGate = levelGate
    }

    /// A frame the singer sang: voiced, sure, loud enough for the singer, and louder than the loudspeakers.
    public func isSung(_ frame: PitchFrame) -> Bool {
        frame.isVoiced && frame.confidence >= options.minimumConfidence && isLoudEnough(frame)
    }

    /// Whether a frame is loud enough to be the singer rather than the room or the loudspeakers.
    func isLoudEnough(_ frame: PitchFrame) -> Bool {
        frame.level >= levelGate && frame.level >= Self.echoMargin * echoLeft * frame.accompaniment
    }

    /// The verdict on `note` from `frames`, which must cover the note (time-stamped on the session's clock;
    /// frames outside the note are ignored).
    public func judge(_ note: ExpectedNote, frames heard: some Collection<PitchFrame>) -> NoteResult {
        let frames = heard.map { Self.reading($0, for: note) }
        func cents(_ frame: PitchFrame) -> Double { PitchMath.cents(frame.frequency, from: Self.frequency(of: note)) }

        let measured = self.body(of: note, frames: frames)
        let body = measured.steady
        let voicedShare = measured.frames > 0 ? Double(measured.sung) / Double(measured.frames) : 0
        guard measured.frames > 0, voicedShare >= options.minimumVoicedShare else {
            return NoteResult(
                note: note, verdict: .missing, medianCents: nil, onsetError: nil, inTunePercent: 0,
                evidence: NoteResult.Evidence(voicedShare: voicedShare, framesJudged: 0))
        }
        let held = Self.settled(body)
        let estimate = Self.centre(held, vibratoRate: vibratoRate)
        let median = estimate.cents, doubt = estimate.uncertainty
        let octaves = (median / 1200).rounded()
        let offOctave = octaves != 0 && abs(median - 1200 * octaves) <= options.toleranceCents + doubt
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
            guard frame.time >= searchStart, frame.isVoiced, frame.confidence >= 0.5, isLoudEnough(frame) else { return false }
            let c = cents(frame) - shift
            let leaving = origin.map { ($0 - c) * ($0 - folded) > 0 && abs(c - $0) >= min(100, 0.7 * abs(folded - $0)) }
            return (abs(c - folded) <= 70 || leaving == true) && nearer(frame) && staysNearer(from: index)
        }
        let arrival = arrivalIndex.map { candidates[$0] }
        // After a rest the voice rises from a floor (silence, or the room still ringing). A frame's window is centred
        // on its time, so the first window that takes the voice in, the first above the floor, has its leading edge
        // where the voice starts, half a window after its time; a voice that swells in is heard there once it has
        // grown above a tenth of its level. Coming from a note just sung, a voice that dipped more than 6 dB below
        // the new note's level (a breath, or a fresh attack) came in where it rose from its lowest, which a dip
        // between two notes puts at their junction; a voice that kept sounding came in when it left the pitch sung
        // before (the frames of a fast slide are too unsteady to trust, and often unvoiced).
        var onsetError: Double?
        if let arrival {
            let full = candidates.filter { $0.time >= arrival.time && $0.time < arrival.time + 0.1 }.map(\.level).max() ?? arrival.level
            let approach = candidates.filter { $0.time >= note.onset - 0.1 && $0.time < arrival.time }
            let quietest = approach.min { $0.level < $1.level }
            var entrance = arrival.time
            if before == nil || note.previousMIDI == nil {
                let floor = quietest.map { min($0.level, arrival.level) } ?? 0
                let rise = candidates.first { $0.time >= (quietest?.time ?? note.onset - 0.1) && $0.level >= max(floor * 1.41, full / 10) }
                entrance = min(arrival.time, rise?.time ?? arrival.time) + halfWindow
            } else if let quietest, quietest.level < full / 2 {
                entrance = min(arrival.time, approach.last { $0.level <= quietest.level * 1.41 }?.time ?? arrival.time)
            } else if let before, abs(before - folded) > 60 {
                let held = candidates.last { frame in
                    frame.time < arrival.time && frame.isVoiced && frame.confidence >= 0.5 && isLoudEnough(frame)
                        && !nearer(frame) && abs(cents(frame) - shift - before) <= 150
                }
                entrance = min(arrival.time, held.flatMap { held in candidates.first { $0.time > held.time } }?.time ?? .infinity)
            }
            onsetError = entrance - note.onset
        }

        let verdict: Verdict
        if offOctave && !options.octaveIsCorrect {
            verdict = .octave
        } else if abs(folded) > 50 + doubt {
            verdict = .wrong
        } else if folded < -options.toleranceCents - doubt {
            verdict = .flat
        } else if folded > options.toleranceCents + doubt {
            verdict = .sharp
        } else if note.isEntrance, (onsetError ?? .infinity) > options.lateSeconds {
            verdict = .late
        } else {
            verdict = .correct
        }
        // Whose note it was, when another line's written note lies nearer the pitch sung than the singer's own (one
        // at the singer's own pitch never does).
        let sung = Double(note.midi) * 100 + median
        let other =
            verdict == .correct
            ? nil
            : note.others.filter { $0.midi != note.midi }.min { abs(Double($0.midi) * 100 - sung) < abs(Double($1.midi) * 100 - sung) }
        let sangOther = other.flatMap {
            abs(Double($0.midi) * 100 - sung) <= 50 && abs(Double($0.midi) * 100 - sung) < abs(median) ? $0 : nil
        }
        return NoteResult(
            note: note, verdict: verdict, medianCents: median, onsetError: onsetError, inTunePercent: inTunePercent,
            evidence: NoteResult.Evidence(voicedShare: voicedShare, framesJudged: held.count, sangOther: sangOther))
    }

    /// The written note's frequency in Hz.
    static func frequency(of note: ExpectedNote) -> Double { PitchMath.hertz(midi: note.midi) }

    /// `frame` as heard for singing `note`. A frame read an octave or more below the note whose window also
    /// repeats at the note's own period (within a semitone) nearly as well as at the period chosen (d′ no more
    /// than 0.1 above it) was the voice at the note with another sound repeating with it at a common, longer
    /// period (what is left of the loudspeakers, or a voice's own wavering onset): it is read at the note's
    /// period. A voice really sung an octave low repeats at half its period only as well as its odd harmonics
    /// allow, which is poorly: it stays low. And nobody sings a note more than an octave and a bit away: a frame
    /// read further off is read at its most periodic candidate within that reach, if one repeats well (d′ up to
    /// 0.35), and is no singing otherwise.
    static func reading(_ frame: PitchFrame, for note: ExpectedNote) -> PitchFrame {
        guard frame.isVoiced else { return frame }
        let written = frequency(of: note)
        let cents = PitchMath.cents(frame.frequency, from: written)
        var read = frame
        if cents < -1100, let own = frame.candidates.nearest(written, within: 100),
            own.aperiodicity <= min(0.35, 1 - frame.confidence + 0.1)
        {
            read.frequency = own.frequency
        } else if abs(cents) > 1350 {
            var best: PitchCandidate?
            for i in 0..<frame.candidates.count {
                let candidate = frame.candidates[i]
                guard abs(PitchMath.cents(candidate.frequency, from: written)) <= 1350, candidate.aperiodicity <= 0.35 else { continue }
                if candidate.aperiodicity < best?.aperiodicity ?? .infinity { best = candidate }
            }
            read.frequency = best?.frequency ?? 0
            if let best { read.confidence = 1 - best.aperiodicity }
        }
        return read
    }

    /// The sung frames of the note's body, in cents from the written pitch, and how many frames the body spans
    /// sung or not. The body starts after a grace window for scoops and slides, and stops short of the very
    /// end, where a singer leaves for the next note. Frames at less than half the level the note was sung at (its
    /// upper quartile) are the voice fading (a note cut short by a breath, with the room still ringing), whose
    /// pitch lags behind.
    func body(of note: ExpectedNote, frames heard: some Collection<PitchFrame>) -> Body {
        let frames = heard.map { Self.reading($0, for: note) }
        let grace = min(options.graceSeconds, note.duration * 0.4)
        let bodyStart = note.onset + grace, bodyEnd = note.end - min(0.05, note.duration * 0.15)
        var sung: [PitchFrame] = []
        var count = 0
        for frame in frames where frame.time >= bodyStart && frame.time < bodyEnd {
            count += 1
            if isSung(frame) { sung.append(frame) }
        }
        let full = sung.isEmpty ? 0 : sung.map(\.level).sorted()[sung.count * 3 / 4]
        let written = Self.frequency(of: note)
        let steady = sung.filter { $0.level >= full / 2 }.map { (time: $0.time, cents: PitchMath.cents($0.frequency, from: written)) }
        return Body(steady: steady, sung: sung.count, frames: count)
    }

    /// A note's body: its steady sung frames in cents from the written pitch, how many frames were sung, and how
    /// many it spans.
    struct Body {
        var steady: [(time: Double, cents: Double)]
        var sung: Int
        var frames: Int
    }

    /// The part of a body the singer held: the longest stretch over which their pitch, averaged over a vibrato
    /// cycle, stays within 50 cents of its own running mean. A singer who comes in late holds the note before into
    /// this one and then moves; one who leaves early for the next note moves before the end; either way the pitch
    /// is judged where they held it, and the late arrival is the entrance's business. A body with no stretch
    /// that long (a tenth of a second, and a third of the body) is judged whole.
    static func settled(_ body: [(time: Double, cents: Double)]) -> [(time: Double, cents: Double)] {
        guard let first = body.first?.time, let last = body.last?.time, last - first >= 0.2 else { return body }
        // The pitch averaged over ±90 ms (a vibrato cycle at 5.5 Hz), by running sums.
        var smoothed: [Double] = []
        smoothed.reserveCapacity(body.count)
        var low = 0, high = 0, sum = 0.0
        for frame in body {
            while high < body.count && body[high].time <= frame.time + 0.09 {
                sum += body[high].cents
                high += 1
            }
            while body[low].time < frame.time - 0.09 {
                sum -= body[low].cents
                low += 1
            }
            smoothed.append(sum / Double(high - low))
        }
        var best = 0..<0
        var start = 0, mean = smoothed[0]
        for i in 1...body.count {
            if i == body.count || abs(smoothed[i] - mean) > 50 {
                if body[i - 1].time - body[start].time > (best.isEmpty ? 0 : body[best.upperBound - 1].time - body[best.lowerBound].time) {
                    best = start..<i
                }
                guard i < body.count else { break }
                (start, mean) = (i, smoothed[i])
            } else {
                mean += (smoothed[i] - mean) / Double(i - start + 1)
            }
        }
        let held = body[best.upperBound - 1].time - body[best.lowerBound].time
        guard held >= 0.1, held >= (last - first) / 3 else { return body }
        return Array(body[best])
    }

    /// A pitch centre, give or take `uncertainty` cents: how far the plausible readings of a short note with
    /// vibrato lie apart.
    struct Centre {
        var cents: Double
        var uncertainty: Double
    }

    /// Where the sung pitch is centred. Frames an octave or more from the median (a subharmonic of the voice and
    /// the accompaniment together) are no part of what was sung. Over two vibrato cycles or more, each frame
    /// is averaged over one cycle around it (a median of raw frames over a cycle and a half would lean towards
    /// one side of the vibrato), and the median of those averages, which ignores a stray frame or a slide, is
    /// the centre. A shorter note is fitted with the singer's vibrato (`vibratoRate`, else any rate singers
    /// use); the fits that explain it about as well bound the uncertainty.
    static func centre(_ all: [(time: Double, cents: Double)], vibratoRate: Double?) -> Centre {
        let middle = all.map(\.cents).sorted()[all.count / 2]
        let frames = all.filter { abs($0.cents - middle) <= 150 }
        let halfCycle = 0.5 / (vibratoRate ?? 5.5)
        guard let first = frames.first?.time, let last = frames.last?.time else { return Centre(cents: middle, uncertainty: 0) }
        // Under half a cycle, no vibrato can be fitted: the median, give or take half the range the voice moved
        // through (a passing note sung on the way from one pitch to the next).
        guard last - first >= halfCycle else {
            let sorted = frames.map(\.cents).sorted()
            return Centre(cents: sorted[sorted.count / 2], uncertainty: min(50, (sorted.last! - sorted.first!) / 2))
        }
        guard last - first >= 4 * halfCycle else {
            return fittedCentre(frames, vibratoRate: vibratoRate)
                ?? Centre(cents: frames.map(\.cents).reduce(0, +) / Double(max(1, frames.count)), uncertainty: 0)
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
        // Frames far apart (the learned tracker's, a gap between) may leave none a half cycle from both ends.
        guard !averages.isEmpty else { return Centre(cents: middle, uncertainty: 0) }
        averages.sort()
        let n = averages.count
        return Centre(cents: n % 2 == 1 ? averages[n / 2] : (averages[n / 2 - 1] + averages[n / 2]) / 2, uncertainty: 0)
    }

    /// The centre of least-squares fits of `centre + a·sin(2πft) + b·cos(2πft)`, at the singer's vibrato rate
    /// give or take 10%, or at any rate from 4.5 to 7 Hz. The best fit gives the centre; every fit whose
    /// squared error is within four times the frames' noise of the best one is as plausible, and the farthest
    /// of their centres from the best is the uncertainty. Nil when there are too few frames or no fit is a
    /// plausible vibrato (wider than ±100 cents).
    static func fittedCentre(_ frames: [(time: Double, cents: Double)], vibratoRate: Double?) -> Centre? {
        guard frames.count >= 8, let start = frames.first?.time else { return nil }
        let rates =
            vibratoRate.map { rate in [0.9, 0.95, 1, 1.05, 1.1].map { $0 * rate } }
            ?? Array(stride(from: 4.5, through: 7.0, by: 0.25))
        var fits: [(residual: Double, centre: Double)] = []
        for rate in rates {
            let basis = { (time: Double) -> [Double] in
                let phase = 2 * Double.pi * rate * (time - start)
                return [1, sin(phase), cos(phase)]
            }
            guard let x = leastSquares(frames, basis: basis), (x[1] * x[1] + x[2] * x[2]).squareRoot() <= 100 else { continue }
            let residual = frames.reduce(0.0) { sum, frame in
                let error = frame.cents - zip(x, basis(frame.time)).reduce(0) { $0 + $1.0 * $1.1 }
                return sum + error * error
            }
            fits.append((residual, x[0]))
        }
        guard let best = fits.min(by: { $0.residual < $1.residual }) else { return nil }
        // The frames' own noise, no less than the 2 cents a tracker wavers by on a steady tone.
        let noise = max(4, best.residual / Double(frames.count))
        let doubt = fits.filter { $0.residual - best.residual <= 4 * noise }.map { abs($0.centre - best.centre) }.max() ?? 0
        return Centre(cents: best.centre, uncertainty: doubt)
    }

    /// The vibrato rate of a long, steady stretch of singing: the rate from 4 to 8 Hz whose sinusoid (over a
    /// straight line, for slow drift) fits the frames best. Nil for a stretch under 0.3 s, or one
    /// without a clear vibrato (narrower than ±12 cents, or explaining less than 60% of the wavering).
    static func vibratoRate(of all: [(time: Double, cents: Double)]) -> Double? {
        guard let first = all.first?.time, let last = all.last?.time, last - first >= 0.3, all.count >= 30 else { return nil }
        let middle = all.map(\.cents).sorted()[all.count / 2]
        let frames = all.filter { abs($0.cents - middle) <= 150 }
        let mean = frames.reduce(0) { $0 + $1.cents } / Double(frames.count)
        let variance = frames.reduce(0) { $0 + ($1.cents - mean) * ($1.cents - mean) }
        var best: (residual: Double, rate: Double, amplitude: Double)?
        for rate in stride(from: 4.0, through: 8.0, by: 0.1) {
            let basis = { (time: Double) -> [Double] in
                let phase = 2 * Double.pi * rate * (time - first)
                return [1, time - first, sin(phase), cos(phase)]
            }
            guard let x = leastSquares(frames, basis: basis) else { continue }
            let residual = frames.reduce(0.0) { sum, frame in
                let error = frame.cents - zip(x, basis(frame.time)).reduce(0) { $0 + $1.0 * $1.1 }
                return sum + error * error
            }
            if residual < best?.residual ?? .infinity { best = (residual, rate, (x[2] * x[2] + x[3] * x[3]).squareRoot()) }
        }
        guard let best, best.amplitude >= 12, best.residual <= 0.4 * variance else { return nil }
        return best.rate
    }

    /// Solves the least-squares problem `Σ (cents − x·basis(time))²` through its normal equations, by Gaussian
    /// elimination with partial pivoting; nil when they are singular.
    private static func leastSquares(_ frames: [(time: Double, cents: Double)], basis: (Double) -> [Double]) -> [Double]? {
        guard let n = frames.first.map({ basis($0.time).count }) else { return nil }
        var m = [[Double]](repeating: [Double](repeating: 0, count: n + 1), count: n)
        for frame in frames {
            let b = basis(frame.time)
            for i in 0..<n {
                for j in 0..<n { m[i][j] += b[i] * b[j] }
                m[i][n] += b[i] * frame.cents
            }
        }
        for column in 0..<n {
            guard let pivot = (column..<n).max(by: { abs(m[$0][column]) < abs(m[$1][column]) }), abs(m[pivot][column]) > 1e-9 else {
                return nil
            }
            m.swapAt(column, pivot)
            for row in 0..<n where row != column {
                let factor = m[row][column] / m[column][column]
                for k in column...n { m[row][k] -= factor * m[column][k] }
            }
        }
        return (0..<n).map { m[$0][n] / m[$0][$0] }
    }
}
