/// A handler's answer: a status, header fields and a body. The server adds Content-Length, Connection, and the
/// fields every answer carries (no caching, no sniffing, no referrer, and those the server was given).
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// `body` served as `contentType`.
    public init(status: Int = 200, contentType: String, body: [UInt8]) {
        self.init(status: status, headers: [("Content-Type", contentType)], body: body)
    }

    /// A line of plain text: "404 Not Found" and, after a colon, `detail`.
    public static func plain(_ status: Int, _ detail: String? = nil) -> HTTPResponse {
        let line = "\(status) \(reason(status))" + (detail.map { ": " + $0 } ?? "") + "\n"
        return HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array(line.utf8))
    }

    /// The status line's reason phrase.
    public static func reason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 426: "Upgrade Required"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        default: "Status \(status)"
        }
    }

    /// The response on the wire; `head` leaves the body out (a HEAD request), `closing` says the connection ends.
    func serialized(head: Bool = false, closing: Bool, extra: [(name: String, value: String)]) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (name, value) in headers + extra { text += "\(name): \(value)\r\n" }
        if status != 101 && status != 204 && !(100..<200).contains(status) { text += "Content-Length: \(body.count)\r\n" }
        if closing { text += "Connection: close\r\n" }
        text += "\r\n"
        return Array(text.utf8) + (head ? [] : body)
    }
}
