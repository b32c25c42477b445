import ChoirLibrary
import ChoirSession
import Testing

/// A rehearsal plan's run as a front end follows it: item after item, each with its session's report, the run's
/// outcome last, and the run kept in the plan's store.
struct PlanRunTests {
    /// A plan of two tenor items (mm. 6–7 as written, m. 12 at 90%) in a fresh history, and a run of it whose
    /// items are judged from `takes`.
    static func run(takes: [String], in folder: String) throws -> (PlanRun, RehearsalPlans) {
        let history = folder + "/history.sqlite"
        let store = try RehearsalPlans(path: history)
        let items = [
            RehearsalPlan.Item(piece: SessionEventTests.example, line: "tenor", from: "6", to: "7"),
            RehearsalPlan.Item(piece: SessionEventTests.example, line: "tenor", from: "12", to: "12", tempo: 90),
        ]
        let plan = RehearsalPlan(name: "Advent", items: items)
        try store.save(plan, replacing: false)
        let sessions = zip(items, takes).map { item, take in
            var practice = PracticePlan(playback: item.playback(score: item.piece))
            practice.input = .take(take)
            practice.loudspeakers = false
            practice.history = history
            return practice
        }
        return (try PlanRun(plan, store: store, sessions: sessions), store)
    }

    /// Follows `run` as a front end does, starting each item's session when it is announced.
    static func follow(_ run: PlanRun) async throws -> [String] {
        let events = run.events()
        run.start()
        var described: [String] = []
        for await event in events {
            switch event {
            case .began: described.append("began")
            case .itemBegan(let step):
                try step.session.start()
                described.append("begin \(step.index + 1) \(step.item.from ?? "")–\(step.item.to ?? "")")
            case .itemEnded(let step, let outcome):
                described.append("end \(step.index + 1) \(outcome.report.correct)/\(outcome.report.results.count) \(outcome.ending)")
            case .itemFailed(let index, let error): described.append("failed \(index + 1) \(error.kind)")
            case .ended(let outcome):
                described.append(
                    "ended \(outcome.ending == .completed ? "completed" : "early") after \(outcome.items.count), "
                        + "run \(outcome.run.map { "\($0.sessions) \($0.finished ? "finished" : "unfinished")" } ?? "none")")
            }
        }
        return described
    }

    /// Both items sung right: two begin–end pairs in order with their reports (3 of 3 notes in mm. 6–7, 2 of 2 in
    /// m. 12), then the outcome, with the run finished in the store and each item's session in the history.
    @Test func aPlanRunPublishesItsItemsInOrderAndItsOutcomeLast() async throws {
        let folder = try DrillSessionTests.folder()
        let takes = [
            try DrillSessionTests.rightPass("6", "7", tempo: 100, in: folder),
            try DrillSessionTests.rightPass("12", "12", tempo: 90, in: folder),
        ]
        let (run, store) = try Self.run(takes: takes, in: folder)
        #expect(
            try await Self.follow(run) == [
                "began", "begin 1 6–7", "end 1 3/3 completed", "begin 2 12–12", "end 2 2/2 completed",
                "ended completed after 2, run [Optional(1), Optional(2)] finished",
            ])
        let kept = try store.runs(of: "Advent")
        #expect(kept.count == 1 && kept[0].finished && kept[0].sessions == [1, 2])
    }

    /// An item whose take is missing cannot open: the run ends there, after the item before it, and is kept
    /// unfinished.
    @Test func aPlanRunEndsAtAnItemThatCannotOpen() async throws {
        let folder = try DrillSessionTests.folder()
        let takes = [try DrillSessionTests.rightPass("6", "7", tempo: 100, in: folder), folder + "/no-such-take.wav"]
        let (run, store) = try Self.run(takes: takes, in: folder)
        #expect(
            try await Self.follow(run) == [
                "began", "begin 1 6–7", "end 1 3/3 completed", "failed 2 missing", "ended early after 1, run [Optional(1), nil] unfinished",
            ])
        let kept = try store.runs(of: "Advent")
        #expect(kept.count == 1 && !kept[0].finished && kept[0].sessions == [1, nil])
    }
}
