import Foundation

/// One client's connection, on a thread of its own: requests read against the limits, checked (Host, Origin,
/// token), routed and answered, one after another while the client keeps the connection; or, once upgraded, a
/// WebSocket. Whatever the client does, it returns within the limits' times, and at once when the server stops.
struct Connection {
    let socket: ClientSocket
    let site: Site
    let stopping: @Sendable () -> Bool

    /// What every request is checked against, and how it is answered.
    struct Site: Sendable {
        var port: UInt16
        var token: String
        var router: Router
        var limits: ServerLimits
        /// Fields added to every answer.
        var headers: [(name: String, value: String)]

        /// The Host every request must name, and the Origin of the server's own pages.
        var host: String { "127.0.0.1:\(port)" }
        var origin: String { "http://\(host)" }
    }

    /// Serves requests until the client goes, breaks a limit, or the server stops.
    func serve() {
        var buffer: [UInt8] = []
        while !stopping() {
            let head: RequestHead
            switch readHead(&buffer) {
            case .gone: return socket.close()
            case .refused(let response):
                _ = write(response, closing: true)
                return stopping() ? socket.close() : socket.closeLingering()
            case .head(let read): head = read
            }
            switch answer(head, &buffer) {
            case .response(let response, let closing):
                let closing = closing || !head.keepsAlive
                guard write(response, head: head.method == "HEAD", closing: closing), !closing else {
                    return closing && !stopping() ? socket.closeLingering() : socket.close()
                }
            case .upgraded(let socket, let handlers):
                socket.run(inbound: buffer, handlers: handlers, stopping: stopping)
                return
            }
        }
        socket.close()
    }

    private enum HeadOutcome {
        case head(RequestHead)
        case refused(HTTPResponse)
        case gone
    }

    /// Reads the next request's head from `buffer` and the socket: the client has `idleSeconds` to start it and
    /// `headSeconds` to finish it, within `requestLine` and `head` bytes. What follows it stays in `buffer`.
    private func readHead(_ buffer: inout [UInt8]) -> HeadOutcome {
        let limits = site.limits
        var started: Int?
        var scanned = 0
        socket.awaitRequest()
        while true {
            // Blank lines before a request line are skipped.
            let leading = buffer.prefix { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }.count
            if leading > 0 {
                buffer.removeFirst(leading)
                scanned = 0
            }
            if !buffer.isEmpty && started == nil { started = Clock.now() }
            if let end = Self.endOfHead(buffer, from: scanned) {
                defer { buffer.removeFirst(end.next) }
                guard socket.beginAnswer() else { return .gone }
                guard end.head <= limits.head else { return .refused(.plain(431, "the request's head is over \(limits.head) bytes")) }
                do {
                    return .head(try RequestHead.parse(buffer[..<end.head], limits: limits))
                } catch {
                    return .refused(Self.refusal(error))
                }
            }
            scanned = max(0, buffer.count - 3)
            let firstLine = buffer.firstIndex(of: UInt8(ascii: "\n")) ?? buffer.count
            if firstLine > limits.requestLine { return .refused(.plain(414, "the request line is over \(limits.requestLine) bytes")) }
            if buffer.count > limits.head { return .refused(.plain(431, "the request's head is over \(limits.head) bytes")) }
            let deadline = started.map { $0 + Int(limits.headSeconds * 1e9) } ?? Clock.after(limits.idleSeconds)
            switch socket.read(into: &buffer, until: deadline) {
            case .ready: continue
            case .timedOut: return started == nil ? .gone : .refused(.plain(408, "the request took over \(limits.headSeconds) s"))
            case .closed, .woken: return .gone
            }
        }
    }

