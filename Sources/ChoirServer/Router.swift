/// Which handler answers which request: routes by method and path under the token, where a segment ":name"
/// matches any one segment and hands it to the handler as `parameters["name"]`. A GET route answers HEAD too. The
/// first route that matches wins.
public struct Router: Sendable {
    /// Answers a request, on the connection's own thread.
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse
    /// Takes a WebSocket once it is open and says what to do with what it receives.
    public typealias SocketHandler = @Sendable (WebSocket) -> WebSocket.Handlers

    enum Action: Sendable {
        case http(Handler)
        case webSocket(SocketHandler)
    }

    struct Route: Sendable {
        var method: String
        var pattern: [String]
        var action: Action
    }

    private(set) var routes: [Route] = []

    public init() {}

    /// Answers `method` requests for `path` ("", "score.json", "scores/:id") with `handler`.
    public mutating func add(_ method: String, _ path: String, _ handler: @escaping Handler) {
        routes.append(Route(method: method, pattern: Self.segments(path), action: .http(handler)))
    }

    public mutating func get(_ path: String, _ handler: @escaping Handler) { add("GET", path, handler) }

    public mutating func post(_ path: String, _ handler: @escaping Handler) { add("POST", path, handler) }

    /// Opens WebSockets at `path`: the upgrade is a GET, which must come from the server's own page (its Origin).
    public mutating func webSocket(_ path: String, _ handler: @escaping SocketHandler) {
        routes.append(Route(method: "GET", pattern: Self.segments(path), action: .webSocket(handler)))
    }

    /// What answers `method` on `segments`, with the parameters it captures; else the methods the path has, for 405
    /// (none: 404).
    func match(_ method: String, _ segments: [String]) -> Result<(Action, [String: String]), Mismatch> {
        var allowed: [String] = []
        for route in routes {
            guard let parameters = Self.captures(route.pattern, segments) else { continue }
            if route.method == method || (method == "HEAD" && route.method == "GET") { return .success((route.action, parameters)) }
            allowed.append(route.method)
        }
        if allowed.contains("GET") { allowed.append("HEAD") }
        return .failure(Mismatch(allowed: allowed))
    }

    struct Mismatch: Error {
        var allowed: [String]
    }

    private static func segments(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    }

    private static func captures(_ pattern: [String], _ segments: [String]) -> [String: String]? {
        guard pattern.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (expected, segment) in zip(pattern, segments) {
            if expected.hasPrefix(":") && expected.count > 1 {
                guard !segment.isEmpty else { return nil }
                parameters[String(expected.dropFirst())] = segment
            } else if expected != segment {
                return nil
            }
        }
        return parameters
    }
}
