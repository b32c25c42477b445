import Foundation

/// One open WebSocket (RFC 6455): a message to the page goes onto the socket from the thread that sends it when
/// nothing is queued before it (no wait for the connection's thread to wake: a live session's state reaches the page
/// sooner), and whatever the socket does not take at once is queued and sent by the connection's thread, so that a
/// tab that reads slowly holds up no one; one that falls `backlog` bytes behind is closed (1013), as is one silent
/// through a ping. Messages from the page reach ``Handlers`` on the connection's thread.
public final class WebSocket: @unchecked Sendable {
    /// What to do with what the page sends, and when the socket has closed.
    public struct Handlers: Sendable {
        public var text: @Sendable (String) -> Void
        public var binary: @Sendable ([UInt8]) -> Void
        public var closed: @Sendable () -> Void

        public init(
            text: @escaping @Sendable (String) -> Void, binary: @escaping @Sendable ([UInt8]) -> Void = { _ in },
            closed: @escaping @Sendable () -> Void = {}
        ) {
            self.text = text
            self.binary = binary
            self.closed = closed
        }
    }

    /// The upgrade request, for its path, parameters and query.
    public let request: HTTPRequest
    private let socket: ClientSocket
    private let limits: ServerLimits
    private let lock = NSLock()
    private var outbound: [UInt8] = []
    private var sentUpTo = 0
    /// The close the server asked for, not yet queued by the connection's thread.
    private var closeRequested: (code: UInt16, reason: String)?
    /// Whether a close frame has been queued: nothing may be written after it.
    private var closing = false
    private var ended = false

    init(request: HTTPRequest, socket: ClientSocket, limits: ServerLimits) {
        self.request = request
        self.socket = socket
        self.limits = limits
    }

    /// Queues a text message; dropped if the socket has closed.
    public func send(_ text: String) { queue(Frame.encode(opcode: Frame.text, Array(text.utf8))) }

    /// Queues a binary message; dropped if the socket has closed.
    public func send(_ bytes: [UInt8]) { queue(Frame.encode(opcode: Frame.binary, bytes)) }

    /// Closes the socket with `code` (1000: done), after what is already queued.
    public func close(code: UInt16 = 1000, reason: String = "") {
        let queued = lock.withLock {
            guard !ended, closeRequested == nil else { return false }
            closeRequested = (code, reason)
            return true
        }
        if queued { socket.wakeUp() }
    }

    /// Whether the socket has closed.
    public var isClosed: Bool { lock.withLock { ended } }

    private func queue(_ frame: [UInt8]) {
        let queued = lock.withLock {
            guard !ended, !closing, closeRequested == nil else { return false }
            var written = 0
            if outbound.count == sentUpTo && closeRequested == nil && !closing {
                written = frame.withUnsafeBytes { socket.writeIfOpen($0) } ?? 0
            }
            guard written < frame.count else { return false }
            outbound += frame[written...]
            return true
        }
        if queued { socket.wakeUp() }
    }

