import ChoirBase
import Dispatch
import Testing

struct LockedTests {
    /// Two threads that each add 100,000 times lose no addition (and, under ThreadSanitizer, race on nothing).
    @Test func everyChangeIsKeptUnderContention() {
        let total = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<100_000 { total.withLock { $0 += 1 } }
        }
        #expect(total.withLock { $0 } == 200_000)
    }
}
