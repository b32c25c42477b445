import ChoirPractice

/// A drill as a session of sessions: the weakest passages of the singer's latest session (or of a first pass over
/// the whole range), each looped from a slower tempo up to the written one, every pass a ``PracticeSession``; the
/// drill decides what comes after each pass and publishes it as ``Event``s.
///
/// A front end subscribes to ``events()``, calls ``start()``, and on each ``Event/passBegan(_:)`` subscribes to the
/// pass's session and starts it (as it would a session of its own: its events are then all seen), steering it with
/// commands. Cancelling a pass's session, or a pass that fails, ends the drill after that pass.
public final class DrillSession: Sendable {
    /// What happens in a drill. A stream starts with ``began(_:)`` and ends with ``ended(_:)``.
    public enum Event: Sendable {
        /// Everything so far at once: the first event of every stream.
        case began(State)
        /// A pass's session is ready: subscribe to it, then start it.
        case passBegan(Pass)
        /// A pass's session has ended, with its outcome and what the drill does next.
        case passEnded(PassEnd)
        /// The passages to drill, weakest first: empty when every measure was right.
        case passages([Drill.Passage])
        /// The drill has ended; nothing follows.
        case ended(Outcome)
    }

    /// One pass: a session over a passage at a tempo, or the first pass over the whole range.
    public struct Pass: Sendable {
        /// The passage, or nil for a first pass over the whole range (no history to learn the passages from).
        public var passage: Drill.Passage?
        /// Which time through the passage, from 1.
        public var number: Int
        /// The tempo, in percent of the plan's.
        public var tempo: Double
        public var session: PracticeSession
    }

    /// A pass that has ended.
    public struct PassEnd: Sendable {
        public var pass: Pass
        public var outcome: PracticeSession.Outcome
        /// What the drill does next after a drilled pass (nil after a first pass, or one that did not complete).
        public var next: Drill.Next?
        /// The tempo of the drill's next pass, if another follows.
        public var nextTempo: Double?
        /// The passage's tempo ladder so far, this pass included: the passes each tempo took (empty after a first
        /// pass, or one that did not complete).
        public var ladder: [Drill.Step] = []
    }

    /// How a drill ended, with every pass's report: the drill's report, as the history keeps it in one session.
    public struct Outcome: Sendable {
        /// Completed, or how the pass that ended it ended.
        public var ending: PracticeSession.Ending
        public var passes: [PassEnd]
        /// Why the history could not be kept, if it could not.
        public var historyFailure: String?
    }

    /// What a drill's events add up to.
    public struct State: Sendable {
        public var passages: [Drill.Passage] = []
        /// The pass running now, if one is.
        public var current: Pass?
        public var passes: [PassEnd] = []
        public var outcome: Outcome?

        /// Before anything has happened.
        public init() {}

        /// Takes in what `event` says has happened.
        public mutating func apply(_ event: Event) {
            switch event {
            case .began(let state): self = state
            case .passBegan(let pass): current = pass
            case .passEnded(let end):
                current = nil
                passes.append(end)
            case .passages(let passages): self.passages = passages
            case .ended(let outcome): self.outcome = outcome
            }
        }
    }

    public let plan: PracticePlan
    /// The singer's line's name.
    public let part: String
    /// Whether no session of the line was in the history to learn the passages from: a first pass comes first.
    public let needsFirstPass: Bool
    private let drill: PracticeDrill
    private let broadcaster = EventBroadcaster<Event, State>(State(), apply: { $0.apply($1) }, catchUp: { .began($0) })

    /// Prepares a drill of `plan`'s line, whose passes start at `startPercent`% of the plan's tempo. The singer is
    /// the plan's capture device, or with `takes` a recording per pass, in order, each from its count-in's first
    /// click.
    public convenience init(_ plan: PracticePlan, startPercent: Double, takes: [String] = []) throws(SessionError) {
        try self.init(plan, ladder: Drill(start: startPercent), takes: takes)
    }

    /// Prepares a drill of `plan`'s line in which each passage climbs `ladder`: from its tempo (percent of the
    /// plan's), a step faster after each pass at its pass mark or better, up to the written tempo. Given a
    /// `passage` (learn mode: the measures the singer chose), that one alone; else the weakest of the line's
    /// latest session, or of a first pass. The singer is as for ``init(_:startPercent:takes:)``.
    public init(_ plan: PracticePlan, ladder: Drill, passage: Drill.Passage? = nil, takes: [String] = []) throws(SessionError) {
        drill = try PracticeDrill(plan, ladder: ladder, passage: passage, takes: takes)
        self.plan = plan
        part = drill.part
        needsFirstPass = drill.needsFirstPass
    }

    /// Why the history is not being written, if it is not.
    public var historyFailure: String? { drill.historyFailure }

    /// What happens in the drill from now on: each call gives a stream of its own (see ``EventBroadcaster``).
    public func events() -> AsyncStream<Event> { broadcaster.subscribe() }

    /// Runs the drill in a task of its own.
    public func start() {
        Task { broadcaster.finish(with: .ended(await run())) }
    }

    private func run() async -> Outcome {
        var passes: [PassEnd] = []
        func outcome(_ ending: PracticeSession.Ending) -> Outcome {
            Outcome(ending: ending, passes: passes, historyFailure: drill.historyFailure)
        }
        do throws(SessionError) {
            if needsFirstPass {
                let pass = Pass(passage: nil, number: 1, tempo: 100, session: try drill.firstPass())
                let first = PassEnd(pass: pass, outcome: await PracticeSession.follow(pass.session, broadcaster.publish(.passBegan(pass))))
                passes.append(first)
                broadcaster.publish(.passEnded(first))
                guard first.outcome.ending == .completed else { return outcome(first.outcome.ending) }
                drill.learn(from: first.outcome.report)
            }
            broadcaster.publish(.passages(drill.passages))
            while let (passage, tempo) = drill.upcoming, let session = try drill.nextPass() {
                let pass = Pass(passage: passage, number: drill.passesOfPassage + 1, tempo: tempo, session: session)
                var end = PassEnd(pass: pass, outcome: await PracticeSession.follow(session, broadcaster.publish(.passBegan(pass))))
                if end.outcome.ending == .completed {
                    (end.next, end.ladder) = drill.record(end.outcome.report)
                    end.nextTempo = drill.upcoming?.tempo
                }
                passes.append(end)
                broadcaster.publish(.passEnded(end))
                guard end.outcome.ending == .completed else { return outcome(end.outcome.ending) }
            }
            return outcome(.completed)
        } catch {
            return outcome(.failed(error))
        }
    }
}

extension PracticeSession {
    /// Subscribes to `session`, then runs `announce` (which tells the front ends, who start it), and waits for the
    /// session's outcome without holding a thread: ``wait()`` is the front end's, which joins the session's thread.
    static func follow(_ session: PracticeSession, _ announce: @autoclosure () -> Void) async -> Outcome {
        let events = session.events()
        announce()
        var outcome: Outcome?
        for await event in events { if case .ended(let ended) = event { outcome = ended } }
        // A practice session's last event carries its outcome.
        return outcome ?? Outcome(report: session.header, ending: .cancelled)
    }
}
