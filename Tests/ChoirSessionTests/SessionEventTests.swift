import ChoirSession
import Foundation
import Synchronization
import Testing

/// A session's events, as every front end gets them: one stream per subscriber, all alike, the report last.
struct SessionEventTests {
    static let example = "Resources/ExamplePieces/amazing_grace.musicxml"
    static let demoTake = "Resources/DemoTakes/amazing_grace_tenor.wav"

    /// The tenor line of the example judged from the bundled demo take (no history, no mix written).
    static func demoSession() throws -> PracticeSession {
        var plan = PracticePlan(playback: PlaybackPlan(score: example, part: "tenor"))
        plan.input = .take(demoTake)
        plan.loudspeakers = false
        plan.history = nil
        return try PracticeSession(plan)
    }

    static func collect(_ events: AsyncStream<SessionEvent>) async -> [SessionEvent] {
        var collected: [SessionEvent] = []
        for await event in events { collected.append(event) }
        return collected
    }

    /// Two subscribers to one session on a take get the same events in the same order: first the state it began
    /// in, last its outcome, whose report holds exactly the notes the `judged` events gave, in their order; and the
    /// events add up to that report's verdicts.
    @Test func twoSubscribersGetTheSameEventsWithTheReportLast() async throws {
        let session = try Self.demoSession()
        let (first, second) = (session.events(), session.events())
        try session.start()
        async let one = Self.collect(first)
        async let other = Self.collect(second)
        let (events, others) = await (one, other)
        #expect(events.count > 100)
        #expect(events.map { "\($0)" } == others.map { "\($0)" })
        guard case .began = events.first, case .ended(let outcome?) = events.last else {
            Issue.record("expected .began first and .ended with an outcome last, got \(events.first!) … \(events.last!)")
            return
        }
        #expect(outcome.ending == .completed)
        #expect(events.dropLast().allSatisfy { if case .ended = $0 { false } else { true } })
        let judged = events.compactMap { if case .judged(let result) = $0 { result } else { nil } }
        #expect(judged.count == session.notes.count && judged.count > 20)
        #expect(judged == outcome.report.results)
        // Some notes of the demo take are wrong on purpose: the events say which, as the report does.
        #expect(judged.contains { !$0.verdict.isCorrect } && judged.contains { $0.verdict.isCorrect })
        var snapshot = SessionSnapshot()
        for event in events { snapshot.apply(event) }
        #expect(snapshot.ended && snapshot.results == outcome.report.results)
        // The positions move forward through the take's measures, to its last.
        let times = events.compactMap { if case .position(let position) = $0 { position.time } else { nil } }
        #expect(times.count > 50 && zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        #expect(session.wait().report.results == outcome.report.results)
    }

