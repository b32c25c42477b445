import Dispatch
import Glibc

/// A thread that can be given up on: a device call on a sound server's plugin may never return once the server
/// has gone, and a session must still end.
public final class StreamThread: @unchecked Sendable {
    private var thread = pthread_t()
    /// Signalled by the thread as it ends, out of its loop (no longer real-time work).
    private let ended = DispatchSemaphore(value: 0)

    /// Starts `body` on a new thread; `role` names it in the error if it cannot start.
    public init(_ role: String, body: @escaping () -> Void) throws(AudioDeviceError) {
        final class Box {
            let body: () -> Void
            init(_ body: @escaping () -> Void) { self.body = body }
        }
        let context = Unmanaged.passRetained(
            Box { [self] in
                body()
                ended.signal()
            }
        ).toOpaque()
        let status = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            throw AudioDeviceError(description: "cannot start the \(role) thread: \(String(cString: strerror(status)))")
        }
    }

    /// Waits for the thread to end.
    public func joinWhenDone() { pthread_join(thread, nil) }

    /// Joins the thread if it finishes within two seconds; otherwise detaches it and returns false: it is stuck in
    /// the device, whose handle and buffers must then be left to it.
    func join() -> Bool {
        guard ended.wait(timeout: .now() + 2) == .success else {
            pthread_detach(thread)
            return false
        }
        pthread_join(thread, nil)
        return true
    }
}

/// Real-time scheduling for audio threads.
enum RealTime {
    /// Starts a thread that runs `body`, asking for real-time priority if `realTime`.
    static func spawn(_ role: String, realTime: Bool, _ body: @escaping () -> Void) throws(AudioDeviceError) -> StreamThread {
        try StreamThread(
            role,
            body: realTime
                ? {
                    promoteCurrentThread()
                    body()
                } : body)
    }

    /// Asks for SCHED_FIFO; without the privilege the thread keeps normal scheduling, which is not an error.
    static func promoteCurrentThread() {
        var parameters = sched_param()
        parameters.sched_priority = 70
        _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
    }
}
