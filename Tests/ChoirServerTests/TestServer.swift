import ChoirServer
import ChoirTestSupport
import Foundation

/// A server for the tests: the page at "", an echo of the body at "echo" (POST), a handler that takes three
/// seconds at "slow", and a WebSocket at "live" that answers each message with it in capitals.
struct TestServer {
    let server: LoopbackServer

    init(_ limits: ServerLimits = ServerLimits()) throws {
        var router = Router()
        router.get("") { _ in HTTPResponse(contentType: "text/html; charset=utf-8", body: Array("<p>the page</p>".utf8)) }
        router.post("echo") { HTTPResponse(contentType: "application/octet-stream", body: $0.body) }
        router.post("scores/:id/notes") { request in .plain(201, "score \(request.parameters["id"]!), \(request.query("verse") ?? "-")") }
        router.get("slow") { _ in
            Thread.sleep(forTimeInterval: 3)
            return .plain(200)
        }
        router.webSocket("live") { socket in
            WebSocket.Handlers(text: { [socket] in socket.send($0.uppercased()) }, binary: { [socket] in socket.send($0) })
        }
        server = try LoopbackServer(router: router, limits: limits)
    }

    var port: UInt16 { server.port }
    var host: String { "127.0.0.1:\(server.port)" }
    var origin: String { "http://127.0.0.1:\(server.port)" }
    /// The path of `name` under the token.
    func path(_ name: String = "") -> String { "/\(server.token)/\(name)" }

    /// A new connection.
    func connect() -> HTTPProbe { HTTPProbe(port: port)! }

    /// A request on a connection of its own, and the response (nil: closed without one).
    func ask(_ request: [UInt8], within seconds: Double = 5) -> HTTPProbe.Response? {
        let probe = connect()
        probe.send(request)
        return probe.response(within: seconds)
    }

    /// A GET of `name` as the page's own script would send it.
    func get(_ name: String = "") -> HTTPProbe.Response? { ask(HTTPProbe.request(path(name), host: host)) }

    /// An open WebSocket at "live", from the server's own page.
    func webSocket() -> HTTPProbe? {
        let probe = connect()
        return probe.upgrade(path("live"), host: host, origin: origin)?.status == 101 ? probe : nil
    }
}
