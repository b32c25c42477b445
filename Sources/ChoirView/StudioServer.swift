import ChoirBase
import ChoirLibrary
import ChoirPractice
import ChoirScore
import ChoirServer
import ChoirSession
import Foundation

/// `choir studio`'s server (``LoopbackServer``, behind its token, Host and Origin checked): the app's page, script and
/// style (``ViewAssets``), and what the app asks of the engine, through the calls the terminal's commands make:
/// - `library.json` lists and searches the library (``LibraryQuery``, ``Library/found(_:)``), a POST to `library` adds
///   the score in its body (``Library/add(upload:named:into:)``);
/// - `piece.json` says what a piece offers, `mix.wav` renders its mix as the piece screen sets it (``StudioPiece``,
///   ``MixRender``), a POST to `play` plays it (with `paused=1`, shows it held at its start) and one to `take` judges
///   a take of it, from the file in its body or the microphone (``StudioSessions``); the session shows at
///   `session/N/` in the score view's own page; a POST to `pitch` sounds my lines' starting pitch (``PlaybackPlan/startingPitch``) and says which notes;
/// - a POST to `learn` drills a passage up a tempo ladder, from takes POSTed to `takes` or the microphone, and
///   `learn.json` says how far it has come, which the WebSocket `learn/live` sends each time it changes
///   (``StudioLearning``);
/// - `progress.json` gives a piece's sessions and marks from the history (``PracticeHistory``), and a POST to `marks`
///   marks a measure as `choir mark add` does (one to `marks/remove`, `id=N`, rubs a mark out as `choir mark remove`);
/// - `plans.json` and its POSTs list and change the rehearsal plans (``StudioPlans``).
public final class StudioServer: Sendable {
    private let server: LoopbackServer
    private let sessions: StudioSessions

    /// The app's address, token included.
    public var address: String { server.address }

    /// Serves the app on `library`, filing scores brought to the page in `folder`, playing and listening on
    /// `devices`.
    public init(
        library: Library, history: PracticeHistory, folder: String, devices: StudioDevices, limits: ServerLimits = ServerLimits()
    ) throws(SessionError) {
        let sessions = StudioSessions(devices: devices)
        self.sessions = sessions
        var router = Router()
        try router.serve(page: "studio.html", files: ["studio.js", "studio.css"])
        router.get("library.json") { Self.search(library, $0) }
        router.post("library") { Self.add(library, folder: folder, $0) }
        router.get("piece.json") { request in
            Self.answer { () throws in StudioPiece.json(try StudioPiece.plan(request, library: library).resolve()) }
        }
        router.get("mix.wav") { Self.render(library, $0) }
        router.post("play") { request in
            Self.answer { () throws in
                let resolved = try StudioPiece.plan(request, library: library).resolve()
                return .object([("session", .int(try sessions.play(resolved, paused: request.query("paused") == "1")))])
            }
        }
        router.post("pitch") { request in
            Self.answer { () throws in
                var plan = try StudioPiece.plan(request, library: library)
                plan.startingPitch = true
                let resolved = try plan.resolve()
                return .object([("session", .int(try sessions.play(resolved))), ("notes", StudioPiece.startingPitch(resolved))])
            }
        }
        router.post("take") { request in
            Self.answer { () throws in
                let plan = try StudioPiece.plan(request, library: library)
                let headphones = request.query("headphones") == "1"
                return .object([("session", .int(try sessions.practise(plan, take: try Self.take(request), headphones: headphones)))])
            }
        }
        // Learn mode: takes sent ahead, one per pass, then the drill on the passage chosen, and how far it has come.
        router.post("takes") { request in
            Self.answer { () throws in
                guard let file = try Self.take(request) else { throw SessionError(.usage, "an empty take: expected a recording") }
                return .object([("take", .string(sessions.keep(upload: file)))])
            }
        }
        router.post("learn") { request in
            Self.answer { () throws in
                let plan = try StudioPiece.plan(request, library: library)
                let (passage, ladder) = try StudioPiece.learning(request)
                try sessions.learn(
                    plan, passage: passage, ladder: ladder, takes: request.query.filter { $0.name == "take" }.map(\.value),
                    headphones: request.query("headphones") == "1")
                return .object([("passage", .string(passage.span))])
            }
        }
        router.get("learn.json") { _ in Self.json(200, sessions.learning.withLock { $0 }?.json ?? .null) }
        router.get("progress.json") { request in
            Self.answer { () throws in try StudioProgress.json(try StudioPiece.plan(request, library: library).score, history: history) }
        }
        router.post("marks") { request in
            Self.answer { () throws in
                let plan = try StudioPiece.plan(request, library: library)
                let kept = try history.mark(
                    score: plan.score, lines: plan.parts, measure: request.query("measure") ?? "", text: request.query("text") ?? "")
                return .array(kept.map(StudioProgress.json))
            }
        }
        router.post("marks/remove") { request in
            Self.answer { () throws in
                let plan = try StudioPiece.plan(request, library: library)
                return StudioProgress.json(try history.removeMark(Int64(request.query("id") ?? "") ?? -1, of: plan.score))
            }
        }
        for (name, command) in [("pause", SessionCommand.togglePause), ("stop", .quit)] {
            router.post("session/:id/\(name)") { request in
                guard let id = request.parameters["id"].flatMap(Int.init), sessions.send(command, to: id) else {
                    return .plain(404, "no such session")
                }
                return HTTPResponse(status: 204)
            }
        }
        try StudioPlans.route(&router, library: library, history: history)
        try sessions.route(&router)
        do {
            server = try LoopbackServer(router: router, limits: limits, headers: [("Content-Security-Policy", ViewServer.policy)])
        } catch {
            throw SessionError(.deviceUnavailable, "the studio cannot listen on 127.0.0.1: \(error)")
        }
    }

