import Glibc
import Synchronization

/// SIGINT, SIGTERM and SIGHUP, taken by a thread of their own (with `sigwait`) instead of interrupting whichever
/// thread they land on: a command that watches them ends its session in order, restores the terminal, and exits
/// with 128 + the signal's number. Create it before any other thread, which then inherit the blocked signals.
final class SignalWatcher: Sendable {
    private static let watched = [SIGINT, SIGTERM, SIGHUP]
    /// The first signal that arrived (0: none); the kernel hands signals to one process, so one watcher serves it.
    private static let first = Atomic<Int32>(0)

    init() {
        var set = Self.set
        pthread_sigmask(SIG_BLOCK, &set, nil)
        // A terminal that has gone turns writes to it into errors rather than a silent death.
        signal(SIGPIPE, SIG_IGN)
        var thread = pthread_t()
        pthread_create(
            &thread, nil,
            { _ in
                var set = SignalWatcher.set
                while true {
                    var received: Int32 = 0
                    guard sigwait(&set, &received) == 0 else { continue }
                    _ = SignalWatcher.first.compareExchange(expected: 0, desired: received, ordering: .acquiringAndReleasing)
                }
            }, nil)
        pthread_detach(thread)
    }

    /// The signal that asked the command to stop, if one has.
    var received: Int32? {
        let signal = Self.first.load(ordering: .acquiring)
        return signal == 0 ? nil : signal
    }

    private static var set: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in watched { sigaddset(&set, signal) }
        return set
    }
}
