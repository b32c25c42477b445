import ChoirBase
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
        /// Seconds an entrance may come early or late, whatever the tempo; nil for the musical scale of
        /// ``timingTolerance(for:)``.
        public var timingSeconds: Double?
        /// What ``toleranceCents`` may be: a semitone or more is another note.
        public static let toleranceLimits = 1.0...99
        /// What ``timingSeconds`` may be: two seconds late is no entrance at all.
        public static let timingLimits = 0.001...2
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

        /// How early or late an entrance of `note` may come: a fifth of a quarter note at the session's tempo, but
        /// no more than a third of the note itself (a quaver at ♩ = 160 has 63 ms, a crotchet at ♩ = 120 has
        /// 100 ms), and from 60 to 120 ms whatever the tempo, since ears and a choir's ensemble go no finer and no
        /// coarser than that; ``timingSeconds`` when it is set.
        public func timingTolerance(for note: ExpectedNote) -> Double {
            if let timingSeconds { return timingSeconds }
            let beat = max(0.06, note.quarterSeconds / 5), length = max(0.06, note.duration / 3)
            return min(0.12, beat, length)
        }

        private enum CodingKeys: String, CodingKey {
            case toleranceCents, timingSeconds, octaveIsCorrect, graceSeconds, minimumVoicedShare, minimumConfidence
            /// What histories written before timing followed the tempo kept as ``timingSeconds``.
            case lateSeconds
        }

        /// Reads what any version of the history kept, each setting it lacks at its default.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            toleranceCents = try c.decodeIfPresent(Double.self, forKey: .toleranceCents) ?? toleranceCents
            timingSeconds =
                try c.decodeIfPresent(Double.self, forKey: .timingSeconds) ?? c.decodeIfPresent(Double.self, forKey: .lateSeconds)
            octaveIsCorrect = try c.decodeIfPresent(Bool.self, forKey: .octaveIsCorrect) ?? octaveIsCorrect
            graceSeconds = try c.decodeIfPresent(Double.self, forKey: .graceSeconds) ?? graceSeconds
            minimumVoicedShare = try c.decodeIfPresent(Double.self, forKey: .minimumVoicedShare) ?? minimumVoicedShare
            minimumConfidence = try c.decodeIfPresent(Double.self, forKey: .minimumConfidence) ?? minimumConfidence
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(toleranceCents, forKey: .toleranceCents)
            try c.encodeIfPresent(timingSeconds, forKey: .timingSeconds)
            try c.encode(octaveIsCorrect, forKey: .octaveIsCorrect)
            try c.encode(graceSeconds, forKey: .graceSeconds)
            try c.encode(minimumVoicedShare, forKey: .minimumVoicedShare)
            try c.encode(minimumConfidence, forKey: .minimumConfidence)
        }
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

    /// The verdict on `note` from `frames`, which must cover the note and the half second before it (time-stamped
    /// on the session's clock; frames outside are ignored), with `spectra` of the same stretch (``Spectrum``) to
    /// time its entrance by, the verdict on the note sung before it, and the pitches (Hz) of the notes sung just
    /// before that may still be ringing (see ``reading(_:for:ringing:)``).
    public func judge(
        _ note: ExpectedNote, frames heard: some Collection<PitchFrame>, spectra: ArraySlice<Spectrum> = [],
        previous: NoteResult? = nil, ringing: [Double] = []
    ) -> NoteResult {
        // In time order, whatever order they came in: what follows searches and scans them by time.
        let frames = heard.map { Self.reading($0, for: note, ringing: ringing, spectra: spectra) }
            .sorted { $0.time < $1.time }
        func cents(_ frame: PitchFrame) -> Double { PitchMath.cents(frame.frequency, from: Self.frequency(of: note)) }
        // The pitch heard at a frame: the median of its sung neighbours within 60 ms, so that a vibrato's crest, which
        // can reach a semitone away, does not pass for a step to the next note, nor a frame misread by an octave.
        let times = frames.map(\.time)
        func heldPitch(_ frame: PitchFrame) -> Double {
            guard isSung(frame) else { return cents(frame) }
            var low = 0, high = times.count
            while low < high {
                let middle = (low + high) / 2
                if times[middle] < frame.time - 0.06 { low = middle + 1 } else { high = middle }
            }
            var near: [Double] = []
            for neighbour in frames[low...] {
                guard neighbour.time <= frame.time + 0.06 else { break }
                if isSung(neighbour) { near.append(cents(neighbour)) }
            }
            near.sort()
            return near[near.count / 2]
        }

        // The pitch the singer held on the note before, when they sang straight on from it: where a slide or a step
        // comes from.
        let previousSung = previous.flatMap { previous in
            previous.medianCents.map { Double(previous.note.midi) * 100 + $0 }
        }
        // A singer who comes in late is late, not wrong nor missing: what they sing after the beat at the pitch of
        // the note before is that note held over, and silence is silence; this note's body begins where they reach it
        // (within a semitone, past a slide from the old one). A singer who never reaches it is judged on what they
        // sang instead.
        var comesIn: Double?
        if note.isEntrance {
            func holdsBefore(_ frame: PitchFrame) -> Bool {
                guard note.previousMIDI != nil, let previousSung, abs(previousSung - Double(note.midi) * 100) > 60 else { return false }
                return abs(heldPitch(frame) + Double(note.midi) * 100 - previousSung) <= 50
            }
            let onTheBeat = frames.filter { $0.time >= note.onset && $0.time < note.onset + 0.04 }
            if !onTheBeat.isEmpty, onTheBeat.allSatisfy({ !isSung($0) || holdsBefore($0) }) {
                let reached = frames.first { frame in
                    frame.time >= note.onset && isSung(frame) && !holdsBefore(frame)
                        && abs(PitchMath.cents(frame.frequency, from: Self.frequency(of: note))) <= 100
                }
                if let reached, reached.time < note.end - 0.1 { comesIn = reached.time - min(options.graceSeconds, note.duration * 0.4) }
            }
        }
        let measured = self.body(of: note, frames: frames, from: comesIn)
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
        let before = note.previousMIDI == nil ? nil : previousSung.map { $0 - Double(note.midi) * 100 - shift }
        // The note before, sung at another pitch and still near: what an early entrance must clearly have left.
        let lastSung = previous.flatMap { previous in
            note.onset - previous.note.end < 0.3 ? previousSung.map { $0 - Double(note.midi) * 100 - shift } : nil
        }
        // An entrance may come early, by up to half a second, but not into the first moments of the note before.
        let earliest = previous.map { $0.note.onset + min(0.1, 0.3 * $0.note.duration) } ?? -Double.infinity
        let searchStart = note.isEntrance ? max(note.onset - Self.earliestEntrance, earliest) : note.onset
        // Nearer this note than the one before: for a step smaller than vibrato's sway, a crest of the old note
        // can reach the new one, so only a frame that stays nearer for 50 ms (longer than a crest) counts.
        let candidates = frames.filter { $0.time >= searchStart - 0.1 && $0.time < note.end }
        func nearer(_ frame: PitchFrame) -> Bool {
            guard let before else { return true }
            let c = heldPitch(frame) - shift
            // Before the beat the singer is still on the note before: only a pitch clearly nearer this one has left
            // it (a note sung flat may come within a semitone's reach of the next).
            if frame.time < note.onset { return abs(c - folded) < abs(c - before) - 20 }
            // A repeated pitch has nothing to be nearer to.
            return abs(before - folded) <= 60 || abs(c - folded) < abs(c - before)
        }
        func staysNearer(from index: Int) -> Bool {
            guard let before, abs(before - folded) < 250 else { return true }
            let start = candidates[index].time
            return candidates[index...].prefix { $0.time <= start + 0.05 }.allSatisfy { !isSung($0) || nearer($0) }
        }
        // Before the beat, only a singer who has left the note before (for another pitch clearly nearer this one, or
        // by falling silent for 40 ms) and sings this pitch on from then, in full voice and without a break, has come
        // in early: a frame of the old note misread, another still ringing, or the old note falling away at its end
        // before a breath, does not.
        let full = body.isEmpty ? 0 : measured.fullLevel
        func comesInEarly(at index: Int) -> Bool {
            let start = candidates[index].time
            var silentSince: Double?
            for frame in candidates[index...] where frame.time <= note.onset + 0.03 {
                guard isSung(frame) else {
                    if let since = silentSince, frame.time - since > 0.02 { return false }
                    if silentSince == nil { silentSince = frame.time }
                    continue
                }
                silentSince = nil
                let c = heldPitch(frame) - shift
                guard abs(c - folded) <= 70, frame.level >= full / 3, lastSung.map({ abs(c - folded) < abs(c - $0) - 20 }) ?? true else {
                    return false
                }
            }
            // An octave from the note before is no clear change: a tracker misreads a voice by octaves.
            if let lastSung, abs(remainder(lastSung - folded, 1200)) > 60 { return true }
            var quietSince: Double?
            for frame in candidates where frame.time >= searchStart && frame.time < start {
                if isSung(frame) {
                    quietSince = nil
                } else if let since = quietSince, frame.time - since >= 0.04 {
                    return true
                } else if quietSince == nil {
                    quietSince = frame.time
                }
            }
            return false
        }

        // The singer's pitch has arrived at the first frame near the pitch they settle on (closer than a semitone,
        // wider than vibrato's sway), or, sliding from the previous note, once they have clearly left it towards
        // this one: a fast slide is often unvoiced in the middle. Frames in a scoop or a slide are less periodic,
        // so a lower confidence is enough here.
        let origin = before ?? note.previousMIDI.map { Double($0 - note.midi) * 100 }
        let arrival = candidates.indices.first { index in
            let frame = candidates[index]
            guard frame.time >= searchStart, frame.isVoiced, frame.confidence >= 0.5, isLoudEnough(frame) else { return false }
            let c = cents(frame) - shift
            let leaving = origin.map { ($0 - c) * ($0 - folded) > 0 && abs(c - $0) >= min(100, 0.7 * abs(folded - $0)) }
            guard (abs(c - folded) <= 70 || leaving == true) && nearer(frame) && staysNearer(from: index) else { return false }
            return frame.time >= note.onset || comesInEarly(at: index)
        }.map { candidates[$0] }
        // The note began before its pitch took over the tracker: where its own harmonics rose (``entrance``), with
        // the note before left out where it may still ring (a room, a sampled voice's release).
        var onsetError: Double?
        if let arrival {
            let sung = Self.frequency(of: note) * PitchMath.ratio(cents: median)
            // A singer who stopped (for a breath, or between notes) came in after the silence, whatever sounded in the
            // room before it. Straight on from the note before, a frame as loud as the singing (within 6 dB of the
            // note's level) that repeats half-well (two pitches at once, read as none) is no silence: the note
            // before fading under this one's swell, where this one may have begun.
            var quietUntil = searchStart - 0.1
            var quietSince: Double?
            func isCrossing(_ frame: PitchFrame) -> Bool {
                note.previousMIDI != nil && frame.confidence >= 0.4 && frame.level >= full / 2 && isLoudEnough(frame)
            }
            for frame in candidates where frame.time < arrival.time {
                if isSung(frame) || isCrossing(frame) {
                    quietSince = nil
                } else {
                    if quietSince == nil { quietSince = frame.time }
                    if frame.time - quietSince! >= 0.03 { quietUntil = frame.time }
                }
            }
            let silentUntil = quietUntil
            // Nor does a note begin while the singer holds another pitch, the note before or one nearer it, for a
            // tenth of a second or more (not a note that rings on in a room or a sample's release, which fades): it
            // begins where they leave it.
            func isRinging(_ frame: PitchFrame) -> Bool { ringing.contains { abs(PitchMath.cents(frame.frequency, from: $0)) <= 60 } }
            // A note that rings fades; one the singer still holds keeps its level.
            func isFading(_ index: Int) -> Bool {
                let frame = candidates[index]
                let loudest = candidates[..<index].reversed().prefix { frame.time - $0.time <= 0.08 }.map(\.level).max() ?? 0
                return frame.level < 0.8 * loudest
            }
            // This note's pitch class: the note, or the note read an octave or two away.
            func isThisNote(_ pitch: Double) -> Bool { abs(remainder(pitch - folded, 1200)) <= 60 }
            var holdingSince: Double?
            // (A vibrato's trough can pass for the arrival while the old note is still held: the hold is followed a
            // little past it.)
            for index in candidates.indices where candidates[index].time > quietUntil && candidates[index].time < arrival.time + 0.15 {
                let frame = candidates[index]
                let pitch = heldPitch(frame) - shift
                // Another pitch: nearer the note before than this one, or with none before, more than 60 cents off. This
                // note read an octave or two away is no other pitch: where it swells in under the note before, the two
                // together repeat at a common, lower period (C4 fading under F4 repeats at F3's).
                let octavesOfThis = isThisNote(pitch) && abs(pitch - folded) > 600 && (origin.map { abs(pitch - $0) > 60 } ?? true)
                let holdsAnother =
                    isSung(frame) && !octavesOfThis && (origin.map { abs(pitch - $0) < abs(pitch - folded) } ?? (abs(pitch - folded) > 60))
                if holdsAnother && (!isRinging(frame) || !isFading(index)) {
                    if holdingSince == nil { holdingSince = frame.time }
                    if frame.time - holdingSince! >= 0.1 { quietUntil = frame.time }
                } else {
                    holdingSince = nil
                }
            }
            // Nor, coming in from a rest, while the singer is still on the way to it: a pitch sung clearly that is
            // neither this note nor this note read an octave away, nor one still ringing, is a scoop or a fall into
            // it, and the note begins where the pitch arrives. (At a low note a scoop from under a semitone stays
            // inside the note's harmonics, whose rise would take it in.) Straight on from the note before, a slide
            // from it is the singer moving on in time, as a legato line does, and the harmonics' rise times it.
            var approachingUntil = quietUntil
            for frame in candidates where origin == nil && frame.time > quietUntil && frame.time < arrival.time && isSung(frame) {
                let pitch = heldPitch(frame) - shift
                if !isThisNote(pitch) && !isRinging(frame) { approachingUntil = frame.time }
            }
            let arrived = max(arrival.time, quietUntil)
            // Where the note before sounds on louder at first (a sampled voice's release), the tracker reads it on past
            // the beat as if it were held. After a leap of a fourth or more, the harmonics this note does not share
            // with the note before (those it shares are left out) lie clear of the note before's: after a fourth or a
            // fifth, the commonest leaps, a quarter or a third of this note's pitch away, two bins or more even at a
            // bass's pitches. Their rise is then this note's own, and it is followed back past the hold by up to
            // ``trackerLag``, though not past a silence. (A step's harmonics lie within a bin or two of the note
            // before's at low pitches, where the note before's skirts would pass for this note's rise; thirds were not
            // measured.) The hold is not asked to be of the note before's own pitch: a release droops on its way out,
            // and the two notes together repeat at other periods. With no hold, the bound is the same.
            let leaps = origin.map { abs($0) >= 450 } ?? false
            let entrance =
                Self.entrance(
                    arrival: arrived, sung: sung, ringing: ringing, spectra: spectra,
                    from: leaps ? max(silentUntil, quietUntil - Self.trackerLag) : approachingUntil,
                    after: previous.flatMap { note.onset - $0.note.end < 0.3 ? $0.sungFrequency : nil }) ?? arrived
            onsetError = entrance - note.onset
        }

        // A wrong note or octave matters most; then an entrance out of time, whose pitch was held too briefly to be
        // sure of; then the pitch.
        let verdict: Verdict
        let timing = options.timingTolerance(for: note)
        if offOctave && !options.octaveIsCorrect {
            verdict = .octave
        } else if abs(folded) > 50 + doubt {
            verdict = .wrong
        } else if note.isEntrance, (onsetError ?? .infinity) > timing {
            verdict = .late
        } else if note.isEntrance, let onsetError, onsetError < -timing {
            verdict = .early
        } else if folded < -options.toleranceCents - doubt {
            verdict = .flat
        } else if folded > options.toleranceCents + doubt {
            verdict = .sharp
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

    /// The spectrum of `spectra` (in time order) whose window is centred nearest `time`, if one is within 5 ms.
    static func spectrum(at time: Double, in spectra: ArraySlice<Spectrum>) -> Spectrum? {
        guard !spectra.isEmpty else { return nil }
        var low = spectra.startIndex, high = spectra.endIndex
        while low < high {
            let middle = (low + high) / 2
            if spectra[middle].time < time { low = middle + 1 } else { high = middle }
        }
        let nearest = (max(spectra.startIndex, low - 1)...min(low, spectra.endIndex - 1)).min {
            abs(spectra[$0].time - time) < abs(spectra[$1].time - time)
        }!
        return abs(spectra[nearest].time - time) <= 0.005 ? spectra[nearest] : nil
    }

    /// How long a tracker may go on reading the note before once a leap has begun under its release, in seconds:
    /// Synth Voice's renders read it 40 ms on (BWV 178.7's tenor, B3 to E4).
    static let trackerLag = 0.06

    /// How long before its written onset an entrance is looked for, in seconds.
    static let earliestEntrance = 0.5

    /// Where a note began to sound, given the moment `arrival` its pitch took over the tracker: the start of the rise
    /// of its harmonics (``Spectrum/salience(of:excluding:)`` at the `sung` frequency, leaving out the harmonics of
    /// the `ringing` notes before) that leads to it, and not before the note sung just before (`previous`, in Hz, more
    /// than 60 cents away) has swelled in (come within 1 dB of the loudest it gets before the arrival). Nil when the
    /// spectra cannot tell (too few, or a pitch that sounded all along, or that shares every harmonic with the note
    /// before: an octave up).
    ///
    /// This is onset detection informed by the pitch, the way score followers and note transcribers refine a note's
    /// start (spectral flux restricted to one pitch's harmonic comb, as in Bello et al., "A tutorial on onset
    /// detection in music signals", 2005): a listener hears a note begin as soon as its pitch is audible, and that
    /// is well before a tracker that reads one pitch per window gives up the note still ringing (a swell under a
    /// sampled voice's release read 100 to 300 ms late), while the level or a pitch track alone would call a
    /// breath, a consonant or a swell the note. A note segmenter on the pitch track (pYIN's note HMM) places the
    /// boundary where the tracker changes its mind, the late point; broadband spectral flux fires on consonants. The start is where the harmonics' level, walking back from the
    /// arrival, falls below halfway (in decibels) from the quietest they were before it to where they hold after
    /// it: past a swell's first few tens of milliseconds, and clear of the noise of a breath, which fills the
    /// troughs between harmonics as much as the harmonics.
    static func entrance(
        arrival: Double, sung: Double, ringing: [Double], spectra: ArraySlice<Spectrum>, from lower: Double, after previous: Double? = nil
    ) -> Double? {
        let ringing = ringing.filter { abs(PitchMath.cents(sung, from: $0)) > 60 }
        let window = spectra.drop { $0.time < lower }.prefix { $0.time <= arrival + 0.15 }
        var times: [Double] = [], levels: [Double] = []
        for spectrum in window {
            guard let salience = spectrum.salience(of: sung, excluding: ringing) else { return nil }
            times.append(spectrum.time)
            levels.append(salience)
        }
        let after = zip(times, levels).filter { $0.0 >= arrival }.map(\.1).sorted()
        guard after.count >= 3, let last = times.lastIndex(where: { $0 <= arrival }), last >= 2 else { return nil }
        let steady = after[after.count / 2]
        guard steady > 0 else { return nil }
        // Decibels from the steady level, over three spectra (one alone can fall between two bursts of noise), and no
        // lower than 40 dB down.
        let decibels = levels.map { 10 * log10(max($0, steady * 1e-4) / steady) }
        let smoothed = decibels.indices.map { i in
            decibels[max(0, i - 1)...min(decibels.count - 1, i + 1)].reduce(0, +)
                / Double(min(decibels.count - 1, i + 1) - max(0, i - 1) + 1)
        }
        let floor = smoothed[...last].min() ?? 0
        guard floor <= -6 else { return nil }
        var start = last
        while start > 0 && smoothed[start - 1] >= floor / 2 { start -= 1 }
        // One voice sings one note at a time: while the note before still swells towards its full level (within 1 dB
        // of the loudest it gets before this one arrives), this one has not begun, and its harmonics rising there are
        // the note before's (the wide partials of a sampled choir reach a neighbour's comb, and a note a step away
        // shares its upper harmonics' skirts). Only where the note before sounds louder than this one there: after a
        // breath, all that is left in its comb is this note's own rise.
        if let previous, start < last, abs(PitchMath.cents(sung, from: previous)) > 60 {
            let swelling = window.prefix(last + 1).map { $0.salience(of: previous, excluding: [sung]) ?? 0 }
            if let loudest = swelling.max(), loudest > 0, let swelled = swelling.firstIndex(where: { $0 >= loudest * swelledWithin }),
                swelling[swelled] >= levels[swelled]
            {
                start = max(start, swelled)
            }
        }
        return min(arrival, times[start] + spectralDelay)
    }

    /// Within 1 dB of its loudest: a note that has finished swelling in.
    static let swelledWithin = pow(10, -0.1)

    /// How much later than the centre of the window where it crosses halfway a rise of harmonics really starts:
    /// the half of a 64 ms window it reaches ahead, less the share of it a sudden note must fill to reach
    /// halfway; measured on tones that start at a known sample (`NoteComparatorTests`).
    static let spectralDelay = 0.01

    /// The written note's frequency in Hz.
    static func frequency(of note: ExpectedNote) -> Double { PitchMath.hertz(midi: note.midi) }

    /// `frame` as heard for singing `note`, with the notes sung just before (`ringing`, in Hz) perhaps still
    /// sounding. A frame read an octave or more below the note whose window also repeats at the note's own period
    /// (within a semitone) nearly as well as at the period chosen (d′ no more than 0.1 above it) was the voice at
    /// the note with another sound repeating with it at a common, longer period (what is left of the
    /// loudspeakers, or a voice's own wavering onset): it is read at the note's period. A voice really sung an
    /// octave low repeats at half its period only as well as its odd harmonics allow, which is poorly: it stays
    /// low. A frame read at a note still ringing, or not voiced at all, whose window repeats well (d′ up to 0.4) at
    /// another period within a semitone and a half of the note was the note sounding under it (a room's or a
    /// sampled voice's release, which a one-pitch tracker hears mixed): it is read there. A voice that holds the
    /// note before into this one makes no such second dip, and stays where it is. Where no such dip is found, from
    /// the beat on, and a note still ringing sounds about as loud as this one (their harmonics within 6 dB either way
    /// in the frame's spectrum among `spectra`), the tracker hears the louder of the two or a pitch between them: a
    /// frame read so (unvoiced, or more than 30 cents off towards the note ringing) is read from this note's own
    /// harmonics, within 60 cents (``Spectrum/pitch(near:within:excluding:)``), if they carry an eighth or more of its
    /// power and outweigh what the tracker heard. A voice that holds the note before, or sings another, leaves this
    /// note's harmonics far weaker than its own, and stays where it is. And nobody sings a note more than an octave
    /// and a bit away: a frame read further off is read at its most periodic candidate within that
    /// reach, if one repeats well (d′ up to 0.35), and is no singing otherwise.
    static func reading(_ frame: PitchFrame, for note: ExpectedNote, ringing: [Double] = [], spectra: ArraySlice<Spectrum> = [])
        -> PitchFrame
    {
        let written = frequency(of: note)
        var read = frame
        if !ringing.isEmpty {
            func isRinging(_ frequency: Double) -> Bool { ringing.contains { abs(PitchMath.cents(frequency, from: $0)) <= 60 } }
            let held = !frame.isVoiced || (isRinging(frame.frequency) && abs(PitchMath.cents(frame.frequency, from: written)) > 60)
            var own: PitchCandidate?
            for i in 0..<frame.candidates.count where held {
                let candidate = frame.candidates[i]
                guard abs(PitchMath.cents(candidate.frequency, from: written)) <= 150, candidate.aperiodicity <= 0.4,
                    !isRinging(candidate.frequency), candidate.aperiodicity < own?.aperiodicity ?? .infinity
                else { continue }
                own = candidate
            }
            if let own {
                read.frequency = own.frequency
                read.confidence = 1 - own.aperiodicity
                return read
            }
        }
        // (The spectrum is looked up only where a note rings on past the beat: most frames need none.)
        if frame.time >= note.onset, !ringing.isEmpty, let spectrum = Self.spectrum(at: frame.time, in: spectra),
            let mixed = Self.mixture(frame, written: written, ringing: ringing, spectrum: spectrum)
        {
            return mixed
        }
        guard frame.isVoiced else { return frame }
        let cents = PitchMath.cents(frame.frequency, from: written)
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

    /// `frame` read from the harmonics of the note at `written` Hz in its `spectrum` where a note still ringing
    /// (`ringing`, more than 60 cents away) sounds about as loud: nil where the tracker's reading stands. See
    /// ``reading(_:for:ringing:spectra:)``.
    static func mixture(_ frame: PitchFrame, written: Double, ringing: [Double], spectrum: Spectrum) -> PitchFrame? {
        let others = ringing.filter { abs(PitchMath.cents($0, from: written)) > 60 }
        // A reading the mixture may have made: none, or one more than 30 cents off on the side of a note still ringing,
        // and not far past it.
        let mixed =
            !frame.isVoiced
            || others.contains { other in
                let (heard, ringing) = (PitchMath.cents(frame.frequency, from: written), PitchMath.cents(other, from: written))
                return abs(heard) > 30 && heard * ringing > 0 && abs(heard - ringing) < abs(ringing) + 60
            }
        // Cheap checks first, at the written pitch: most frames sound one note clearly, or none (a rest, a breath).
        guard !others.isEmpty, mixed, let near = spectrum.salience(of: written, excluding: others),
            let ringingNear = others.compactMap({ spectrum.salience(of: $0, excluding: [written]) }).max(),
            ringingNear >= near / 4, near >= ringingNear / 16, near + ringingNear >= frame.level * frame.level / 4,
            let heard = spectrum.pitch(near: written, within: 60, excluding: others)
        else { return nil }
        let loudest = others.compactMap { spectrum.salience(of: $0, excluding: [heard.frequency]) }.max() ?? 0
        // What the tracker heard, where it is no note still ringing, against this note, each without the other's
        // harmonics: a voice that sang another pitch is heard there more strongly, though in a low voice's dense comb
        // its upper harmonics fall within reach of this note's.
        let apart = frame.isVoiced && !others.contains { abs(PitchMath.cents(frame.frequency, from: $0)) <= 60 }
        let tracked = apart ? spectrum.salience(of: frame.frequency, excluding: others + [heard.frequency]) ?? 0 : 0
        let mine = apart ? spectrum.salience(of: heard.frequency, excluding: others + [frame.frequency]) ?? 0 : heard.salience
        guard loudest >= heard.salience / 4, heard.salience >= loudest / 4, mine >= tracked,
            heard.salience >= frame.level * frame.level / 4
        else { return nil }
        var read = frame
        read.frequency = heard.frequency
        // The harmonics' checks stand for the tracker's: as sure as a sung frame (the default's 0.6) and a bit.
        read.confidence = max(frame.confidence, 0.7)
        return read
    }

    /// The sung frames of the note's body, in cents from the written pitch, and how many frames the body spans
    /// sung or not. The body starts after a grace window for scoops and slides, and stops short of the very
    /// end, where a singer leaves for the next note. Frames at less than half the level the note was sung at (its
    /// upper quartile) are the voice fading (a note cut short by a breath, with the room still ringing), whose
    /// pitch lags behind.
    ///
    /// A short note (a body under 0.2 s, too short for ``settled(_:)`` to find where the pitch held) sung on the
    /// beat whose body spreads over more than a semitone (the middle 80% of its frames, an octave misread left out
    /// as in ``centre(_:vibratoRate:)``), wider than any vibrato, is no held pitch: it is judged where the singer
    /// held it, a body of the same length placed anywhere from the onset, clearly steadier there (spread over 20
    /// cents less) and no less sung. Where too little of the body was sung to judge, it is judged where most of it
    /// was. In a run or a slur the singer is on a short note at once and already on the way to the next by its
    /// second half, which a grace window of a tenth of a second leaves as the whole body; a last note sung at once
    /// and let fade was sung, not missed. (A body within a vibrato's width stays where it is: the steadiest stretch
    /// of a vibrato is its crest or its trough.)
    func body(of note: ExpectedNote, frames heard: some Collection<PitchFrame>, ringing: [Double] = [], from start: Double? = nil) -> Body {
        let frames = heard.map { Self.reading($0, for: note, ringing: ringing) }
        let written = Self.frequency(of: note)
        let grace = min(options.graceSeconds, note.duration * 0.4)
        var bodyEnd = note.end - min(0.05, note.duration * 0.15)
        var bodyStart = max(note.onset + grace, start.map { min(bodyEnd - 0.05, $0 + grace) } ?? -.infinity)
        if start == nil, bodyEnd - bodyStart < 0.2 {
            let length = bodyEnd - bodyStart
            func measure(from start: Double) -> (sung: Int, spans: Int, spread: Double) {
                let window = frames.filter { $0.time >= start && $0.time < start + length }
                let all = window.filter(isSung).map { PitchMath.cents($0.frequency, from: written) }.sorted()
                guard all.count >= 3 else { return (all.count, window.count, .infinity) }
                let cents = all.filter { abs($0 - all[all.count / 2]) <= 150 }
                return (all.count, window.count, cents[cents.count * 9 / 10] - cents[cents.count / 10])
            }
            func isSungEnough(_ m: (sung: Int, spans: Int, spread: Double)) -> Bool {
                m.spans > 0 && Double(m.sung) >= options.minimumVoicedShare * Double(m.spans)
            }
            let standard = measure(from: bodyStart)
            var best = (start: bodyStart, measured: standard)
            for frame in frames where frame.time >= note.onset && frame.time < bodyStart {
                let candidate = measure(from: frame.time)
                let better =
                    isSungEnough(standard)
                    ? candidate.sung >= standard.sung && candidate.spread < best.measured.spread
                    : isSungEnough(candidate) && (candidate.sung, -candidate.spread) > (best.measured.sung, -best.measured.spread)
                if better { best = (frame.time, candidate) }
            }
            if isSungEnough(standard) ? standard.spread > 100 && best.measured.spread < standard.spread - 20 : isSungEnough(best.measured) {
                (bodyStart, bodyEnd) = (best.start, best.start + length)
            }
        }
        var sung: [PitchFrame] = []
        var count = 0
        for frame in frames where frame.time >= bodyStart && frame.time < bodyEnd {
            count += 1
            if isSung(frame) { sung.append(frame) }
        }
        let full = sung.isEmpty ? 0 : sung.map(\.level).sorted()[sung.count * 3 / 4]
        let steady = sung.filter { $0.level >= full / 2 }.map { (time: $0.time, cents: PitchMath.cents($0.frequency, from: written)) }
        return Body(steady: steady, sung: sung.count, frames: count, fullLevel: full)
    }

    /// A note's body: its steady sung frames in cents from the written pitch, how many frames were sung, how many it
    /// spans, and the level it was sung at (the upper quartile of its sung frames' RMS).
    struct Body {
        var steady: [(time: Double, cents: Double)]
        var sung: Int
        var frames: Int
        var fullLevel: Double
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
        var basis = Basis(functions: 3, frames: frames.count)
        for rate in rates {
            basis.fill(frames) { time, row in
                let phase = 2 * Double.pi * rate * (time - start)
                row[0] = 1
                row[1] = sin(phase)
                row[2] = cos(phase)
            }
            guard let x = basis.leastSquares(frames), (x[1] * x[1] + x[2] * x[2]).squareRoot() <= 100 else { continue }
            fits.append((basis.residual(frames, x), x[0]))
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
        var basis = Basis(functions: 4, frames: frames.count)
        for rate in stride(from: 4.0, through: 8.0, by: 0.1) {
            basis.fill(frames) { time, row in
                let phase = 2 * Double.pi * rate * (time - first)
                row[0] = 1
                row[1] = time - first
                row[2] = sin(phase)
                row[3] = cos(phase)
            }
            guard let x = basis.leastSquares(frames) else { continue }
            let residual = basis.residual(frames, x)
            if residual < best?.residual ?? .infinity { best = (residual, rate, (x[2] * x[2] + x[3] * x[3]).squareRoot()) }
        }
        guard let best, best.amplitude >= 12, best.residual <= 0.4 * variance else { return nil }
        return best.rate
    }

    /// The values of a few functions of time at every frame, row by row, for a least-squares fit of the frames'
    /// cents. Each is worked out once per fit and kept in one buffer that every fit refills: the judge fits every
    /// note at dozens of rates.
    struct Basis {
        let functions: Int
        private var values: [Double]

        init(functions: Int, frames: Int) {
            self.functions = functions
            values = [Double](repeating: 0, count: functions * frames)
        }

        /// Sets each frame's row to what `row` writes there for its time.
        mutating func fill(_ frames: [(time: Double, cents: Double)], _ row: (Double, UnsafeMutableBufferPointer<Double>) -> Void) {
            let functions = functions
            values.withUnsafeMutableBufferPointer { values in
                for (index, frame) in frames.enumerated() {
                    row(frame.time, UnsafeMutableBufferPointer(rebasing: values[(index * functions)..<(index * functions + functions)]))
                }
            }
        }

        /// Solves the least-squares problem `Σ (cents − x·basis)²` through its normal equations, by Gaussian
        /// elimination with partial pivoting; nil when they are singular.
        func leastSquares(_ frames: [(time: Double, cents: Double)]) -> [Double]? {
            let n = functions
            guard !frames.isEmpty else { return nil }
            // The normal equations are symmetric: each product is summed once, over the frames in order, and mirrored.
            var sums = [Double](repeating: 0, count: n * (n + 1))
            sums.withUnsafeMutableBufferPointer { sums in
                values.withUnsafeBufferPointer { values in
                    for (index, frame) in frames.enumerated() {
                        let row = values.baseAddress! + index * n
                        for i in 0..<n {
                            for j in i..<n { sums[i * (n + 1) + j] += row[i] * row[j] }
                            sums[i * (n + 1) + n] += row[i] * frame.cents
                        }
                    }
                }
            }
            var m = (0..<n).map { i in (0...n).map { j in j < i ? sums[j * (n + 1) + i] : sums[i * (n + 1) + j] } }
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

        /// The squared error left by the fit `x`.
        func residual(_ frames: [(time: Double, cents: Double)], _ x: [Double]) -> Double {
            var sum = 0.0
            for (index, frame) in frames.enumerated() {
                var fitted = 0.0
                for i in 0..<functions { fitted += x[i] * values[index * functions + i] }
                let error = frame.cents - fitted
                sum += error * error
            }
            return sum
        }
    }
}
