import ChoirBase
import ChoirLibrary
import ChoirScore
import ChoirServer
import ChoirSession
import Foundation

/// `choir studio`'s server (``LoopbackServer``, behind its token, Host and Origin checked): the app's page, script and
/// style (``ViewAssets``), and the library as the app asks for it, through the same engine calls as `choir library`:
/// `library.json` lists and searches it (``LibraryQuery``, ``Library/found(_:)``), a POST to `library` adds the score
/// in its body (``Library/add(upload:named:into:)``).
public final class StudioServer: Sendable {
    private let server: LoopbackServer

    /// The app's address, token included.
    public var address: String { server.address }

    /// Serves the app on `library`, filing scores brought to the page in `folder`.
    public init(library: Library, folder: String, limits: ServerLimits = ServerLimits()) throws(SessionError) {
        var router = Router()
        let asset = { (text: String, type: String) in
            { @Sendable (_: HTTPRequest) in HTTPResponse(contentType: type, body: Array(text.utf8)) }
        }
        // Read once, here: a missing file stops the studio before it serves anything.
        router.get("", asset(try ViewAssets.text("studio.html"), "text/html; charset=utf-8"))
        router.get("studio.js", asset(try ViewAssets.text("studio.js"), "text/javascript; charset=utf-8"))
        router.get("studio.css", asset(try ViewAssets.text("studio.css"), "text/css; charset=utf-8"))
        router.get("library.json") { Self.search(library, $0) }
        router.post("library") { Self.add(library, folder: folder, $0) }
        do {
            server = try LoopbackServer(
                router: router, limits: limits,
                headers: [("Content-Security-Policy", "default-src 'self'; connect-src 'self' ws://127.0.0.1:*; img-src 'self' data:")])
        } catch {
            throw SessionError(.deviceUnavailable, "the studio cannot listen on 127.0.0.1: \(error)")
        }
    }

    /// Stops serving, closing every connection.
    public func stop() { server.stop() }

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

    private static func json(_ status: Int, _ value: JSON) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: Array(value.serialized().utf8))
    }
}
