import ChoirBase
import ChoirFiles
import ChoirLibrary
import ChoirScore

extension RehearsalPlan {
    /// Checks each item as a run will (``Item/checked(score:)``), its piece found as every SCORE is (a file, else a
    /// title in the library of the history at `history`); the first that does not pass is said with the plan's
    /// `file` and the item's number.
    public func check(file: String, history: String) throws(FileError) {
        for (index, item) in items.enumerated() {
            do { _ = try item.checked(score: Library.file(named: item.piece, history: history)) } catch {
                throw FileError("\(file): item \(index + 1): \(error)")
            }
        }
    }
}

extension RehearsalPlans {
    /// Appends `item`, with its `notes`, to the plan named `name` once it is checked as a run will check it
    /// (``RehearsalPlan/Item/checked(score:)``): its piece found as every SCORE is (a file, made absolute, else a
    /// title in the library), its line as the score names it. Returns the plan as kept.
    public func add(_ item: RehearsalPlan.Item, to name: String, notes: String? = nil) throws -> RehearsalPlan {
        var plan = try plan(named: name)
        var item = item
        let file = try Library.file(named: item.piece, history: path)
        item.piece = FileName.exists(file) ? ScoreIdentity.absolute(file) : file
        plan.items.append(try item.checked(score: file))
        if let notes { try plan.setNotes(notes, item: plan.items.count - 1) }
        try save(plan, replacing: true)
        return plan
    }
}

extension PlanRun {
    /// How each item of `plan` is sung: its piece found in the library of the history at `history`, the singer at
    /// `inputs` (one recording per item, in order, or one capture device for all; none: the default device), and
    /// the rest as `configure` sets it, given the item's input and number (from 1).
    public static func sessions(
        of plan: RehearsalPlan, inputs: [String], history: String, _ configure: (inout PracticePlan, String, Int) -> Void
    ) throws -> [PracticePlan] {
        let takes = inputs.filter { PracticePlan.Input($0).isTake }
        guard inputs.count <= 1 || takes.count == inputs.count else {
            throw SessionError(.usage, "--input: expected one capture device, or one recording per item")
        }
        guard takes.isEmpty || takes.count == plan.items.count else {
            throw SessionError(
                .usage, "--input: \(String(count: takes.count, "recording")) for \(plan.items.count) items: expected one per item, in order"
            )
        }
        return try plan.items.indices.map { index in
            var practice = PracticePlan(
                playback: plan.items[index].playback(score: try Library.file(named: plan.items[index].piece, history: history)))
            configure(&practice, takes.isEmpty ? inputs.first ?? "default" : takes[index], index + 1)
            return practice
        }
    }
}
