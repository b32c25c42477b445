import Glibc

/// A value shared between ordinary threads (never a real-time one), behind a pthread mutex.
///
/// `Synchronization.Mutex` on Linux hands a contended lock over through a priority-inheriting futex: the kernel
/// makes the waiter the owner, with no atomic operation in the waiter's code. ThreadSanitizer cannot see that
/// hand-over and reports the value's next access as a race. It does see `pthread_mutex_lock`, so the state the
/// sanitizer checks (a session's commands, snapshots and outcome) lives behind this lock instead.
public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
