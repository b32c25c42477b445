import ChoirBase
import ChoirServer
import ChoirSession

/// The page's server (``LoopbackServer``): the page, its script and style (``ViewAssets``), the one score, its
/// engraving at each tab's size (``PageEngravings``), and the WebSocket the tabs follow the session on, every address
/// under the server's token.
public final class ViewServer: Sendable {
    private let server: LoopbackServer

    /// The page's address, token included.
    public var address: String { server.address }
    public var port: UInt16 { server.port }

    /// Starts serving `feed`'s session: its music (as JSON), its engraving at each tab's size and its WebSocket.
    public init(_ feed: SessionFeed, limits: ServerLimits = ServerLimits()) throws(SessionError) {
        var router = Router()
        try router.serve(page: "view.html", files: ["view.js", "view.css"])
        router.get("score.json") { feed.respondSetup($0) }
        router.get("engraving.json") { feed.respondEngraving($0) }
        router.webSocket("live") { feed.hub.open($0) }
        do {
            server = try LoopbackServer(router: router, limits: limits, headers: [("Content-Security-Policy", Self.policy)])
        } catch {
            throw SessionError(.deviceUnavailable, "the score view cannot listen on 127.0.0.1: \(error)")
        }
    }

    /// What the page may load: choir's own files alone, and the WebSocket to choir.
    static let policy =
        "default-src 'self'; connect-src 'self' ws://127.0.0.1:*; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:"

    /// Stops serving, closing every connection.
    public func stop() { server.stop() }
}
