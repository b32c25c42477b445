import FoundationEssentials
import Glibc

/// A client of the tests that speaks raw HTTP/1.1 and WebSocket to a server on 127.0.0.1, byte for byte as it is
/// told to, well-formed or not: what a hostile or broken client sends, and what a page sends. One thread may send
/// while another reads.
public final class HTTPProbe: @unchecked Sendable {
    /// A response as read off the socket.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port`; nil if the connection cannot be made.
    public init?(port: UInt16) {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
    }

    deinit { close(descriptor) }

    /// Sends `bytes`; false if the server has closed or reset the connection.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// A request (a GET unless said) of `path` with the given Host (and Origin, and other fields).
    public static func request(
        _ path: String, method: String = "GET", host: String, origin: String? = nil, fields: [String] = [], body: [UInt8] = []
    ) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\n"
        if let origin { head += "Origin: \(origin)\r\n" }
        for field in fields { head += field + "\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        return Array((head + "\r\n").utf8) + body
    }

    /// Reads more within `seconds`; false at the end of the stream, on an error or a timeout.
    private func fill(within seconds: Double) -> Bool {
        var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(seconds * 1000)) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(self.descriptor, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        buffer += chunk[..<count]
        return true
    }

    /// The next response, within `seconds`; nil if the connection closed (or reset) or time ran out first. The
    /// answer to a HEAD request has no body, whatever its length says.
    public func response(within seconds: Double = 5, head: Bool = false) -> Response? {
        let deadline = Self.now() + seconds
        while true {
            if let end = Self.find([13, 10, 13, 10], in: buffer) {
                let lines = String(decoding: buffer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
                let status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } } ?? 0
                let headers = lines.dropFirst().compactMap { line -> (String, String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
                }
                var response = Response(status: status, headers: headers, body: [])
                let length = head || (100..<200).contains(status) ? 0 : response.header("content-length").flatMap { Int($0) } ?? 0
                while buffer.count < end + 4 + length {
                    guard fill(within: max(0, deadline - Self.now())) else { return nil }
                }
                response.body = Array(buffer[(end + 4)..<(end + 4 + length)])
                buffer.removeFirst(end + 4 + length)
                return response
            }
            guard fill(within: max(0, deadline - Self.now())) else { return nil }
        }
    }

    /// Whether the server closes the connection within `seconds` (reading and dropping anything before).
    public func closes(within seconds: Double) -> Bool {
        let deadline = Self.now() + seconds
        while Self.now() < deadline {
            var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(max(1, (deadline - Self.now()) * 1000))) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            if recv(self.descriptor, &chunk, chunk.count, 0) <= 0 { return true }
        }
        return false
    }

    /// Opens a WebSocket at `path` (the handshake a browser sends); the server's answer.
    public func upgrade(_ path: String, host: String, origin: String?) -> Response? {
        send(
            Self.request(
                path, host: host, origin: origin,
                fields: [
                    "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
                ]))
        return response()
    }

    /// A WebSocket frame as a page sends it: masked (unless `masked` is false), final unless said otherwise.
    public static func frame(opcode: UInt8, _ payload: [UInt8], final: Bool = true, masked: Bool = true) -> [UInt8] {
        var frame: [UInt8] = [(final ? 0x80 : 0) | opcode]
        let mask: UInt8 = masked ? 0x80 : 0
        switch payload.count {
        case ..<126: frame.append(mask | UInt8(payload.count))
        case ..<65536: frame += [mask | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: frame += [mask | 127] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: payload.count >> ($0 * 8)) }
        }
        guard masked else { return frame + payload }
        let key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        return frame + key + payload.enumerated().map { $0.element ^ key[$0.offset & 3] }
    }

    /// The next frame from the server (opcode and payload), within `seconds`; nil if the connection closed first.
    public func frame(within seconds: Double = 5) -> (opcode: UInt8, payload: [UInt8])? {
        let deadline = Self.now() + seconds
        while true {
            if buffer.count >= 2 {
                var length = Int(buffer[1] & 0x7F), at = 2
                if length == 126, buffer.count >= 4 {
                    length = Int(buffer[2]) << 8 | Int(buffer[3])
                    at = 4
                } else if length == 127, buffer.count >= 10 {
                    length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
                    at = 10
                }
                if length < 126 || at > 2, buffer.count >= at + length {
                    defer { buffer.removeFirst(at + length) }
                    return (buffer[0] & 0x0F, Array(buffer[at..<(at + length)]))
                }
            }
            guard fill(within: max(0, deadline - Self.now())) else { return nil }
        }
    }

    /// The next text message, skipping pings.
    public func text(within seconds: Double = 5) -> String? {
        while let frame = frame(within: seconds) {
            if frame.opcode == 1 { return String(decoding: frame.payload, as: UTF8.self) }
            if frame.opcode == 8 { return nil }
        }
        return nil
    }

    /// Seconds on the monotonic clock.
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
