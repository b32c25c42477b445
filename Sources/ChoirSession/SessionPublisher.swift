import ChoirPractice

/// Turns a run's state into the session's events. Each call publishes only what changed since the last: a front
/// end hears each verdict and trace point once, and a position, a pass or a transport state only when it moves,
/// however often the run looks. Called on the session's thread, never a real-time one (publishing takes a lock).
struct SessionPublisher {
    private let broadcaster: EventBroadcaster<SessionEvent, SessionSnapshot>
    private let resolved: ResolvedPlayback
    private let notes: [ExpectedNote]
    private var position: SessionEvent.Position?
    private var transport: SessionEvent.TransportState?
    private var pass = 1
    private var trace = 0
    private var pitch: (sung: Double?, heard: Int?) = (nil, nil)
    private var audio: AudioHealth?
    /// How many verdicts have been published.
    private(set) var published = 0

    /// Publishes to `broadcaster` where `resolved` is, following the singer's `notes`, from a `transport` the
    /// front ends know already, if any.
    init(
        _ broadcaster: EventBroadcaster<SessionEvent, SessionSnapshot>, resolved: ResolvedPlayback, notes: [ExpectedNote],
        transport: SessionEvent.TransportState? = nil
    ) {
        self.broadcaster = broadcaster
        self.resolved = resolved
        self.notes = notes
        self.transport = transport
    }

    /// Publishes what changed: the transport first (a seek is heard before the position it leads to), then where
    /// the music is at score time `time` (before any measure while the music is not `started`), the pass, the pitch
    /// and the trace added, the verdicts (`results`, before they are numbered by pass), and how the devices fare.
    mutating func publish(
        at time: Double, started: Bool = true, transport: SessionEvent.TransportState? = nil, pass: Int, results: [NoteResult] = [],
        trace: [TracePoint] = [], sung: Double? = nil, heard: Int? = nil, audio: AudioHealth? = nil
    ) {
        if let transport, transport != self.transport {
            broadcaster.publish(.transport(transport))
            self.transport = transport
        }
        let position = SessionEvent.Position(at: time, in: resolved, notes: notes, heard: started)
        if position != self.position {
            broadcaster.publish(.position(position))
            self.position = position
        }
        if pass != self.pass {
            broadcaster.publish(.pass(pass))
            self.pass = pass
        }
        if trace.count != self.trace || sung != pitch.sung || heard != pitch.heard {
            broadcaster.publish(.pitch(SessionEvent.Pitch(sung: sung, heard: heard, trace: Array(trace.dropFirst(self.trace)))))
            self.trace = trace.count
            pitch = (sung, heard)
        }
        for result in results.dropFirst(published) { broadcaster.publish(.judged(resolved.numbered(result))) }
        published = max(published, results.count)
        if let audio, audio != self.audio {
            broadcaster.publish(.audio(audio))
            self.audio = audio
        }
    }
}
