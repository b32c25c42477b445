import CEventFD
import Glibc
import Synchronization

/// Wakes a thread that waits for a real-time one: a stream's thread rings after each period it has moved, and a
/// thread waiting for that period sleeps until then instead of polling.
///
/// A real-time thread may not take a lock, so a mutex and condition are out. Ringing costs two atomic operations;
/// only while a waiter sleeps does it also write 8 bytes to an `eventfd` made non-blocking, a system call that
/// never blocks and takes no user-space lock (the kernel adds to a counter and wakes the `poll` on it). The
/// descriptor is made at construction; nothing is allocated after.
///
/// Meant for one waiting thread at a time (the consumer of a stream's ring, or the one starting it); a second one
/// waiting at once is woken, at the latest, by the next ring.
public final class Doorbell: @unchecked Sendable {
    private let descriptor: Int32
    /// Rings so far.
    private let rings = Atomic<Int>(0)
    /// Threads asleep in (or about to sleep in) ``wait(after:timeout:)``.
    private let sleepers = Atomic<Int>(0)
    private let wakeUpCount = Atomic<Int>(0)

    public init() throws(AudioDeviceError) {
        descriptor = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard descriptor >= 0 else {
            throw AudioDeviceError(description: "cannot make an eventfd: \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(descriptor) }

    /// How many times the bell has rung: read it before checking for what a ring announces, then wait with it, so
    /// that a ring in between is not missed.
    public var count: Int { rings.load(ordering: .acquiring) }

    /// Threads in ``wait(after:timeout:)`` now.
    var waiters: Int { sleepers.load(ordering: .acquiring) }

    /// Rings that found a waiter asleep and made the system call; the others cost two atomic operations.
    public var wakeUps: Int { wakeUpCount.load(ordering: .relaxed) }

    /// Rings: called after publishing what the ring announces. Never blocks, locks or allocates.
    public func ring() {
        // Sequentially consistent on both sides (the waiter stores to `sleepers`, then loads `rings`; this thread
        // the reverse): release and acquire alone would let each load miss the other's store, and a waiter sleep
        // through the ring.
        rings.wrappingAdd(1, ordering: .sequentiallyConsistent)
        guard sleepers.load(ordering: .sequentiallyConsistent) > 0 else { return }
        var one: UInt64 = 1
        _ = write(descriptor, &one, 8)
        wakeUpCount.add(1, ordering: .relaxed)
    }

    /// Waits until the bell has rung since it had rung `seen` times (see ``count``), or until `timeout` seconds
    /// have passed; returns whether it rang. A ring that found no waiter never makes a later wait return early.
    @discardableResult
    public func wait(after seen: Int, timeout: Double) -> Bool {
        if rings.load(ordering: .acquiring) != seen { return true }
        let deadline = AudioClock.now() + Int(timeout * 1e9)
        sleepers.add(1, ordering: .sequentiallyConsistent)
        defer { sleepers.subtract(1, ordering: .sequentiallyConsistent) }
        while rings.load(ordering: .sequentiallyConsistent) == seen {
            let left = deadline - AudioClock.now()
            guard left > 0 else { return false }
            var bell = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&bell, 1, Int32(min((left + 999_999) / 1_000_000, 60_000)))
            // Empties the counter, so that the next poll sleeps: a write that came after its waiter had already
            // seen the ring costs one more turn of this loop, never a return.
            var drained: UInt64 = 0
            _ = read(descriptor, &drained, 8)
        }
        return true
    }

    /// Waits while `condition` holds, waking at each ring to check it again, for at most `timeout` seconds;
    /// returns whether it stopped holding.
    @discardableResult
    public func wait(timeout: Double, while condition: () -> Bool) -> Bool {
        let deadline = AudioClock.now() + Int(timeout * 1e9)
        while true {
            let seen = count
            guard condition() else { return true }
            let left = deadline - AudioClock.now()
            guard left > 0 else { return false }
            wait(after: seen, timeout: Double(left) / 1e9)
        }
    }
}
