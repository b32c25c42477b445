import ChoirPitch
import Glibc

/// Judges a session whose playback is steered while it runs: paused, sped up or slowed down, moved to another
/// measure, looped.
///
/// Pitch frames arrive on the session's clock (seconds of mix played). Each stretch of steady playback, a
/// *segment*, gets its own ``PracticeJudge`` over the notes from where it starts, placed on the session's
/// clock at its speed, so that entrances and vibrato are judged in real seconds. Results and the sung trace
/// come out on the score's clock (seconds from the range's first beat), each note once per time it was sung:
/// playback that moves back (a loop, a step back) starts another pass.
public struct SteeredJudge: Sendable {
    public let notes: [ExpectedNote]
    public let options: NoteComparator.Options
    public private(set) var results: [NoteResult] = []
    public private(set) var trace: [TracePoint] = []
    private var gate = LevelGate()
    /// The singer's vibrato, carried from one segment's judge to the next.
    private var vibrato = VibratoLearner()
    private var current: (judge: PracticeJudge, segment: Segment)?
    private var upcoming: [Segment] = []
    /// Frames whose time is before this were heard before the latest segment began, and are dropped.
    private var judgedSince: Int = 0
    private var tracedSince: Int = 0
    /// The pass being sung, from 1, and the furthest score time heard in it.
    public private(set) var pass = 1
    private var furthest = -Double.infinity

    /// From `time` on the session's clock, the score moves from `scoreTime` at `speed` (0: paused).
    public struct Segment: Sendable, Equatable {
        public var time: Double
        public var scoreTime: Double
        public var speed: Double

        public init(time: Double, scoreTime: Double, speed: Double) {
            self.time = time
            self.scoreTime = scoreTime
            self.speed = speed
        }

        /// The score time heard at session time `time`.
        public func scoreTime(at time: Double) -> Double { scoreTime + (time - self.time) * speed }
        /// The session time at which score time `scoreTime` is heard.
        func sessionTime(of scoreTime: Double) -> Double { time + (scoreTime - self.scoreTime) / speed }
    }

    public init(notes: [ExpectedNote], options: NoteComparator.Options, start: Segment = Segment(time: 0, scoreTime: 0, speed: 1)) {
        self.notes = notes
        self.options = options
        upcoming = [start]
    }

    /// Announces a change of playback; it takes effect for frames from `segment.time` on.
    public mutating func follow(_ segment: Segment) { upcoming.append(segment) }

    /// The segment that frames at `time` belong to, as far as announced.
    public func segment(at time: Double) -> Segment? {
        upcoming.last { $0.time <= time } ?? current?.segment
    }

    /// Whether a frame is the singer singing, as far as the judge can tell yet.
    public func isSung(_ frame: PitchFrame) -> Bool {
        var comparator = NoteComparator(options: options, levelGate: gate.threshold)
        comparator.echoLeft = gate.echoLeft.share
        return comparator.isSung(frame)
    }

    /// The singer's pitch in `frame`, as a fractional MIDI number, read as the judge reads it for the note sung
    /// then (or the next one); nil when the frame is not the singer singing, or lies further from that note than
    /// anyone sings it (a click, the loudspeakers).
    public func sungPitch(_ frame: PitchFrame) -> Double? {
        guard let segment = segment(at: frame.time) else { return nil }
        let scoreTime = segment.scoreTime(at: frame.time)
        guard
            let note = notes.last(where: { $0.onset <= scoreTime && scoreTime < $0.end })
                ?? notes.first(where: { $0.onset > scoreTime }) ?? notes.last
        else { return nil }
        let read = NoteComparator.reading(frame, for: note)
        guard read.frequency > 0, isSung(read) else { return nil }
        return PitchMath.midi(hertz: read.frequency)
    }

    /// Adds a frame on the session's clock; returns how many results were added.
    @discardableResult
    public mutating func add(_ frame: PitchFrame) -> Int {
        let before = results.count
        while let next = upcoming.first, next.time <= frame.time {
            upcoming.removeFirst()
            begin(next)
        }
        guard current != nil else { return 0 }
        furthest = max(furthest, current!.segment.scoreTime(at: frame.time))
        gate.add(frame, resting: current.map { ExpectedNote.isRest(at: frame.time, in: $0.judge.notes) } ?? true)
        _ = current!.judge.add(frame)
        collect()
        return results.count - before
    }

    /// Judges what was sung of the notes that have ended, when the session stops.
    public mutating func finish(at time: Double) {
        close(at: time)
    }

    private mutating func begin(_ segment: Segment) {
        close(at: segment.time)
        // Going back starts a pass, unless nothing was judged in this one yet.
        if segment.scoreTime < furthest - 0.05, results.last?.pass == pass {
            pass += 1
            furthest = -Double.infinity
        }
        guard segment.speed > 0 else { return }
        // Notes already begun when playback moved here are not judged: the singer did not get to start them.
        let placed = notes.filter { $0.onset >= segment.scoreTime - 0.02 }.map { note -> ExpectedNote in
            var moved = note
            moved.onset = segment.sessionTime(of: note.onset)
            moved.duration = note.duration / segment.speed
            return moved
        }
        var judge = PracticeJudge(notes: placed, options: options, gate: gate, learnsLevel: true, vibrato: vibrato)
        judge.comparator.levelGate = gate.threshold
        judge.comparator.echoLeft = gate.echoLeft.share
        current = (judge, segment)
        judgedSince = 0
        tracedSince = 0
    }

    private mutating func close(at time: Double) {
        guard current != nil else { return }
        _ = current!.judge.finish(endingBy: time)
        collect()
        vibrato = current!.judge.vibrato
        current = nil
    }

    /// Moves the judge's new results and trace onto the score's clock.
    private mutating func collect() {
        guard let (judge, segment) = current else { return }
        for result in judge.results[judgedSince...] {
            var onScore = result
            // On the score's clock, with the pitch and line the singer was judged against.
            onScore.note = notes[result.note.index]
            onScore.note.midi = result.note.midi
            onScore.note.line = result.note.line
            onScore.pass = pass
            results.append(onScore)
        }
        judgedSince = judge.results.count
        for point in judge.trace[tracedSince...] {
            trace.append(TracePoint(time: segment.scoreTime(at: point.time), midi: point.midi))
        }
        tracedSince = judge.trace.count
    }
}
