import ChoirBase
import ChoirPractice

/// Where a session is and what it has judged, at one moment: what its events (``SessionEvent``) add up to.
public struct SessionSnapshot: Sendable {
    /// Seconds from the range's first beat (negative in the count-in), and the measure and beat there ("-" until
    /// the music is heard).
    public var time = 0.0
    public var measure = "-"
    public var beat = 0
    /// Quarter notes per minute at the start of the range, at the session's speed, and that speed in percent.
    public var tempo = 0.0
    public var tempoPercent = 100
    public var paused = false
    /// The looped phrase's first and last measures, by printed number.
    public var loop: SessionEvent.MeasureSpan?
    public var mineMuted = false
    public var locked = false
    /// The pass through the music, from 1: each time round a `--loop`, and a loop of a phrase or a step back, start
    /// another; and how many times the range is played.
    public var pass = 1
    public var passes = 1
    /// The singer's note sounding now, if any, and the next one.
    public var current: ExpectedNote?
    public var next: ExpectedNote?
    /// The latest sung pitch as a fractional MIDI number, while the singer is singing.
    public var sung: Double?
    /// When the newest sample behind the latest decided pitch reached the microphone's converter, in monotonic
    /// nanoseconds (live practice only): a front end measures its own delay from it.
    public var heard: Int?
    /// Seconds by which the judge's frames follow the sound, where another tracker than the needle's judges (the
    /// learned one, live): its verdicts come that much later than the needle moves.
    public var judgeDelay: Double?
    /// The sung trace of the last ten seconds, on the score's clock.
    public var trace: [TracePoint] = []
    /// Every verdict so far, in the order given.
    public var results: [NoteResult] = []
    /// How the devices are faring (live practice only).
    public var audio: AudioHealth?
    /// Whether the session has ended.
    public var ended = false

    /// The moment before anything has been played.
    public init() {}

    /// What differs from playing on, in the words every front end shows: the time round a `--loop`, paused, a loop,
    /// the singer's line muted, the performance lock.
    public var flags: [String] {
        var flags: [String] = []
        if passes > 1 { flags.append("pass \(pass) of \(passes)") }
        if paused { flags.append("paused") }
        if let loop { flags.append("loop mm. \(loop.first)–\(loop.last)") }
        if mineMuted { flags.append("my part muted") }
        if locked { flags.append("locked") }
        return flags
    }

    /// The running accuracy over every note judged so far (each pass's), in the words every front end shows:
    /// "accuracy 93% (26 of 28 notes)", or "accuracy –" before the first verdict; where another tracker than the
    /// needle's judges, how far the verdicts follow it: ", judged 0.24 s behind the needle".
    public var accuracy: String {
        let behind = judgeDelay.map { String(printf: ", judged %.2f s behind the needle", $0) } ?? ""
        guard let percentCorrect else { return "accuracy –" + behind }
        return "accuracy \(percentCorrect)% (\(correct) of \(results.count) notes)" + behind
    }

    /// The latest verdict on each of the singer's notes judged so far, by the note's index: a note sung again in a
    /// later pass shows how it went last.
    public var verdicts: [Int: Verdict] {
        var verdicts: [Int: Verdict] = [:]
        for result in results { verdicts[result.note.index] = result.verdict }
        return verdicts
    }

    /// How many of the verdicts so far are right.
    public var correct: Int { results.count { $0.verdict.isCorrect } }

    /// The running accuracy in whole percent, nil before the first verdict.
    public var percentCorrect: Int? {
        results.isEmpty ? nil : Int((100 * Double(correct) / Double(results.count)).rounded())
    }

    /// Takes in what `event` says has happened.
    public mutating func apply(_ event: SessionEvent) {
        switch event {
        case .began(let snapshot): self = snapshot
        case .position(let position):
            (time, measure, beat, current, next) = (position.time, position.measure, position.beat, position.current, position.next)
            trimTrace()
        case .pitch(let pitch):
            sung = pitch.sung
            heard = pitch.heard ?? heard
            trace += pitch.trace
            trimTrace()
        case .judged(let result): results.append(result)
        case .transport(let state):
            (paused, tempo, tempoPercent, loop, mineMuted) = (state.paused, state.tempo, state.tempoPercent, state.loop, state.mineMuted)
        case .pass(let pass): self.pass = pass
        case .audio(let audio): self.audio = audio
        case .ended: ended = true
        }
    }

    /// The position part of the snapshot, as an event would give it.
    var position: SessionEvent.Position { .init(time: time, measure: measure, beat: beat, current: current, next: next) }
    /// The transport part of the snapshot, as an event would give it.
    var transport: SessionEvent.TransportState {
        .init(paused: paused, tempo: tempo, tempoPercent: tempoPercent, loop: loop, mineMuted: mineMuted)
    }

    /// Keeps the last ten seconds of the trace (at most 400 points).
    private mutating func trimTrace() {
        guard let first = trace.firstIndex(where: { $0.time >= time - 10 }) else { return trace.removeAll() }
        if first > 0 || trace.count > 400 { trace = Array(trace[max(first, trace.count - 400)...]) }
    }
}

extension EventBroadcaster where Event == SessionEvent, State == SessionSnapshot {
    /// A session's broadcaster, starting from `snapshot`.
    convenience init(_ snapshot: SessionSnapshot) {
        self.init(snapshot, apply: { $0.apply($1) }, catchUp: { .began($0) })
    }
}
