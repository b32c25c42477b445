import ChoirBase
import ChoirPitch
import Glibc

/// Judges a session's notes as the pitch frames arrive, in time order: a note is judged as soon as the
/// frames have passed its end, so results can be shown and stored while the singer goes on.
public struct PracticeJudge: Sendable {
    public let notes: [ExpectedNote]
    public var comparator: NoteComparator
    /// Whether the level gate keeps learning from the frames as they come (live) or was given whole (files).
    public var learnsLevel: Bool
    public private(set) var gate: LevelGate
    /// The singer's vibrato, learned from the notes judged so far.
    public private(set) var vibrato: VibratoLearner
    public private(set) var results: [NoteResult] = []
    /// The sung pitch over the session, thinned for reports: (seconds, MIDI number) of sung frames.
    public private(set) var trace: [TracePoint] = []
    private var pending: [PitchFrame] = []
    private var pendingSpectra: [Spectrum] = []
    /// The times of the latest frame and spectrum taken.
    private var latest = (frame: -Double.infinity, spectrum: -Double.infinity)

    public init(
        notes: [ExpectedNote], options: NoteComparator.Options, gate: LevelGate = LevelGate(), learnsLevel: Bool,
        vibrato: VibratoLearner = VibratoLearner()
    ) {
        self.notes = notes
        self.comparator = NoteComparator(options: options, levelGate: gate.threshold)
        comparator.echoLeft = gate.echoLeft.share
        comparator.vibratoRate = vibrato.rate
        self.gate = gate
        self.vibrato = vibrato
        self.learnsLevel = learnsLevel
        trace.reserveCapacity(4096)
    }

    /// A pitch tracker for `notes` at `sampleRate`: it hears down to an octave and a bit below the line's
    /// lowest note, so that a bass singing an octave low is still heard, and up to a fourth above its highest.
    public static func detector(for notes: [ExpectedNote], sampleRate: Double) -> PitchTrackerConfiguration {
        let lowest = notes.map(\.midi).min() ?? 40, highest = notes.map(\.midi).max() ?? 84
        let minimum = max(40, min(PitchTrackerConfiguration.singingRange.minimum, PitchMath.hertz(midi: lowest - 14)))
        let maximum = max(PitchTrackerConfiguration.singingRange.maximum, PitchMath.hertz(midi: highest + 5))
        return PitchTrackerConfiguration(sampleRate: sampleRate, minimumFrequency: minimum, maximumFrequency: maximum)
    }

    /// Frames end this long after a note so that a note's last frames are in before it is judged.
    static let settle = 0.06

    /// Adds the spectrum of a stretch of the microphone (on the session's clock), by which entrances are timed; the
    /// spectra come in time order, at least as far as the frames.
    public mutating func add(_ spectrum: Spectrum) {
        guard spectrum.time > latest.spectrum else { return }
        latest.spectrum = spectrum.time
        pendingSpectra.append(spectrum)
    }

    /// Adds one frame (on the session's clock) and returns the notes it completes.
    public mutating func add(_ frame: PitchFrame) -> ArraySlice<NoteResult> {
        // A live session's clock can step back (the streams' offset moves when a device recovers from an xrun or a
        // stall): a frame from before the latest was heard already, and the comparator reads frames in time order.
        guard frame.time > latest.frame else { return results[results.count...] }
        latest.frame = frame.time
        if learnsLevel {
            gate.add(frame, resting: ExpectedNote.isRest(at: frame.time, in: notes))
            comparator.levelGate = gate.threshold
            comparator.echoLeft = gate.echoLeft.share
        }
        if comparator.isSung(frame), trace.last.map({ frame.time - $0.time >= 0.02 }) ?? true {
            trace.append(TracePoint(time: frame.time, midi: PitchMath.midi(hertz: frame.frequency)))
        }
        pending.append(frame)
        let first = results.count
        while results.count < notes.count, notes[results.count].end + Self.settle <= frame.time {
            judgeNext()
            dropFramesBefore(results.count)
        }
        return results[first...]
    }

