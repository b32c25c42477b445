import ChoirPractice

/// A session that front ends follow through its events and steer from threads of their own: a practice session, or
/// the mix alone (``PlaybackSession``).
public protocol SteeredSession: AnyObject, Sendable {
    /// The score and the mix it plays.
    var resolved: ResolvedPlayback { get }
    /// The notes the cursor follows, on the score's clock: the singer's.
    var notes: [ExpectedNote] { get }
    /// Whether its clock is a device's, moving in real time (a recorded take is judged as fast as it can be).
    var isLive: Bool { get }
    /// Whether it judges the singer, or only plays.
    var judges: Bool { get }
    /// Whether the performance lock holds: only pause and quit are obeyed.
    var locked: Bool { get }
    /// What happens from now on, as it happens, ending with ``SessionEvent/ended(_:)``: each call gives a stream of
    /// its own.
    func events() -> AsyncStream<SessionEvent>
    /// Passes on a singer's command.
    func send(_ command: SessionCommand)
}

extension PracticeSession: SteeredSession {
    public var isLive: Bool { !plan.input.isTake }
    public var judges: Bool { true }
    public var locked: Bool { plan.locked }
}
