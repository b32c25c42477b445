import ChoirSession
import Glibc
import Synchronization

/// SIGINT, SIGTERM and SIGHUP, taken by a thread of their own (with `sigwait`) instead of interrupting whichever
/// thread they land on: a command that watches them ends its session in order, restores the terminal, and exits
/// with 128 + the signal's number; in a command that does not, they end choir as they would have.
///
/// ``install()`` blocks them before any other thread starts (every thread inherits that), the asynchronous
/// runtime's included; a command watches them by making a watcher.
public final class SignalWatcher: Sendable {
    private static let watched = [SIGINT, SIGTERM, SIGHUP]
    /// The first signal that arrived (0: none); the kernel hands signals to one process, so one watcher serves it.
    private static let first = Atomic<Int32>(0)
    /// Whether a command watches the signals.
    private static let watching = Atomic<Bool>(false)
    /// The first signal, for those waiting for it.
    private static let arrival = EventBroadcaster<Int32, Int32>(0, capacity: 2, apply: { $0 = $1 }, catchUp: { $0 })

    /// Blocks the signals and starts the thread that takes them. Called first, on the main thread, before any other
    /// thread starts.
    public static func install() {
        var set = Self.set
        pthread_sigmask(SIG_BLOCK, &set, nil)
        var thread = pthread_t()
        pthread_create(
            &thread, nil,
            { _ in
                var set = SignalWatcher.set
                while true {
                    var received: Int32 = 0
                    guard sigwait(&set, &received) == 0 else { continue }
                    guard SignalWatcher.watching.load(ordering: .acquiring) else {
                        // Nobody watches: the signal ends choir, as it would have without this thread.
                        signal(received, SIG_DFL)
                        var only = sigset_t()
                        sigemptyset(&only)
                        sigaddset(&only, received)
                        pthread_sigmask(SIG_UNBLOCK, &only, nil)
                        raise(received)
                        continue
                    }
                    if SignalWatcher.first.compareExchange(expected: 0, desired: received, ordering: .acquiringAndReleasing).exchanged {
                        SignalWatcher.arrival.finish(with: received)
                    }
                }
            }, nil)
        pthread_detach(thread)
    }

    /// Watches the signals from now on.
    public init() {
        Self.watching.store(true, ordering: .releasing)
        // A terminal that has gone turns writes to it into errors rather than a silent death.
        signal(SIGPIPE, SIG_IGN)
    }

    /// The signal that asked the command to stop, if one has.
    public var received: Int32? {
        let signal = Self.first.load(ordering: .acquiring)
        return signal == 0 ? nil : signal
    }

    /// The first signal as it arrives (after a 0, or with it if it already has), then the stream ends.
    public func arrivals() -> AsyncStream<Int32> { Self.arrival.subscribe() }

    private static var set: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in watched { sigaddset(&set, signal) }
        return set
    }
}
