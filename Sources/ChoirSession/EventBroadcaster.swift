import ChoirBase

/// One publisher's events handed to any number of subscribers, each on an `AsyncStream` of its own, in the order
/// they were published.
///
/// The broadcaster keeps a summary of what has happened (`State`, folded from every event with `apply`): a
/// subscriber's stream starts with `catchUp(state)`, so that one that joins late (a second browser tab) misses
/// nothing it needs to draw, and a stream opened after ``finish(with:)`` gets the catch-up and the last event, then
/// ends.
///
/// Buffering: the publisher never waits for a subscriber. Each stream holds at most `capacity` events its
/// subscriber has not taken yet (`.bufferingNewest`); one that falls further behind loses the oldest of them, which
/// ``dropped`` counts. The last event is the newest, so it always arrives, and what a session's final event carries
/// (the report) stands whole on its own. Publishing takes a lock for as long as it takes to fold the event and
/// queue it on every stream: call it from an ordinary thread, never a real-time one.
///
/// Two locks, so that no stream is handed an event under the lock its termination handler takes: a subscriber's
/// task cancelled runs that handler holding the task's own lock, and handing an event to a waiting task takes the
/// task's lock, so one lock for both deadlocked (a `choir view` hung once so, quitting as an event arrived).
/// `delivery` keeps events in order across publishers and after a subscriber's catch-up; `shared` guards the
/// state and the list of streams, and is all a termination handler takes.
public final class EventBroadcaster<Event: Sendable, State: Sendable>: Sendable {
    private struct Shared {
        var state: State
        var subscribers: [Int: AsyncStream<Event>.Continuation] = [:]
        var next = 0
        /// The last event, once published.
        var last: Event?
        var dropped = 0
    }

    private let shared: Locked<Shared>
    private let delivery = Locked(())
    private let capacity: Int
    private let apply: @Sendable (inout State, Event) -> Void
    private let catchUp: @Sendable (State) -> Event

    /// Starts from `state`; each stream buffers up to `capacity` events.
    public init(
        _ state: State, capacity: Int = 4096, apply: @escaping @Sendable (inout State, Event) -> Void,
        catchUp: @escaping @Sendable (State) -> Event
    ) {
        precondition(capacity > 0, "a stream must hold at least one event")
        shared = Locked(Shared(state: state))
        self.capacity = capacity
        self.apply = apply
        self.catchUp = catchUp
    }

    /// A stream of every event from now on, after one that catches up with those before.
    public func subscribe() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(capacity))
        delivery.withLock { _ in
            let (state, last) = shared.withLock { shared in
                if shared.last == nil {
                    let id = shared.next
                    shared.next += 1
                    shared.subscribers[id] = continuation
                    continuation.onTermination = { [weak self] _ in
                        _ = self?.shared.withLock { $0.subscribers.removeValue(forKey: id) }
                    }
                }
                return (shared.state, shared.last)
            }
            continuation.yield(catchUp(state))
            if let last {
                continuation.yield(last)
                continuation.finish()
            }
        }
        return stream
    }

    /// Hands `event` to every subscriber.
    public func publish(_ event: Event) {
        delivery.withLock { _ in
            let subscribers = shared.withLock { shared -> [AsyncStream<Event>.Continuation] in
                guard shared.last == nil else { return [] }
                apply(&shared.state, event)
                return Array(shared.subscribers.values)
            }
            hand(event, to: subscribers)
        }
    }

    /// Queues `event` on each stream, outside `shared` (see the type's comment), counting what a full one drops.
    private func hand(_ event: Event, to subscribers: [AsyncStream<Event>.Continuation]) {
        let dropped = subscribers.count { continuation in
            if case .dropped = continuation.yield(event) { return true }
            return false
        }
        if dropped > 0 { shared.withLock { $0.dropped += dropped } }
    }

    /// Hands every subscriber `event` as the last one, and ends their streams. Later events are ignored.
    public func finish(with event: Event) {
        delivery.withLock { _ in
            let ended = shared.withLock { shared -> [AsyncStream<Event>.Continuation] in
                guard shared.last == nil else { return [] }
                apply(&shared.state, event)
                shared.last = event
                defer { shared.subscribers.removeAll() }
                return Array(shared.subscribers.values)
            }
            hand(event, to: ended)
            // Finishing runs the streams' termination handlers, which take `shared`.
            for continuation in ended { continuation.finish() }
        }
    }

    /// Whether the last event has been published.
    public var isFinished: Bool { shared.withLock { $0.last != nil } }

    /// Events lost by subscribers that fell more than the buffer's capacity behind.
    public var dropped: Int { shared.withLock { $0.dropped } }
}
