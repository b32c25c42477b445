import Foundation
import Glibc

/// One client's socket, non-blocking, read and written against deadlines. Its wake pipe lets another thread
/// interrupt a wait at once: the server stopping, or a WebSocket message queued for it.
final class ClientSocket: @unchecked Sendable {
    let descriptor: Int32
    private let wake: WakePipe
    private let lock = NSLock()
    private var open = true
    /// Since when (on ``Clock``) the connection has waited for a request's head, nil while one is answered.
    private var waitingSince: Int?
    private var yielded = false

    /// What a wait or a read came to.
    enum Outcome: Equatable {
        /// Bytes were read (or the socket can take more).
        case ready
        /// The client closed its side, or the connection failed.
        case closed
        case timedOut
        /// The wake descriptor was signalled.
        case woken
    }

    /// Takes `descriptor` from `accept`, making it non-blocking.
    init?(accepted descriptor: Int32) {
        guard let wake = WakePipe() else { return nil }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        self.descriptor = descriptor
        self.wake = wake
        var one: Int32 = 1
        // Small messages (a WebSocket's state, 60 a second) go out at once rather than waiting for an ACK.
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Interrupts the socket's current or next wait; harmless once it is closed.
    func wakeUp() {
        lock.withLock {
            guard open else { return }
            wake.signal()
        }
    }

    /// Marks the connection as waiting for a request's head: from now on it yields its place to a newcomer
    /// (``yieldPlace()``).
    func awaitRequest() { lock.withLock { waitingSince = waitingSince ?? Clock.now() } }

    /// Marks a request's head as read, so that its answer is not cut short; false if the connection has yielded
    /// its place already.
    func beginAnswer() -> Bool {
        lock.withLock {
            waitingSince = nil
            return !yielded
        }
    }

    /// Since when the connection has waited for a head; nil while it answers one, or once it has yielded.
    var waiting: Int? { lock.withLock { yielded ? nil : waitingSince } }

    /// Gives up the connection's place, if it is still waiting for a head: its wait ends at once, and it closes.
    func yieldPlace() -> Bool {
        lock.withLock {
            guard open, waitingSince != nil, !yielded else { return false }
            yielded = true
            wake.signal()
            return true
        }
    }

    /// Closes the socket; a wake from then on does nothing.
    func close() {
        lock.withLock {
            guard open else { return }
            open = false
            wake.close()
            Glibc.close(descriptor)
        }
    }

    /// Waits until the socket is readable (and writable, with `writing`), the wake descriptor is signalled, or
    /// `deadline` (on ``Clock``) passes.
    func wait(reading: Bool = true, writing: Bool = false, until deadline: Int) -> (outcome: Outcome, readable: Bool, writable: Bool) {
        while true {
            let left = deadline - Clock.now()
            guard left > 0 else { return (.timedOut, false, false) }
            var events = Int16(0)
            if reading { events |= Int16(POLLIN) }
            if writing { events |= Int16(POLLOUT) }
            var fds = [pollfd(fd: descriptor, events: events, revents: 0), pollfd(fd: wake.reading, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, Int32(min(left / 1_000_000 + 1, 60_000)))
            if ready < 0 && errno == EINTR { continue }
            guard ready >= 0 else { return (.closed, false, false) }
            if ready == 0 { continue }
            if fds[1].revents != 0 {
                wake.drain()
                return (.woken, fds[0].revents & Int16(POLLIN) != 0, fds[0].revents & Int16(POLLOUT) != 0)
            }
            let failed = fds[0].revents & Int16(POLLERR | POLLNVAL) != 0
            let hungUp = fds[0].revents & Int16(POLLHUP) != 0 && fds[0].revents & Int16(POLLIN) == 0
            if failed || hungUp { return (.closed, false, false) }
            return (.ready, fds[0].revents & Int16(POLLIN) != 0, fds[0].revents & Int16(POLLOUT) != 0)
        }
    }

    /// Appends what the socket has (up to `most` bytes) to `buffer`, without waiting: `.ready` if it read any,
    /// `.timedOut` if there was nothing yet, `.closed` at the end of the stream or on an error.
    func readAvailable(into buffer: inout [UInt8], most: Int = 16384) -> Outcome {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: most))
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + start, most, 0) }
        buffer.removeLast(most - max(count, 0))
        if count > 0 { return .ready }
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return .timedOut }
        return .closed
    }

    /// Reads at least one byte into `buffer` by `deadline`; `.woken` if interrupted first.
    func read(into buffer: inout [UInt8], until deadline: Int) -> Outcome {
        while true {
            let outcome = readAvailable(into: &buffer)
            if outcome != .timedOut { return outcome }
            let waited = wait(until: deadline)
            if waited.outcome != .ready { return waited.outcome }
        }
    }

    /// Writes as much of `bytes[from...]` as the socket takes now; returns how many, or nil if it failed.
    func writeAvailable(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard !bytes.isEmpty else { return 0 }
        let count = send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        if count >= 0 { return count }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : nil
    }

    /// Sends what the socket takes now, from any thread: the bytes sent, 0 if it takes none, nil once the socket is
    /// closed or failed (the close cannot come between the check and the write, and so hit a descriptor reused).
    func writeIfOpen(_ bytes: UnsafeRawBufferPointer) -> Int? {
        lock.withLock { open ? writeAvailable(bytes) : nil }
    }

    /// Writes all of `bytes` by `deadline`; false if the client did not take them in time, went away, or the
    /// server is stopping (`interruptible`).
    func write(_ bytes: [UInt8], until deadline: Int, interruptible: () -> Bool) -> Bool {
        var sent = 0
        while sent < bytes.count {
            guard let count = bytes.withUnsafeBytes({ writeAvailable(UnsafeRawBufferPointer(rebasing: $0[sent...])) }) else { return false }
            sent += count
            if sent == bytes.count { break }
            let waited = wait(reading: false, writing: true, until: deadline)
            if waited.outcome == .woken && interruptible() { return false }
            if waited.outcome == .timedOut || waited.outcome == .closed { return false }
        }
        return true
    }

    /// Stops sending, then reads and drops what the client is still sending, for up to half a second or 256 kB,
    /// so that the answer already written reaches it rather than being lost to a reset; then closes.
    func closeLingering() {
        shutdown(descriptor, Int32(SHUT_WR))
        let deadline = Clock.now() + 500_000_000
        var drained = 0
        var scratch: [UInt8] = []
        while drained < 256 * 1024 {
            scratch.removeAll(keepingCapacity: true)
            let outcome = read(into: &scratch, until: deadline)
            guard outcome == .ready else { break }
            drained += scratch.count
        }
        close()
    }
}

/// CLOCK_MONOTONIC in nanoseconds, for deadlines.
enum Clock {
    static func now() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }

    /// The moment `seconds` from now.
    static func after(_ seconds: Double) -> Int { now() + Int(seconds * 1e9) }
}

/// A pipe whose write end wakes a `poll` on its read end; both ends non-blocking and closed on exec.
struct WakePipe {
    let reading: Int32
    let writing: Int32

    init?() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        (reading, writing) = (ends[0], ends[1])
    }

    /// Wakes the poller; a pipe already full wakes it all the same.
    func signal() {
        var byte: UInt8 = 1
        _ = Glibc.write(writing, &byte, 1)
    }

    /// Empties the pipe, so that the next poll waits again.
    func drain() {
        var scratch = [UInt8](repeating: 0, count: 64)
        while Glibc.read(reading, &scratch, 64) > 0 {}
    }

    func close() {
        Glibc.close(reading)
        Glibc.close(writing)
    }
}
