import ChoirPractice

/// What happens in a session, as a front end hears it from ``SteeredSession/events()``. A stream starts with
/// ``began(_:)`` and ends with ``ended(_:)``; in between come only the changes.
public enum SessionEvent: Sendable {
    /// Everything so far at once: the first event of every stream (for a stream opened late, what it missed).
    case began(SessionSnapshot)
    /// The music heard has moved (or been moved: a seek's position comes once the transport is there).
    case position(Position)
    /// The tracker decided the pitch sung (live practice), or a recorded take's trace came further.
    case pitch(Pitch)
    /// A note has been judged; its pass says which time through the music it was sung in.
    case judged(NoteResult)
    /// The singer changed how the music plays: paused, the tempo, a loop, their line muted.
    case transport(TransportState)
    /// Another pass through the music has begun: the next time round a `--loop` or a looped phrase, or a step back.
    case pass(Int)
    /// How the devices are faring (live practice only).
    case audio(AudioHealth)
    /// The session has ended, with a practice session's outcome (its report); nothing follows.
    case ended(PracticeSession.Outcome?)

    /// Where the music being heard is.
    public struct Position: Sendable, Equatable {
        /// Seconds from the range's first beat (negative in the count-in), and the measure and beat there ("-"
        /// until the music is heard).
        public var time: Double
        public var measure: String
        public var beat: Int
        /// The singer's note sounding now, if any, and the next one.
        public var current: ExpectedNote?
        public var next: ExpectedNote?
    }

    /// A decided pitch frame.
    public struct Pitch: Sendable, Equatable {
        /// The pitch sung as a fractional MIDI number, while the singer is singing.
        public var sung: Double?
        /// When the newest sample behind it reached the microphone's converter, in monotonic nanoseconds (live
        /// practice only): a front end measures its own delay from it.
        public var heard: Int?
        /// The sung trace added since the last pitch event, on the score's clock.
        public var trace: [TracePoint]
    }

    /// The transport as the singer has set it.
    public struct TransportState: Sendable, Equatable {
        public var paused: Bool
        /// Quarter notes per minute at the start of the range, at the session's speed, and that speed in percent.
        public var tempo: Double
        public var tempoPercent: Int
        /// The looped phrase's first and last measures, by printed number.
        public var loop: MeasureSpan?
        public var mineMuted: Bool
    }

    /// Measures by printed number, first to last.
    public struct MeasureSpan: Sendable, Equatable {
        public var first: String
        public var last: String
    }
}

extension SessionEvent.Position {
    /// The position at score time `time` of `resolved`, following `notes`; with `heard` false, before the music is
    /// heard (no measure yet).
    init(at time: Double, in resolved: ResolvedPlayback, notes: [ExpectedNote], heard: Bool = true) {
        self.time = time
        (measure, beat) = heard ? resolved.position(at: time) : ("-", 0)
        current = notes.last { $0.onset <= time && $0.end > time }
        next = notes.first { $0.onset > time }
    }
}
