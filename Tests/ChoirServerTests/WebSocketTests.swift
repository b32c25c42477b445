import ChoirServer
import ChoirTestSupport
import Foundation
import Testing

/// WebSockets on the local server: messages both ways, the protocol's rules, and a reader that falls behind.
@Suite struct WebSocketTests {
    /// Text and binary messages, one in three fragments, a ping answered with its pong, and the close handshake.
    @Test func messagesGoBothWays() throws {
        let test = try TestServer()
        let socket = try #require(test.webSocket())
        socket.send(HTTPProbe.frame(opcode: 1, Array("tempo".utf8)))
        #expect(socket.text() == "TEMPO")
        socket.send(
            HTTPProbe.frame(opcode: 1, Array("a".utf8), final: false) + HTTPProbe.frame(opcode: 9, Array("hi".utf8))
                + HTTPProbe.frame(opcode: 0, Array("b".utf8), final: false) + HTTPProbe.frame(opcode: 0, Array("c".utf8)))
        let pong = socket.frame()
        #expect(pong?.opcode == 10 && pong?.payload == Array("hi".utf8))
        #expect(socket.text() == "ABC")
        socket.send(HTTPProbe.frame(opcode: 2, [0, 255, 7]))
        let binary = socket.frame()
        #expect(binary?.opcode == 2 && binary?.payload == [0, 255, 7])
        socket.send(HTTPProbe.frame(opcode: 8, [0x03, 0xE8]))
        let close = socket.frame()
        #expect(close?.opcode == 8 && close?.payload.prefix(2) == [0x03, 0xE8])
        #expect(socket.closes(within: 1))
    }

    /// A message over the limit closes with 1009, before it is all sent; an unmasked frame with 1002; text that is
    /// not UTF-8 with 1007.
    @Test func theProtocolsRulesAreKept() throws {
        var limits = ServerLimits()
        limits.message = 1000
        let test = try TestServer(limits)
        let cases: [(String, [UInt8], UInt16)] = [
            ("a message over the limit", Array(HTTPProbe.frame(opcode: 1, Array(repeating: 0x61, count: 5000)).prefix(20)), 1009),
            (
                "fragments over the limit",
                HTTPProbe.frame(opcode: 1, Array(repeating: 0x61, count: 600), final: false)
                    + HTTPProbe.frame(opcode: 0, Array(repeating: 0x61, count: 600)), 1009
            ),
            ("an unmasked frame", HTTPProbe.frame(opcode: 1, Array("x".utf8), masked: false), 1002),
            ("text that is not UTF-8", HTTPProbe.frame(opcode: 1, [0xC3, 0x28]), 1007),
            ("an unknown opcode", HTTPProbe.frame(opcode: 3, []), 1002),
        ]
        for (what, bytes, code) in cases {
            let socket = try #require(test.webSocket())
            socket.send(bytes)
            let close = socket.frame()
            let received = close.map { UInt16($0.payload[0]) << 8 | UInt16($0.payload[1]) }
            #expect(close?.opcode == 8 && received == code, "\(what): \(String(describing: received))")
        }
    }

    /// A page that reads nothing while the server sends to every page: sending never waits for it, it is let go
    /// (1013) once `backlog` bytes wait for it, and the page that reads gets every message meanwhile.
    @Test func aReaderThatFallsBehindHoldsUpNoOne() throws {
        var limits = ServerLimits()
        limits.backlog = 256 * 1024
        let opened = Locked<[WebSocket]>([])
        var router = Router()
        router.webSocket("live") { socket in
            opened.withLock { $0.append(socket) }
            return WebSocket.Handlers(text: { _ in })
        }
        let server = try LoopbackServer(router: router, limits: limits)
        let (host, origin, path) = ("127.0.0.1:\(server.port)", "http://127.0.0.1:\(server.port)", "/\(server.token)/live")
        let deaf = HTTPProbe(port: server.port)!
        #expect(deaf.upgrade(path, host: host, origin: origin)?.status == 101)
        // One at a time, so that the first socket opened is the deaf page's.
        #expect(waitFor { opened.withLock { $0.count } == 1 })
        let reader = HTTPProbe(port: server.port)!
        #expect(reader.upgrade(path, host: host, origin: origin)?.status == 101)
        #expect(waitFor { opened.withLock { $0.count } == 2 })
        let sockets = opened.withLock { $0 }
        // More than the kernel's buffers hold (a few MB on loopback), so that the backlog builds up in the server.
        let message = String(repeating: "x", count: 65536)
        var slowest = 0.0
        var sent = 0, received = 0
        while !sockets[0].isClosed && sent < 1000 {
            let started = HTTPProbe.now()
            for socket in sockets { socket.send(message) }
            slowest = max(slowest, HTTPProbe.now() - started)
            sent += 1
            if reader.text(within: 1) == message { received += 1 }
        }
        // Never behind the deaf page: a quarter of a second at most, at the lowest priority beside the live tests.
        #expect(slowest < 0.25, "a send took \(slowest) s")
        #expect(received == sent && sent < 1000, "\(received) of \(sent)")
        #expect(waitFor { sockets[0].isClosed })
        let close = deaf.frame(within: 1)
        #expect(close == nil || close?.opcode == 1, "the deaf page's first frame: \(String(describing: close?.opcode))")
        #expect(!sockets[1].isClosed)
    }
}

/// A value shared between the tests' threads.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}
