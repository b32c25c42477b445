import ChoirBase
import ChoirLibrary
import ChoirPractice
import ChoirServer
import ChoirSession
import FoundationEssentials

/// The rehearsal plans as the studio's library page shows them, setlists of the library's pieces, through the calls
/// `choir plan` makes (``RehearsalPlans``): `plans.json` lists them, each item with its notes and the item to sing
/// next (``RehearsalPlans/next(in:library:history:)``); POSTs to `plans` (a new one, `name=…`), `plans/item` (a piece
/// of the library and its line: `plan=…&path=…&part=…`), `plans/move` (`plan=…&item=N&to=M`, from 1),
/// `plans/notes` (`plan=…&item=N&text=…`) and `plans/remove` (`plan=…`, with `item=N` for one item) change them and
/// answer with the plans as they are then; a change the engine refuses gets 422 and its one-line error.
enum StudioPlans {
    static func route(_ router: inout Router, library: Library, history: PracticeHistory) throws(SessionError) {
        let plans: RehearsalPlans
        do { plans = try RehearsalPlans(path: history.path) } catch { throw SessionError(.output, "\(error)") }
        func answer(_ change: @escaping @Sendable (HTTPRequest) throws -> Void) -> Router.Handler {
            { request in
                do {
                    try change(request)
                    return respond(200, try json(plans, library: library, history: history))
                } catch {
                    return respond(422, .object([("error", .string("\(error)"))]))
                }
            }
        }
        router.get("plans.json", answer { _ in })
        router.post(
            "plans",
            answer { request in
                let name = (request.query("name") ?? "").trimmingCharacters(in: .whitespaces)
                try RehearsalPlans.check(name: name)
                try plans.save(RehearsalPlan(name: name), replacing: false)
            })
        /// Changes the plan the request names and keeps it.
        func changing(_ change: @escaping @Sendable (inout RehearsalPlan, HTTPRequest) throws -> Void) -> Router.Handler {
            answer { request in
                var plan = try plans.plan(named: request.query("plan") ?? "")
                try change(&plan, request)
                try plans.save(plan, replacing: true)
            }
        }
        router.post(
            "plans/item",
            changing { plan, request in
                let path = request.query("path") ?? ""
                guard try library.entries().contains(where: { $0.path == path }) else {
                    throw SessionError(.usage, "\(path): not a score in the library: expected one of `choir library list`")
                }
                plan.items.append(try RehearsalPlan.Item(piece: path, line: request.query("part") ?? "").checked(score: path))
            })
        router.post(
            "plans/move", changing { plan, request in try plan.move(item: try index("item", request), to: try index("to", request)) })
        router.post(
            "plans/notes", changing { plan, request in try plan.setNotes(request.query("text") ?? "", item: try index("item", request)) })
        router.post(
            "plans/remove",
            answer { request in
                let plan = try plans.plan(named: request.query("plan") ?? "")
                guard request.query("item") != nil else { return try plans.remove(named: plan.name) }
                var changed = plan
                _ = try changed.remove(item: try index("item", request))
                try plans.save(changed, replacing: true)
            })
    }

    /// The request's item number `name` (from 1), as an index from 0.
    private static func index(_ name: String, _ request: HTTPRequest) throws -> Int {
        guard let text = request.query(name), let number = Int(text) else {
            throw SessionError(.usage, "\(name) \(request.query(name) ?? "missing"): expected an item's number, from 1")
        }
        return number - 1
    }

    /// Every plan, by name, with its items in order (the library's file and title for each piece it has) and the
    /// item to sing next.
    static func json(_ plans: RehearsalPlans, library: Library, history: PracticeHistory) throws -> JSON {
        .object([
            (
                "plans",
                .array(
                    try plans.plans().map { plan in
                        let items = plan.items.map { item in
                            let entry = try? library.entry(named: item.piece)
                            return JSON.object([
                                ("piece", .string(item.piece)), ("path", JSON(entry?.path)), ("title", .string(entry?.title ?? item.title)),
                                ("line", .string(item.line)), ("summary", .string(item.summary)), ("notes", JSON(item.notes)),
                                ("tempo", JSON(item.tempo)), ("transpose", .int(item.transpose)),
                            ])
                        }
                        return .object([
                            ("name", .string(plan.name)), ("items", .array(items)),
                            ("next", try plans.next(in: plan, library: library, history: history).map { .int($0 + 1) } ?? .null),
                        ])
                    })
            )
        ])
    }

    private static func respond(_ status: Int, _ value: JSON) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: Array(value.serialized().utf8))
    }
}