    /// A subscriber that reads nothing holds the session up no more than one that reads everything: the session
    /// ends, and its report is there, before the idle one has taken a single event; it then finds them all waiting
    /// (the session's few hundred fit its buffer), the outcome last. One that subscribes after the end gets the state
    /// and the outcome.
    @Test func aSubscriberThatDoesNotReadHoldsNothingUp() async throws {
        let session = try Self.demoSession()
        let idle = session.events()
        try session.start()
        let outcome = session.wait()
        #expect(outcome.ending == .completed && !outcome.report.results.isEmpty)
        let waiting = await Self.collect(idle)
        guard case .began = waiting.first, case .ended(let last?) = waiting.last else {
            Issue.record("expected .began first and .ended last")
            return
        }
        #expect(last.report.results == outcome.report.results)
        let late = await Self.collect(session.events())
        #expect(late.count == 2)
        if case .began(let state) = late.first { #expect(state.ended && state.results == outcome.report.results) }
        if case .ended(let ended?) = late.last { #expect(ended.report.results == outcome.report.results) }
    }

    /// The buffering policy: the publisher never waits. A subscriber that falls more than the capacity behind loses
    /// the oldest events, which are counted, and still gets the newest ones and the last; one that keeps up loses
    /// none.
    @Test func aSlowSubscriberLosesTheOldestEventsNotTheLast() async {
        let broadcaster = EventBroadcaster<Int, Int>(0, capacity: 8, apply: { $0 += $1 }, catchUp: { -$0 })
        let slow = broadcaster.subscribe()
        let keeping = broadcaster.subscribe()
        var kept: [Int] = []
        var reading = keeping.makeAsyncIterator()
        for event in 1...100 {
            broadcaster.publish(event)
            kept.append(await reading.next()!)
        }
        broadcaster.finish(with: 1000)
        while let event = await reading.next() { kept.append(event) }
        // The catch-up (the sum so far, 0, negated) came first for both.
        #expect(kept == [0] + Array(1...100) + [1000])
        let got = await Self.collectInts(slow)
        #expect(got == Array(94...100) + [1000])
        #expect(broadcaster.dropped == 102 - 8)
        // After the end: the catch-up and the last event.
        #expect(await Self.collectInts(broadcaster.subscribe()) == [-(5050 + 1000), 1000])
    }

    /// Subscribers' tasks cancelled while events arrive end their streams, and the publisher goes on: neither waits
    /// on the other. With one lock for the state and for handing events over, a `choir view` quitting as an event
    /// arrived deadlocked: cancelling took the task's lock and then the broadcaster's, and publishing the reverse.
    @Test func subscribersCancelledWhileEventsArriveNeverHoldUpThePublisher() async throws {
        let broadcaster = EventBroadcaster<Int, Int>(0, apply: { $0 += $1 }, catchUp: { -$0 })
        let stop = Atomic<Bool>(false), published = Atomic<Int>(0), cancelled = Atomic<Int>(0)
        // Bursts with a pause between them: locks are not fair, and a publisher that never lets go of `delivery`
        // keeps a subscriber out of it for as long as the system likes (a minute, in a loaded CI run).
        let publisher = Thread {
            while !stop.load(ordering: .acquiring) {
                for _ in 0..<100 { broadcaster.publish(1) }
                published.add(100, ordering: .releasing)
                Thread.sleep(forTimeInterval: 0.000_1)
            }
        }
        publisher.start()
        defer { stop.store(true, ordering: .releasing) }
        // The subscribers' tasks run on a thread of their own: the test run's cooperative pool (one thread a core)
        // can be held for minutes by the tests beside this one, which left them no turn at all in a CI run.
        let executor = QueueExecutor()
        Task(executorPreference: executor) {
            for _ in 0..<2000 {
                let reader = Task(executorPreference: executor) { for await _ in broadcaster.subscribe() {} }
                await Task.yield()
                reader.cancel()
                await reader.value
                cancelled.add(1, ordering: .releasing)
            }
        }
        // A deadlock stops both counts; waiting on the tasks instead would hang the test run.
        let deadline = ContinuousClock.now + .seconds(60)
        while cancelled.load(ordering: .acquiring) < 2000 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(cancelled.load(ordering: .acquiring) == 2000, "\(published.load(ordering: .acquiring)) events published")
    }

    static func collectInts(_ stream: AsyncStream<Int>) async -> [Int] {
        var collected: [Int] = []
        for await value in stream { collected.append(value) }
        return collected
    }
}

extension SessionEventTests {
    /// A session's ending names the failure that ended it, and no other ending names one.
    @Test func onlyAFailedEndingHasAFailure() {
        let error = SessionError(.audio, "capture: the device was unplugged")
        #expect(PracticeSession.Ending.failed(error).failure == error)
        for ending in [PracticeSession.Ending.completed, .quit, .cancelled] { #expect(ending.failure == nil) }
    }
}

/// Runs tasks on a serial dispatch queue, whose thread is not the cooperative pool's.
final class QueueExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "SessionEventTests.QueueExecutor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
