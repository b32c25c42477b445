import ChoirAudio
import ChoirSession
import FlyingFox
import FlyingSocks
import Foundation

/// The page's HTTP server: on 127.0.0.1 only, on a port the system picks, every address under an unguessable
/// token. It serves the page, its script and style, the one score, and the WebSocket the tabs follow the session
/// on; a request without the token, or with another, gets 403, and any other path 404.
public final class ViewServer: @unchecked Sendable {
    /// The page's address, token included.
    public let address: String
    public let port: UInt16
    private let server: HTTPServer
    private let running: Task<Void, any Error>

    /// Starts serving `score` (the page's music, as JSON) and `hub`'s WebSocket.
    public init(score: String, hub: ViewHub) throws(SessionError) {
        let token = (0..<2).map { _ in String(format: "%016llx", UInt64.random(in: .min ... .max)) }.joined()
        let routes = Routes(
            token: token, score: Data(score.utf8), socket: WebSocketHTTPHandler(handler: MessageFrameWSHandler(handler: hub)))
        let server: HTTPServer
        do {
            server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 30, logger: .disabled, handler: routes)
        } catch {
            throw SessionError(.deviceUnavailable, "the score view cannot listen on 127.0.0.1: \(error)")
        }
        self.server = server
        running = Task { try await server.run() }
        let listening = Locked<Result<UInt16, any Error>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        Task {
            do {
                try await server.waitUntilListening(timeout: 10)
                guard case .ip4(_, let port) = await server.listeningAddress else { throw SocketError.disconnected }
                listening.withLock { $0 = .success(port) }
            } catch {
                listening.withLock { $0 = .failure(error) }
            }
            ready.signal()
        }
        ready.wait()
        switch listening.withLock({ $0 })! {
        case .success(let port):
            self.port = port
            address = "http://127.0.0.1:\(port)/\(token)/"
        case .failure(let error):
            running.cancel()
            throw SessionError(.deviceUnavailable, "the score view cannot listen on 127.0.0.1: \(error)")
        }
    }

    /// Stops serving, closing every connection.
    public func stop() {
        let stopped = DispatchSemaphore(value: 0)
        Task { [server] in
            await server.stop(timeout: 1)
            stopped.signal()
        }
        stopped.wait()
        running.cancel()
    }

    private struct Routes: HTTPHandler {
        let token: String
        let score: Data
        let socket: WebSocketHTTPHandler

        func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
            // "/TOKEN/ASSET": the token first, then the asset (FlyingFox gives the page's "/TOKEN/" as "/TOKEN").
            let parts = request.path.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false).dropFirst()
            guard let given = parts.first, Self.same(String(given), token) else {
                return Self.plain(.forbidden, "403 Forbidden: the address needs its token")
            }
            guard request.method == .GET || request.method == .HEAD else { return Self.plain(.methodNotAllowed, "405 Method Not Allowed") }
            switch parts.count == 2 ? String(parts.last!) : "" {
            case "": return Self.asset(ViewPage.html, "text/html; charset=utf-8")
            case "view.js": return Self.asset(ViewPage.script, "text/javascript; charset=utf-8")
            case "view.css": return Self.asset(ViewPage.style, "text/css; charset=utf-8")
            case "score.json": return HTTPResponse(statusCode: .ok, headers: Self.headers("application/json"), body: score)
            case "live": return try await socket.handleRequest(request)
            default: return Self.plain(.notFound, "404 Not Found")
            }
        }

        /// Compares the whole of both, so that the time taken tells nothing of a wrong token.
        static func same(_ a: String, _ b: String) -> Bool {
            let (x, y) = (Array(a.utf8), Array(b.utf8))
            guard x.count == y.count else { return false }
            return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
        }

        static func headers(_ type: String) -> HTTPHeaders {
            [
                .contentType: type, .cacheControl: "no-store",
                HTTPHeader("Content-Security-Policy"):
                    "default-src 'self'; connect-src 'self' ws://127.0.0.1:*; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:",
            ]
        }

        static func asset(_ text: String, _ type: String) -> HTTPResponse {
            HTTPResponse(statusCode: .ok, headers: headers(type), body: Data(text.utf8))
        }

        static func plain(_ status: HTTPStatusCode, _ text: String) -> HTTPResponse {
            HTTPResponse(statusCode: status, headers: headers("text/plain; charset=utf-8"), body: Data((text + "\n").utf8))
        }
    }
}