    /// Where the head ends in `bytes` (at a blank line), searching from `from`: the head's length without the
    /// blank line, and where the next bytes start.
    static func endOfHead(_ bytes: [UInt8], from: Int) -> (head: Int, next: Int)? {
        var i = max(from, 1)
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "\n") {
                if bytes[i - 1] == UInt8(ascii: "\n") { return (i - 1, i + 1) }
                if i >= 2 && bytes[i - 1] == UInt8(ascii: "\r") && bytes[i - 2] == UInt8(ascii: "\n") { return (i - 2, i + 1) }
            }
            i += 1
        }
        return nil
    }

    private static func refusal(_ failure: RequestHead.Failure) -> HTTPResponse {
        switch failure {
        case .malformed(let why): .plain(400, why)
        case .lineTooLong: .plain(414)
        case .headTooLarge: .plain(431)
        }
    }

    private enum Answer {
        case response(HTTPResponse, closing: Bool)
        case upgraded(WebSocket, WebSocket.Handlers)
    }

    /// Checks `head` (Host, Origin, token), finds its route, reads its body and calls the handler.
    private func answer(_ head: RequestHead, _ buffer: inout [UInt8]) -> Answer {
        func refuse(_ status: Int, _ why: String? = nil, headers: [(String, String)] = []) -> Answer {
            var response = HTTPResponse.plain(status, why)
            response.headers += headers.map { (name: $0.0, value: $0.1) }
            return .response(response, closing: true)
        }
        // The DNS-rebinding defence: a page of another site that has been given our address under its own name
        // sends its own name as Host.
        guard head.header("host")?.lowercased() == site.host else { return refuse(403, "expected Host: \(site.host)") }
        let origin = head.header("origin")
        if let origin, origin.lowercased() != site.origin { return refuse(403, "a page of another site (\(origin))") }
        guard head.target.hasPrefix("/") else { return refuse(400, "expected a path starting with /") }
        let target = head.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var segments = target[0].dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard let given = segments.first, Self.same(Array(given.utf8), Array(site.token.utf8)) else {
            return refuse(403, "the address needs its token")
        }
        if segments.count == 1 { return refuse(308, headers: [("Location", "/\(site.token)/")]) }
        segments.removeFirst()
        var request = HTTPRequest(
            method: head.method, segments: segments.map { PercentDecoding.decode($0) },
            query: target.count > 1 ? Self.query(target[1]) : [], headers: head.headers, body: [])
        let (action, parameters): (Router.Action, [String: String])
        switch site.router.match(head.method, request.segments) {
        case .success(let found): (action, parameters) = found
        case .failure(let mismatch):
            if mismatch.allowed.isEmpty { return refuse(404) }
            return refuse(405, headers: [("Allow", mismatch.allowed.joined(separator: ", "))])
        }
        request.parameters = parameters
        // A page's own commands (a WebSocket, a request that changes something) carry its Origin: without one,
        // refused.
        switch action {
        case .webSocket(let open):
            guard origin != nil else { return refuse(403, "expected Origin: \(site.origin)") }
            return upgrade(head, request, open)
        case .http(let handler):
            if origin == nil && head.method != "GET" && head.method != "HEAD" { return refuse(403, "expected Origin: \(site.origin)") }
            do { request.body = try readBody(head, &buffer) } catch { return .response(error.response, closing: true) }
            return .response(handler(request), closing: false)
        }
    }

    /// A request refused while its body is read.
    private struct Refusal: Error {
        var response: HTTPResponse
        init(_ status: Int, _ why: String? = nil) { response = .plain(status, why) }
    }

    /// The body as its length or its chunks say, within `body` bytes and `bodySeconds`; an `Expect: 100-continue`
    /// is answered once the body is known to fit.
    private func readBody(_ head: RequestHead, _ buffer: inout [UInt8]) throws(Refusal) -> [UInt8] {
        let limits = site.limits
        let lengths = Set(head.headers.filter { $0.name.lowercased() == "content-length" }.map(\.value))
        let coding = head.tokens("transfer-encoding")
        guard coding.isEmpty || lengths.isEmpty else { throw Refusal(400, "both Content-Length and Transfer-Encoding") }
        guard coding.isEmpty || coding == ["chunked"] else { throw Refusal(501, "expected no Transfer-Encoding but chunked") }
        var length: Int?
        if !lengths.isEmpty {
            guard lengths.count == 1, let text = lengths.first, !text.isEmpty, text.count <= 18,
                text.allSatisfy({ $0 >= "0" && $0 <= "9" }),
                let value = Int(text)
            else { throw Refusal(400, "expected one Content-Length of digits") }
            guard value <= limits.body else { throw Refusal(413, "the body is over \(limits.body) bytes") }
            length = value
        }
        if coding.isEmpty && length == nil { return [] }
        if head.header("expect")?.lowercased() == "100-continue" && buffer.isEmpty {
            _ = socket.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), until: Clock.after(limits.writeSeconds), interruptible: stopping)
        }
        let deadline = Clock.after(limits.bodySeconds)
        /// Reads until `buffer` holds `count` bytes.
        func fill(_ count: Int) throws(Refusal) {
            while buffer.count < count {
                switch socket.read(into: &buffer, until: deadline) {
                case .ready: continue
                case .timedOut: throw Refusal(408, "the body took over \(limits.bodySeconds) s")
                case .closed, .woken: throw Refusal(400, "the body ended early")
                }
            }
        }
        if let length {
            try fill(length)
            defer { buffer.removeFirst(length) }
            return Array(buffer[..<length])
        }
        // Chunked: a hex size line, the chunk and a line end, until a chunk of size 0 and the trailer's blank line.
        func line() throws(Refusal) -> String {
            while true {
                if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    defer { buffer.removeFirst(end + 1) }
                    return String(decoding: buffer[..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                }
                guard buffer.count <= 4096 else { throw Refusal(400, "a chunk's line is over 4096 bytes") }
                try fill(buffer.count + 1)
            }
        }
        var body: [UInt8] = []
        while true {
            let hex = try line().split(separator: ";").first.map { $0.trimmingSpaces } ?? ""
            guard !hex.isEmpty, hex.count <= 15, let size = Int(hex, radix: 16) else {
                throw Refusal(400, "expected a chunk size in hexadecimal")
            }
            if size == 0 { break }
            guard body.count + size <= limits.body else { throw Refusal(413, "the body is over \(limits.body) bytes") }
            try fill(size + 2)
            body += buffer[..<size]
            buffer.removeFirst(size)
            guard try line().isEmpty else { throw Refusal(400, "expected a line end after a chunk") }
        }
        var trailers = 0
        while try !line().isEmpty {
            trailers += 1
            guard trailers <= limits.headerFields else { throw Refusal(431) }
        }
        return body
    }

    /// The WebSocket handshake (RFC 6455, section 4.2): a GET asking to upgrade, version 13, with a key.
    private func upgrade(_ head: RequestHead, _ request: HTTPRequest, _ open: Router.SocketHandler) -> Answer {
        let upgradeNeeded = HTTPResponse(
            status: 426,
            headers: [("Upgrade", "websocket"), ("Sec-WebSocket-Version", "13"), ("Content-Type", "text/plain; charset=utf-8")],
            body: Array("426 Upgrade Required: expected a WebSocket, version 13\n".utf8))
        guard head.method == "GET", head.tokens("upgrade").contains("websocket"), head.tokens("connection").contains("upgrade"),
            head.header("sec-websocket-version") == "13"
        else { return .response(upgradeNeeded, closing: true) }
        guard let key = head.header("sec-websocket-key"), Data(base64Encoded: key)?.count == 16 else {
            return .response(.plain(400, "expected a Sec-WebSocket-Key of 16 bytes in base64"), closing: true)
        }
        guard head.header("content-length").map({ $0 == "0" }) ?? true, head.header("transfer-encoding") == nil else {
            return .response(.plain(400, "a WebSocket's upgrade has no body"), closing: true)
        }
        let switching = HTTPResponse(
            status: 101,
            headers: [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", WebSocket.accept(key: key))])
        guard
            socket.write(
                switching.serialized(closing: false, extra: []), until: Clock.after(site.limits.writeSeconds), interruptible: stopping)
        else { return .response(.plain(408), closing: true) }
        let webSocket = WebSocket(request: request, socket: socket, limits: site.limits)
        return .upgraded(webSocket, open(webSocket))
    }

    /// Writes `response` with the site's fields; false if the client did not take it within `writeSeconds`.
    private func write(_ response: HTTPResponse, head: Bool = false, closing: Bool) -> Bool {
        var extra: [(name: String, value: String)] = [
            ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
        ]
        extra += site.headers.filter { field in !response.headers.contains { $0.name.lowercased() == field.name.lowercased() } }
        return socket.write(
            response.serialized(head: head, closing: closing, extra: extra), until: Clock.after(site.limits.writeSeconds),
            interruptible: stopping)
    }

    /// Compares the whole of both, so that the time taken tells nothing of a wrong token.
    static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private static func query(_ text: Substring) -> [(name: String, value: String)] {
        text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (
                PercentDecoding.decode(parts[0], plusIsSpace: true),
                parts.count > 1 ? PercentDecoding.decode(parts[1], plusIsSpace: true) : ""
            )
        }
    }
}