    /// How long after the microphone the page painted what was sung, in the last take sung live: median, 95th
    /// percentile and maximum in ms (complete once the server has stopped).
    public var lag: (median: Int, percentile95: Int, maximum: Int)? { sessions.lastLag.withLock { $0 } }

    /// Ends the session playing, if any, and stops serving, closing every connection.
    public func stop() {
        sessions.end()
        sessions.discardUploads()
        server.stop()
    }

    /// `library.json?text=…&voicing=…&part=…&lowest=…&highest=…&key=…`: the pieces found, as `choir library search
    /// --json` prints them; a query that is not one gets 422 and the command's one-line error.
    static func search(_ library: Library, _ request: HTTPRequest) -> HTTPResponse {
        do {
            let query = try LibraryQuery(
                text: request.query("text"), voicing: request.query("voicing"),
                lines: request.query.filter { $0.name == "part" }.map(\.value),
                lowest: request.query("lowest"), highest: request.query("highest"), key: request.query("key"))
            return json(200, .array(try library.found(query).map(\.json)))
        } catch {
            return json(422, .object([("error", .string("\(error)"))]))
        }
    }

    /// `POST library?name=FILE`: the body is a score, filed in `folder` and added; 201 with what adding did and the
    /// piece as listed, or 422 with the reader's one-line error naming the file.
    static func add(_ library: Library, folder: String, _ request: HTTPRequest) -> HTTPResponse {
        let name = request.query("name") ?? ""
        do {
            let (path, change) = try library.add(upload: request.body, named: name, into: folder)
            let listed = try library.listed(try library.entries().filter { $0.path == path })
            let word =
                switch change {
                case .added: "added"
                case .updated: "updated"
                case .moved: "moved"
                case .unchanged: "unchanged"
                }
            return json(201, .object([("change", .string(word)), ("piece", listed.first?.json ?? .null)]))
        } catch {
            return json(422, .object([("error", .string("\(error)"))]))
        }
    }

    /// `mix.wav?…`: the mix as the piece screen sets it, rendered as `choir render` renders it.
    static func render(_ library: Library, _ request: HTTPRequest) -> HTTPResponse {
        let file = NSTemporaryDirectory() + "choir-studio-mix-\(UUID().uuidString).wav"
        defer { try? FileManager.default.removeItem(atPath: file) }
        do {
            let resolved = try StudioPiece.plan(request, library: library).resolve()
            try MixRender.wav(resolved, to: file, sampleRate: 48000)
            return HTTPResponse(contentType: "audio/wav", body: Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        } catch {
            return json(422, .object([("error", .string("\(error)"))]))
        }
    }

    /// The take a `take` request's body holds, kept in a file named like the one sent (by its extension the session
    /// reads it); nil for an empty body: the microphone.
    private static func take(_ request: HTTPRequest) throws -> String? {
        guard !request.body.isEmpty else { return nil }
        let name = request.query("name") ?? "take.wav"
        let dot = name.lastIndex(of: ".").map { String(name[$0...]) } ?? ".wav"
        let file =
            NSTemporaryDirectory() + "choir-studio-take-\(UUID().uuidString)" + dot.filter { $0.isLetter || $0.isNumber || $0 == "." }
        try Data(request.body).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// The JSON `work` gives, or 422 with its one-line error.
    private static func answer(_ work: () throws -> JSON) -> HTTPResponse {
        do { return json(200, try work()) } catch { return json(422, .object([("error", .string("\(error)"))])) }
    }

    private static func json(_ status: Int, _ value: JSON) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: Array(value.serialized().utf8))
    }
}