    /// Serves the socket until it closes: reads the page's frames (starting with `inbound`, read after the
    /// handshake), sends what is queued, pings a silent page. Returns when closed, at once when `stopping`.
    func run(inbound start: [UInt8], handlers: Handlers, stopping: () -> Bool) {
        var inbound = start, consumed = 0
        var message: (opcode: UInt8, bytes: [UInt8])?
        var lastHeard = Clock.now(), pinged = false
        var closeSent: Int?
        defer {
            lock.withLock {
                ended = true
                outbound = []
            }
            handlers.closed()
        }
        func sendClose(_ code: UInt16, _ reason: String = "") {
            guard closeSent == nil else { return }
            closeSent = Clock.now()
            lock.withLock {
                closing = true
                outbound += Frame.encode(opcode: Frame.close, Frame.closePayload(code, reason))
            }
        }
        while true {
            if stopping() {
                // One try at telling the page, then gone: stopping waits for nobody.
                sendClose(1001, "choir has stopped")
                _ = flush()
                socket.close()
                return
            }
            if let (code, reason) = lock.withLock({ () -> (UInt16, String)? in
                defer { closeRequested = nil }
                return closeRequested
            }) {
                sendClose(code, reason)
            }
            guard let pending = flush() else { break }
            if pending > limits.backlog { break }
            if closeSent != nil && pending == 0 {
                // Wait a moment for the page's own close, then end.
                if let closeSent, Clock.now() - closeSent > 1_000_000_000 { break }
            }
            let silence = Int(limits.pingSeconds * 1e9)
            var deadline = lastHeard + (pinged ? 2 * silence : silence)
            if let closeSent { deadline = min(deadline, closeSent + 1_000_000_000) }
            let waited = socket.wait(reading: true, writing: pending > 0, until: deadline)
            if waited.outcome == .closed { break }
            if waited.outcome == .timedOut {
                if closeSent != nil || pinged { break }
                pinged = true
                lock.withLock { outbound += Frame.encode(opcode: Frame.ping, []) }
                continue
            }
            guard waited.readable else { continue }
            if socket.readAvailable(into: &inbound) == .closed { break }
            lastHeard = Clock.now()
            pinged = false
            parsing: while true {
                let frame: Frame
                switch Frame.parse(inbound[consumed...], limit: limits.message) {
                case .incomplete: break parsing
                case .failure(let code, let reason):
                    sendClose(code, reason)
                    inbound = []
                    consumed = 0
                    break parsing
                case .frame(let parsed, let length):
                    frame = parsed
                    consumed += length
                }
                guard closeSent == nil || frame.opcode == Frame.close else { continue }
                switch frame.opcode {
                case Frame.text, Frame.binary, Frame.continuation:
                    if frame.opcode == Frame.continuation {
                        guard message != nil else {
                            sendClose(1002, "a continuation with no message")
                            break parsing
                        }
                        message!.bytes += frame.payload
                    } else {
                        guard message == nil else {
                            sendClose(1002, "a new message inside another")
                            break parsing
                        }
                        message = (frame.opcode, frame.payload)
                    }
                    guard message!.bytes.count <= limits.message else {
                        sendClose(1009, "the message is too large")
                        break parsing
                    }
                    guard frame.final, let (opcode, bytes) = message else { continue }
                    message = nil
                    if opcode == Frame.binary {
                        handlers.binary(bytes)
                    } else if let text = String(validating: bytes, as: UTF8.self) {
                        handlers.text(text)
                    } else {
                        sendClose(1007, "a text message that is not UTF-8")
                        break parsing
                    }
                case Frame.ping:
                    lock.withLock { outbound += Frame.encode(opcode: Frame.pong, frame.payload) }
                case Frame.close:
                    if closeSent == nil {
                        let code = frame.payload.count >= 2 ? UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1]) : 1000
                        sendClose(code == 1005 || code < 1000 ? 1000 : code)
                    }
                    _ = flush()
                    socket.closeLingering()
                    return
                default: continue
                }
            }
            if consumed > 65536 || consumed == inbound.count {
                inbound.removeFirst(consumed)
                consumed = 0
            }
        }
        socket.close()
    }

    /// Sends what the socket takes now; returns the bytes still queued, or nil if the connection failed.
    private func flush() -> Int? {
        lock.withLock {
            let pending = outbound.count - sentUpTo
            guard pending > 0 else { return 0 }
            guard let written = outbound.withUnsafeBytes({ socket.writeAvailable(UnsafeRawBufferPointer(rebasing: $0[sentUpTo...])) })
            else { return nil }
            sentUpTo += written
            if sentUpTo == outbound.count || sentUpTo > 1 << 20 {
                outbound.removeFirst(sentUpTo)
                sentUpTo = 0
            }
            return outbound.count - sentUpTo
        }
    }

    /// `key`'s answer in the handshake: base64 of SHA-1 of the key and the protocol's GUID.
    static func accept(key: String) -> String {
        Data(SHA1.digest(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
    }
}

/// A WebSocket frame, as read from a page (masked) or written to it (not).
struct Frame {
    static let continuation: UInt8 = 0, text: UInt8 = 1, binary: UInt8 = 2, close: UInt8 = 8, ping: UInt8 = 9, pong: UInt8 = 10

    var final: Bool
    var opcode: UInt8
    var payload: [UInt8]

    enum Parsed {
        case frame(Frame, length: Int)
        case incomplete
        /// The frame breaks the protocol: close with `code`.
        case failure(code: UInt16, reason: String)
    }

    /// The frame at the start of `bytes`, unmasked. A frame longer than `limit` fails as soon as its length is read.
    static func parse(_ bytes: ArraySlice<UInt8>, limit: Int) -> Parsed {
        guard bytes.count >= 2 else { return .incomplete }
        let first = bytes[bytes.startIndex], second = bytes[bytes.startIndex + 1]
        let opcode = first & 0x0F, final = first & 0x80 != 0
        guard first & 0x70 == 0 else { return .failure(code: 1002, reason: "no extension was agreed") }
        guard [continuation, text, binary, close, ping, pong].contains(opcode) else {
            return .failure(code: 1002, reason: "unknown opcode \(opcode)")
        }
        guard second & 0x80 != 0 else { return .failure(code: 1002, reason: "a page's frames are masked") }
        var at = bytes.startIndex + 2
        var length = Int(second & 0x7F)
        if length >= 126 {
            let size = length == 126 ? 2 : 8
            guard bytes.count >= 2 + size else { return .incomplete }
            var value: UInt64 = 0
            for byte in bytes[at..<(at + size)] { value = value << 8 | UInt64(byte) }
            guard value <= UInt64(Int.max) else { return .failure(code: 1009, reason: "the message is too large") }
            length = Int(value)
            at += size
        }
        if opcode >= close {
            guard final && length <= 125 else { return .failure(code: 1002, reason: "a control frame over 125 bytes or fragmented") }
        }
        guard length <= limit else { return .failure(code: 1009, reason: "the message is too large") }
        guard bytes.endIndex - at >= 4 + length else { return .incomplete }
        let mask = Array(bytes[at..<(at + 4)])
        at += 4
        var payload = Array(bytes[at..<(at + length)])
        for i in payload.indices { payload[i] ^= mask[i & 3] }
        return .frame(Frame(final: final, opcode: opcode, payload: payload), length: at + length - bytes.startIndex)
    }

    /// A whole, unmasked frame carrying `payload`.
    static func encode(opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
        var frame: [UInt8] = [0x80 | opcode]
        switch payload.count {
        case ..<126: frame.append(UInt8(payload.count))
        case ..<65536: frame += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: frame += [127] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: payload.count >> ($0 * 8)) }
        }
        return frame + payload
    }

    static func closePayload(_ code: UInt16, _ reason: String) -> [UInt8] {
        [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8.prefix(120))
    }
}
