/// A request as a handler sees it: its method, the path under the server's token, the query, the header fields
/// and the body.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path under the token, percent-decoded segment by segment: "" for the page, "score.json", "scores/3".
    public var segments: [String]
    /// The query's names and values, percent-decoded, in order.
    public var query: [(name: String, value: String)]
    /// The header fields, in order, their names as sent.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// Values captured by a route's ":name" segments.
    public var parameters: [String: String] = [:]

    /// The path under the token, as its segments joined.
    public var path: String { segments.joined(separator: "/") }

    /// The first value of the header field `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The first value of the query's `name`.
    public func query(_ name: String) -> String? { query.first { $0.name == name }?.value }
}

/// A request's head as read from the socket, before any check: the request line and the header fields.
struct RequestHead {
    var method: String
    /// The request target as sent ("/TOKEN/score.json?x=1").
    var target: String
    var minorVersion: Int
    var headers: [(name: String, value: String)]

    /// Why a head cannot be served; each maps to the status that answers it.
    enum Failure: Error, Equatable {
        case malformed(String)
        case lineTooLong
        case headTooLarge
    }

    func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name }?.value }

    /// All values of a list-valued field (`Connection: keep-alive, Upgrade`), lower-cased.
    func tokens(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name }.flatMap { $0.value.split(separator: ",") }
            .map { $0.trimmingSpaces.lowercased() }
    }

    /// Whether the client asked for the connection to stay open after the response.
    var keepsAlive: Bool {
        let connection = tokens("connection")
        return minorVersion >= 1 ? !connection.contains("close") : connection.contains("keep-alive")
    }

    /// Parses a head (its request line and header fields, without the blank line that ends it), as bytes. Lines
    /// may end in CRLF or a bare LF; a field folded onto the next line, or with space before its colon, is
    /// refused, since proxies disagree on what those mean.
    static func parse(_ bytes: ArraySlice<UInt8>, limits: ServerLimits) throws(Failure) -> RequestHead {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        // A blank line or two before the request line is tolerated (RFC 9112, section 2.2).
        while lines.first?.isEmpty == true { lines.removeFirst() }
        guard let first = lines.first else { throw .malformed("no request line") }
        guard first.count <= limits.requestLine else { throw .lineTooLong }
        guard lines.count - 1 <= limits.headerFields else { throw .headTooLarge }
        let parts = first.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, let method = token(parts[0]), !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
            parts[2].elementsEqual("HTTP/1.1".utf8) || parts[2].elementsEqual("HTTP/1.0".utf8)
        else { throw .malformed("expected METHOD /path HTTP/1.1") }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), let name = token(line[line.startIndex..<colon]) else {
                throw .malformed("expected a header field NAME: VALUE")
            }
            let value = line[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
            guard value.allSatisfy({ $0 >= 0x20 || $0 == 0x09 }), !value.contains(0x7F) else {
                throw .malformed("a control character in the header field \(name)")
            }
            headers.append((name, String(decoding: value, as: UTF8.self).trimmingSpaces))
        }
        return RequestHead(
            method: method, target: String(decoding: parts[1], as: UTF8.self), minorVersion: parts[2].last == UInt8(ascii: "1") ? 1 : 0,
            headers: headers)
    }

    /// `bytes` as an HTTP token (a method or a field name), or nil if it is not one.
    private static func token(_ bytes: ArraySlice<UInt8>) -> String? {
        let allowed = Set("!#$%&'*+-.^_`|~".utf8)
        guard !bytes.isEmpty,
            bytes.allSatisfy({
                (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || allowed.contains($0)
            })
        else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension StringProtocol {
    /// Without spaces and tabs at either end.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}

/// Percent-decoding of a path segment or a query's name or value (`+` is a space in a query only).
enum PercentDecoding {
    static func decode(_ text: Substring, plusIsSpace: Bool = false) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? 0x20 : byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
