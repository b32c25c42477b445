import ChoirBase
import ChoirPractice

extension RehearsalPlans {
    /// What `choir plan list` says: each plan with its items' count and its last run, or how to make one.
    public func listing() throws(PracticeHistory.Failure) -> String {
        let plans = try plans()
        guard !plans.isEmpty else { return "No plans; make one with `choir plan new NAME`.\n" }
        var out = ""
        for plan in plans {
            let runs = try runs(of: plan.name)
            out +=
                "\(plan.name): \(String(count: plan.items.count, "item")), "
                + (runs.last.map { "last run \(PracticeHistory.day($0.started)) (\(String(count: runs.count, "run")))" } ?? "never run")
                + "\n"
        }
        return out
    }

    /// What `choir plan show` says of the plan named `name`: its items, then the summaries of its runs.
    public func shown(named name: String) throws -> String {
        let plan = try plan(named: name)
        var out = "\(plan.name)\n"
        if plan.items.isEmpty { out += "  no items yet\n" }
        for (index, item) in plan.items.enumerated() {
            out += "  \(index + 1). \(item.summary)" + (item.notes.map { " — \($0)" } ?? "") + "\n"
        }
        let runs = try summaries(of: plan.name)
        return out + (runs.isEmpty ? "Never run.\n" : "\n" + runs)
    }

    /// The summaries of the runs of the plan named `name` (``Run/summary(number:sessions:previous:)``), each against
    /// the run before, from the sessions of the history in the same database: all of them, or the `last`.
    public func summaries(of name: String, last: Bool = false) throws(PracticeHistory.Failure) -> String {
        let runs = try runs(of: name)
        let sessions = Dictionary(uniqueKeysWithValues: try PracticeHistory(path: path).sessions().map { ($0.id, $0) })
        let shown = last ? Array(runs.indices.suffix(1)) : Array(runs.indices)
        return shown.map { index in
            runs[index].summary(number: index + 1, sessions: sessions, previous: index > 0 ? (index, runs[index - 1]) : nil)
        }.joined(separator: "\n")
    }

    /// Takes item `number` (from 1, as `choir plan show` numbers them) out of the plan named `name`
    /// (``RehearsalPlan/remove(item:)``), a number it has not said as `--item N`; returns the plan as kept and the item
    /// taken out.
    public func remove(item number: Int, of name: String) throws -> (plan: RehearsalPlan, removed: RehearsalPlan.Item) {
        var plan = try plan(named: name)
        let removed: RehearsalPlan.Item
        do { removed = try plan.remove(item: number - 1) } catch { throw Problem(description: "--" + error.description) }
        try save(plan, replacing: true)
        return (plan, removed)
    }

}
