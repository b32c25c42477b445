import ChoirBase
import Synchronization

/// What front ends ask of a running session from threads of their own: commands, kept in the order sent, and a
/// cancel. The session's thread takes them between hops, so that a command never waits for the judge and the judge
/// never waits for a front end; the lock is held only to append or take, and never by a real-time thread.
final class SessionInbox: Sendable {
    private let commands = Locked<[SessionCommand]>([])
    private let cancelled = Atomic<Bool>(false)

    /// Queues `command` for the session's thread.
    func send(_ command: SessionCommand) {
        commands.withLock { $0.append(command) }
    }

    /// The commands sent since the last call, oldest first.
    func take() -> [SessionCommand] {
        commands.withLock { commands in
            defer { commands.removeAll() }
            return commands
        }
    }

    /// Asks the session to end as sung so far.
    func cancel() { cancelled.store(true, ordering: .releasing) }

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
}
