import ChoirPractice

/// Where a session is and what it has judged, at one moment.
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
    public var loop: (first: String, last: String)?
    public var mineMuted = false
    public var locked = false
    /// The pass through the music, from 1: a loop or a step back starts another.
    public var pass = 1
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
}
