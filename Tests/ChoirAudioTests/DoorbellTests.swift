import Foundation
import Synchronization
import Testing

@testable import ChoirAudio

struct DoorbellTests {
    /// Atomics two threads share.
    private final class Shared: Sendable {
        let first = Atomic<Int>(0), second = Atomic<Int>(0), third = Atomic<Int>(0)
    }

    /// Runs `body` on a thread of its own; the semaphore is signalled when it returns.
    private func spawn(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        return done
    }

    /// Waits 100 ms for a ring that does not come: the wait must sleep through it (a wait woken again and again by
    /// something left in the eventfd would spin, and use the processor).
    private func expectsQuietWait(_ bell: Doorbell, sourceLocation: SourceLocation = #_sourceLocation) {
        func cpuTime() -> Int {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return time.tv_sec * 1_000_000_000 + time.tv_nsec
        }
        let start = AudioClock.now(), cpu = cpuTime()
        #expect(!bell.wait(after: bell.count, timeout: 0.1), sourceLocation: sourceLocation)
        #expect(AudioClock.now() - start >= 100_000_000, sourceLocation: sourceLocation)
        let spent = Double(cpuTime() - cpu) / 1e6
        #expect(spent < 10, "the wait used \(spent) ms of processor", sourceLocation: sourceLocation)
    }

    @Test func aSleepingWaiterWakesWithinMillisecondsOfARing() throws {
        let bell = try Doorbell()
        // When it rang, when the waiter woke, and whether it was rung (1).
        let times = Shared()
        let seen = bell.count
        let done = spawn {
            times.third.store(bell.wait(after: seen, timeout: 2) ? 1 : 0, ordering: .releasing)
            times.second.store(AudioClock.now(), ordering: .releasing)
        }
        // Ring only once the waiter is asleep in the wait.
        let deadline = AudioClock.now() + 1_000_000_000
        while bell.waiters == 0 && AudioClock.now() < deadline { usleep(1000) }
        usleep(20_000)
        let rang = AudioClock.now()
        bell.ring()
        #expect(done.wait(timeout: .now() + 3) == .success)
        #expect(times.third.load(ordering: .acquiring) == 1)
        let latency = Double(times.second.load(ordering: .acquiring) - rang) / 1e6
        // Far below the wait's timeout, though these tests run at the lowest priority beside the live ones.
        #expect(latency < 250, "woken \(latency) ms after the ring")
        #expect(bell.wakeUps == 1)
    }

    @Test func ringsWithNoWaiterMakeNoSystemCallAndNoLaterWaitReturnsEarly() throws {
        let bell = try Doorbell()
        let before = bell.count
        for _ in 0..<1000 { bell.ring() }
        #expect(bell.wakeUps == 0)
        #expect(bell.count == before + 1000)
        // A ring since the count the waiter holds: at once.
        let start = AudioClock.now()
        #expect(bell.wait(after: before, timeout: 2))
        #expect(AudioClock.now() - start < 50_000_000)
        // None since the latest count: asleep for the whole timeout, and no ring reported.
        expectsQuietWait(bell)
    }

    @Test func aWakeUpLeavesNothingBehindForTheNextWait() throws {
        let bell = try Doorbell()
        let seen = bell.count
        let done = spawn {
            let deadline = AudioClock.now() + 1_000_000_000
            while bell.waiters == 0 && AudioClock.now() < deadline { usleep(1000) }
            bell.ring()
            // A second write to the eventfd after the waiter has seen the first ring: a stale wake-up.
            bell.ring()
        }
        #expect(bell.wait(after: seen, timeout: 2))
        #expect(done.wait(timeout: .now() + 3) == .success)
        expectsQuietWait(bell)
    }

    /// Waits on `bell` until `handed`; the other thread answers within microseconds, so a wait of over a second
    /// (its timeout is two) slept through a ring: it is counted in `lost`, and the handoffs stop.
    private static func handedOff(_ bell: Doorbell, _ lost: borrowing Atomic<Int>, until handed: () -> Bool) -> Bool {
        let start = AudioClock.now()
        guard bell.wait(timeout: 2, while: { !handed() }), AudioClock.now() - start < 1_000_000_000 else {
            lost.add(1, ordering: .relaxed)
            return false
        }
        return true
    }

    @Test func tenThousandHandoffsLoseNoWakeUp() throws {
        let ping = try Doorbell(), pong = try Doorbell()
        // Handoffs sent, answered, and waits that missed their ring.
        let state = Shared()
        let handoffs = 10_000
        let answering = spawn {
            for i in 1...handoffs {
                if !Self.handedOff(ping, state.third, until: { state.first.load(ordering: .acquiring) >= i }) { return }
                state.second.store(i, ordering: .releasing)
                pong.ring()
            }
        }
        let sending = spawn {
            for i in 1...handoffs {
                state.first.store(i, ordering: .releasing)
                ping.ring()
                if !Self.handedOff(pong, state.third, until: { state.second.load(ordering: .acquiring) >= i }) { return }
            }
        }
        // The watchdog: a hang shows as threads still running.
        #expect(sending.wait(timeout: .now() + 60) == .success)
        #expect(answering.wait(timeout: .now() + 60) == .success)
        #expect(state.third.load(ordering: .relaxed) == 0)
        #expect(state.second.load(ordering: .acquiring) == handoffs)
        // The waits did sleep and were woken by the system call, not only caught the count moving.
        #expect(ping.wakeUps + pong.wakeUps > 0)
    }
}
