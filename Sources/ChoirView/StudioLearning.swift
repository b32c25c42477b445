import ChoirBase
import ChoirPractice
import ChoirServer
import ChoirSession

/// Learn mode in the studio: the engine's drill (``DrillSession``) on the passage the singer chose, climbing its tempo
/// ladder; each pass is the studio's running session, shown at `session/N/`, and `learn.json` says how far the
/// ladder has come, in the engine's figures. The page follows it on `learn/live`, which sends that JSON each time it
/// changes (``hub``).
final class StudioLearning: Sendable {
    private struct Progress {
        var state = DrillSession.State()
        /// The studio's number of each pass's session, by pass number.
        var sessions: [Int: Int] = [:]
        /// Whether the studio has moved on to something else: passes still to come are quit as they begin.
        var abandoned = false
    }

    let drill: DrillSession
    let passage: Drill.Passage
    let ladder: Drill
    private let progress = Locked(Progress())
    /// The tabs following the ladder: each is sent ``json`` as it joins and whenever the drill moves on.
    let hub = ViewHub(receive: { _ in })

    init(_ drill: DrillSession, passage: Drill.Passage, ladder: Drill) {
        self.drill = drill
        self.passage = passage
        self.ladder = ladder
    }

    /// Takes in what the drill says has happened, and tells the tabs.
    func apply(_ event: DrillSession.Event) {
        let ended = progress.withLock { progress in
            progress.state.apply(event)
            return progress.state.outcome != nil
        }
        publish()
        // The drill has said all it will: its result is on every tab.
        if ended { hub.close() }
    }

    /// Pass `number` is studio session `id`.
    func shown(pass number: Int, as id: Int) {
        progress.withLock { $0.sessions[number] = id }
        publish()
    }

    /// Takes a tab's WebSocket, and sends it where the ladder is.
    func follow(_ socket: WebSocket) -> WebSocket.Handlers {
        let handlers = hub.open(socket)
        hub.greet { [json.serialized()] }
        return handlers
    }

    private func publish() {
        let text = json.serialized()
        hub.publish(text) { [text] }
    }

    /// The studio has moved on: passes still to come end as they begin.
    func abandon() { progress.withLock { $0.abandoned = true } }
    var isAbandoned: Bool { progress.withLock { $0.abandoned } }

    /// `learn.json`: the passage, the pass mark, the ladder so far (each tempo with its passes' accuracies), the pass
    /// being sung and its session, and once the drill has ended how: "learnt", "moved on" or why it stopped.
    var json: JSON {
        progress.withLock { progress in
            let state = progress.state
            let ladder = state.passes.last { !$0.ladder.isEmpty }?.ladder ?? []
            let current = state.current.map { pass in
                JSON.object([
                    ("number", .int(pass.number)), ("tempo", .number(pass.tempo)),
                    ("session", progress.sessions[pass.number].map(JSON.int) ?? .null),
                ])
            }
            let next = state.passes.last?.next
            let result: JSON =
                if let outcome = state.outcome {
                    switch (outcome.ending, next) {
                    case (.completed, .done?): "learnt"
                    case (.completed, .movedOn?): "moved on"
                    case (.completed, _): "ended"
                    case (.failed(let error), _): .string("\(error)")
                    case (.quit, _), (.cancelled, _): "stopped"
                    }
                } else {
                    .null
                }
            return .object([
                ("passage", .string(passage.span)), ("target", .number(self.ladder.passMark)), ("step", .number(self.ladder.step)),
                ("passes", .int(state.passes.count)),
                (
                    "ladder",
                    .array(
                        ladder.map { step in
                            .object([
                                ("tempo", .number(step.tempo)), ("passes", .int(step.passes)),
                                ("accuracies", .array(step.accuracies.map { .number(($0 * 10).rounded() / 10) })),
                                ("reached", .bool(step.reached)),
                            ])
                        })
                ),
                ("current", current ?? .null), ("lastSession", progress.sessions.max { $0.key < $1.key }.map { .int($0.value) } ?? .null),
                ("result", result),
            ])
        }
    }
}