    /// Judges every note not yet judged with the frames there are, when the session ends.
    public mutating func finish() -> ArraySlice<NoteResult> {
        let first = results.count
        while results.count < notes.count { judgeNext() }
        return results[first...]
    }

    /// Judges the notes that end by `time` with the frames there are, and gives up on the rest: playback moved
    /// elsewhere at `time`.
    public mutating func finish(endingBy time: Double) -> ArraySlice<NoteResult> {
        let first = results.count
        while results.count < notes.count, notes[results.count].end <= time { judgeNext() }
        pending.removeAll()
        pendingSpectra.removeAll()
        return results[first...]
    }

    /// Judges the next note with the pending frames, and learns the singer's vibrato from it. A note with
    /// alternatives (the singer's other line sounding with it) is judged against whichever the sung pitch is
    /// nearer to.
    private mutating func judgeNext() {
        let note = notes[results.count]
        let previous = results.last.flatMap { $0.note.index == note.index - 1 ? $0 : nil }
        // The notes sung in the last 0.6 s before this one: a room, or a sampled voice's release, may still sound them.
        let ringing = results.suffix(2).filter { note.onset - $0.note.end < 0.6 }.compactMap(\.sungFrequency)
        let spectra = pendingSpectra[...]
        var result = comparator.judge(note, frames: pending, spectra: spectra, previous: previous, ringing: ringing)
        for alternative in note.alternatives {
            let other = comparator.judge(
                note.sung(as: alternative), frames: pending, spectra: spectra, previous: previous, ringing: ringing)
            if abs(other.medianCents ?? .infinity) < abs(result.medianCents ?? .infinity) { result = other }
        }
        result.verdict = drift(result)
        results.append(result)
        vibrato.learn(from: comparator.body(of: result.note, frames: pending, ringing: ringing).steady)
        comparator.vibratoRate = vibrato.rate
    }

    /// `result`'s verdict, made rushed or dragged where an early or late entrance ends a steady drift: the three
    /// entrances before it, in the last eight seconds, came ever earlier (or later) by steps of less than half the
    /// tolerance, moving by half the tolerance or more, the last of them by at least three fifths of it already. One
    /// entrance out of place, or a jump, stays early or late.
    func drift(_ result: NoteResult) -> Verdict {
        guard result.verdict == .early || result.verdict == .late, let error = result.onsetError else { return result.verdict }
        let late = result.verdict == .late
        let tolerance = comparator.options.timingTolerance(for: result.note)
        let recent = results.suffix(8).filter { $0.note.isEntrance && $0.note.onset >= result.note.onset - 8 }
            .compactMap(\.onsetError).suffix(3)
        guard recent.count == 3 else { return result.verdict }
        let errors = (Array(recent) + [error]).map { late ? $0 : -$0 }
        let steady = zip(errors, errors.dropFirst()).allSatisfy { $1 >= $0 - 0.025 && $1 - $0 < tolerance / 2 }
        guard steady, errors[2] >= 0.6 * tolerance, errors[2] - errors[0] >= tolerance / 2 else { return result.verdict }
        return late ? .dragged : .rushed
    }

    /// Keeps only the frames and spectra the next note can still use: an entrance is looked for from half a second
    /// before its onset, and the quiet before it a little earlier.
    private mutating func dropFramesBefore(_ next: Int) {
        guard next < notes.count else { return }
        let keepFrom = notes[next].onset - NoteComparator.earliestEntrance - 0.15
        if let cut = pending.firstIndex(where: { $0.time >= keepFrom }), cut > 0 { pending.removeFirst(cut) }
        if let cut = pendingSpectra.firstIndex(where: { $0.time >= keepFrom }), cut > 0 { pendingSpectra.removeFirst(cut) }
    }
}

/// A point of the sung pitch trace.
public struct TracePoint: Sendable, Equatable, Codable {
    public var time: Double
    /// Fractional MIDI note number.
    public var midi: Double

    public init(time: Double, midi: Double) {
        self.time = time
        self.midi = midi
    }
}
