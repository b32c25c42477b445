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

    public init(
        notes: [ExpectedNote], options: NoteComparator.Options, gate: LevelGate = LevelGate(), learnsLevel: Bool,
        vibrato: VibratoLearner = VibratoLearner()
    ) {
        self.notes = notes
        self.comparator = NoteComparator(options: options, levelGate: gate.threshold)
        let tracker = Self.detector(for: notes, sampleRate: 48000)
        comparator.halfWindow = Double(tracker.window) / tracker.sampleRate / 2
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

    /// Adds one frame (on the session's clock) and returns the notes it completes.
    public mutating func add(_ frame: PitchFrame) -> ArraySlice<NoteResult> {
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
        return results[first...]
    }

    /// Judges the next note with the pending frames, and learns the singer's vibrato from it. A note with
    /// alternatives (the singer's other line sounding with it) is judged against whichever the sung pitch is
    /// nearer to.
    private mutating func judgeNext() {
        var result = comparator.judge(notes[results.count], frames: pending)
        for alternative in notes[results.count].alternatives {
            let other = comparator.judge(notes[results.count].sung(as: alternative), frames: pending)
            if abs(other.medianCents ?? .infinity) < abs(result.medianCents ?? .infinity) { result = other }
        }
        results.append(result)
        vibrato.learn(from: comparator.body(of: result.note, frames: pending).steady)
        comparator.vibratoRate = vibrato.rate
    }

    /// Keeps only the frames the next note can still use (an entrance looks a little before its onset).
    private mutating func dropFramesBefore(_ next: Int) {
        guard next < notes.count else { return }
        let keepFrom = notes[next].onset - 0.2
        if let cut = pending.firstIndex(where: { $0.time >= keepFrom }), cut > 0 { pending.removeFirst(cut) }
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
