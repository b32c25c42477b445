import ChoirLibrary
import ChoirPractice

/// A rehearsal plan run: its items in order, each a ``PracticeSession``, the run kept with the plan in the history's
/// database as it goes (from the first item whose session opens: a plan that cannot start leaves no run). It stops
/// after an item that does not complete.
///
/// A front end subscribes to ``events()``, calls ``start()``, and on each ``Event/itemBegan(_:)`` subscribes to the
/// item's session and starts it, steering it with commands; cancelling that session ends the run after it.
public final class PlanRun: Sendable {
    /// What happens in a run. A stream starts with ``began(_:)`` and ends with ``ended(_:)``.
    public enum Event: Sendable {
        /// Everything so far at once: the first event of every stream.
        case began(State)
        /// An item's session is ready: subscribe to it, then start it.
        case itemBegan(Step)
        /// An item's session could not be opened (a device, a score); the run ends.
        case itemFailed(index: Int, SessionError)
        /// An item's session has ended.
        case itemEnded(Step, PracticeSession.Outcome)
        /// The run has ended; nothing follows.
        case ended(Outcome)
    }

    /// One item being sung.
    public struct Step: Sendable {
        /// The item's place in the plan, from 0.
        public var index: Int
        public var item: RehearsalPlan.Item
        public var session: PracticeSession
    }

    /// How a run ended.
    public struct Outcome: Sendable {
        /// Completed (every item sung to its end), or how the item that ended it ended.
        public var ending: PracticeSession.Ending
        /// The items' outcomes, in order.
        public var items: [PracticeSession.Outcome]
        /// The run as the plan's store keeps it; nil when no item's session opened.
        public var run: RehearsalPlans.Run?
        /// A failure of the run's own, keeping it in the plan's store, which no item's events have said.
        public var ownFailure: SessionError?
    }

    /// What a run's events add up to.
    public struct State: Sendable {
        /// The item being sung now, if one is.
        public var current: Step?
        public var items: [PracticeSession.Outcome] = []
        public var outcome: Outcome?

        mutating func apply(_ event: Event) {
            switch event {
            case .began(let state): self = state
            case .itemBegan(let step): current = step
            case .itemEnded(_, let outcome):
                current = nil
                items.append(outcome)
            case .itemFailed: current = nil
            case .ended(let outcome): self.outcome = outcome
            }
        }
    }

    public let plan: RehearsalPlan
    /// How each item is sung, in order.
    public let sessions: [PracticePlan]
    private let store: RehearsalPlans
    private let broadcaster = EventBroadcaster<Event, State>(State(), apply: { $0.apply($1) }, catchUp: { .began($0) })

    /// Prepares a run of `plan`, kept in `store`, whose item N is sung as `sessions[N]` plans it (see
    /// ``RehearsalPlan/Item/playback(score:)``).
    public init(_ plan: RehearsalPlan, store: RehearsalPlans, sessions: [PracticePlan]) throws(SessionError) {
        guard !plan.items.isEmpty else { throw SessionError(.usage, "'\(plan.name)' has no items: expected some") }
        guard sessions.count == plan.items.count else {
            throw SessionError(.usage, "'\(plan.name)' has \(plan.items.count) items: expected a session's plan for each")
        }
        self.plan = plan
        self.store = store
        self.sessions = sessions
    }

    /// What happens in the run from now on: each call gives a stream of its own (see ``EventBroadcaster``).
    public func events() -> AsyncStream<Event> { broadcaster.subscribe() }

    /// Runs the plan in a task of its own.
    public func start() {
        Task { broadcaster.finish(with: .ended(await run())) }
    }

    private func run() async -> Outcome {
        var outcome = Outcome(ending: .completed, items: [], run: nil)
        for (index, item) in plan.items.enumerated() {
            let session: PracticeSession
            do {
                session = try PracticeSession(sessions[index])
                if outcome.run == nil { outcome.run = try store.begin(plan) }
            } catch let error as SessionError {
                broadcaster.publish(.itemFailed(index: index, error))
                outcome.ending = .failed(error)
                return outcome
            } catch {
                let failure = SessionError(.output, "\(error)")
                broadcaster.publish(.itemFailed(index: index, failure))
                outcome.ending = .failed(failure)
                return outcome
            }
            let step = Step(index: index, item: item, session: session)
            let ended = await PracticeSession.follow(session, broadcaster.publish(.itemBegan(step)))
            outcome.items.append(ended)
            outcome.run!.sessions[index] = session.historySession
            outcome.run!.finished = index == plan.items.count - 1 && ended.ending == .completed
            do { try store.record(outcome.run!) } catch {
                outcome.ownFailure = SessionError(.output, "\(error)")
                outcome.ending = .failed(outcome.ownFailure!)
            }
            broadcaster.publish(.itemEnded(step, ended))
            if ended.ending != .completed {
                outcome.ending = ended.ending
                return outcome
            }
            if case .failed = outcome.ending { return outcome }
        }
        return outcome
    }

    /// The mix's destination for item `number` of a run whose mixes go to `output`: a WAV file gets the item's
    /// number before its extension, so that each item keeps its own.
    public static func output(_ output: String, item number: Int) -> String {
        guard output.lowercased().hasSuffix(".wav") else { return output }
        return String(output.dropLast(4)) + "-\(number)" + String(output.suffix(4))
    }
}

extension RehearsalPlan.Item {
    /// What the engine plays for the item, from `score` (its piece's file): its line, range, tempo, key and passes,
    /// with a count-in.
    public func playback(score: String) -> PlaybackPlan {
        var plan = PlaybackPlan(score: score, parts: [line])
        plan.from = from
        plan.to = to
        plan.tempoPercent = tempo
        plan.transpose = transpose
        plan.passes = passes
        plan.countIn = true
        return plan
    }

    /// The item checked now as it will be when it runs, from `score` (its piece's file): the score, the line (named
    /// then as the score names it), the measures; or the one-line error that run would give.
    public func checked(score: String) throws(SessionError) -> Self {
        let resolved = try playback(score: score).resolve()
        guard let singer = resolved.singers.first else { throw SessionError(.usage, "\(score): no line given: expected the line you sing") }
        var item = self
        item.line = resolved.lines[singer].name
        return item
    }
}
