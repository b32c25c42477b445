import ChoirTestSupport
import Foundation
import Testing

@testable import ChoirServer

/// The local server under hostile and broken clients, over real sockets: every limit answers with its status or
/// closes, and no client holds up another.
@Suite struct LoopbackServerTests {
    /// The issue's attack: a header line of 1,000,000 bytes, sent as fast as the socket takes it. It gets 431 (or
    /// the connection closes under it) within a second, while another client gets the page within a second, and
    /// the server is left with no connection open.
    @Test func aHugeHeaderIsRefusedWhileAnotherClientIsServed() throws {
        let test = try TestServer()
        let attacker = test.connect()
        let started = HTTPProbe.now()
        let sending = Thread {
            attacker.send("GET \(test.path()) HTTP/1.1\r\nHost: \(test.host)\r\nX-Big: ")
            attacker.send([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000) + Array("\r\n\r\n".utf8))
        }
        sending.start()
        Thread.sleep(forTimeInterval: 0.05)
        let asked = HTTPProbe.now()
        let page = test.get()
        let served = HTTPProbe.now() - asked
        #expect(page?.status == 200 && page?.text == "<p>the page</p>")
        #expect(served < 1, "the page took \(served) s")
        let answer = attacker.response(within: 2)
        #expect(answer == nil || answer?.status == 431, "\(String(describing: answer?.status))")
        #expect(HTTPProbe.now() - started < 2)
        #expect(attacker.closes(within: 2))
        #expect(waitFor { test.server.connections == 0 })
    }

    /// Out of descriptors, the acceptor waits for a client to end and give one back, rather than spinning or
    /// sleeping: the wait ends as the client served ends (0.2 s into its 5), and at once while the server stops.
    @Test func outOfDescriptorsTheAcceptorWaitsForAClientToEnd() throws {
        let registry = ClientRegistry()
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[1]) }
        let client = try #require(ClientSocket(accepted: pair[0]))
        #expect(registry.add(client, limit: 4))
        var started = HTTPProbe.now()
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.2)
            registry.remove(client)
        }
        registry.waitForOneToEnd(until: Date(timeIntervalSinceNow: 5)) { false }
        let waited = HTTPProbe.now() - started
        #expect(waited >= 0.15 && waited < 2.5, "waited \(waited) s")
        started = HTTPProbe.now()
        registry.waitForOneToEnd(until: Date(timeIntervalSinceNow: 5)) { true }
        #expect(HTTPProbe.now() - started < 1)
    }

    /// A head that dribbles in a byte at a time (slowloris) gets 408 once its time is up, and another client is
    /// served meanwhile; a connection that sends nothing is closed after the idle time.
    @Test func slowAndIdleClientsAreCutOff() throws {
        var limits = ServerLimits()
        limits.headSeconds = 1
        limits.idleSeconds = 0.5
        let test = try TestServer(limits)
        let slow = test.connect()
        let started = Locked(0.0)
        let dribbling = Thread {
            started.withLock { $0 = HTTPProbe.now() }
            for byte in HTTPProbe.request(test.path(), host: test.host) {
                guard slow.send([byte]) else { return }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        dribbling.start()
        Thread.sleep(forTimeInterval: 0.3)
        let asked = HTTPProbe.now()
        #expect(test.get()?.status == 200)
        #expect(HTTPProbe.now() - asked < 0.5)
        // Its head would take 6 s; it is cut off a second after its first byte (and a moment for a busy machine).
        let answer = slow.response(within: 5)
        let took = HTTPProbe.now() - started.withLock { $0 }
        #expect(answer?.status == 408 && (0.9..<2.5).contains(took), "\(String(describing: answer?.status)) after \(took) s")

        let idle = test.connect()
        let opened = HTTPProbe.now()
        #expect(idle.closes(within: 2))
        #expect((0.4..<1).contains(HTTPProbe.now() - opened), "closed after \(HTTPProbe.now() - opened) s")
        // Kept open after an answer, a connection is closed after the idle time too.
        let kept = test.connect()
        kept.send(HTTPProbe.request(test.path(), host: test.host))
        #expect(kept.response()?.status == 200)
        #expect(kept.closes(within: 2))
    }

    /// The DNS-rebinding defence: a Host other than the printed address, or an Origin of another site, gets 403
    /// on every request; a WebSocket or a command (POST) without the page's Origin gets 403 too. The page's own
    /// requests pass.
    @Test func aForeignHostOrOriginIsRefused() throws {
        let test = try TestServer()
        let refused: [(String, [UInt8])] = [
            ("foreign Host", HTTPProbe.request(test.path(), host: "evil.com")),
            ("foreign Host with our port", HTTPProbe.request(test.path(), host: "evil.com:\(test.port)")),
            ("localhost", HTTPProbe.request(test.path(), host: "localhost:\(test.port)")),
            ("no Host", Array("GET \(test.path()) HTTP/1.1\r\n\r\n".utf8)),
            ("foreign Origin", HTTPProbe.request(test.path(), host: test.host, origin: "http://evil.com")),
            ("null Origin", HTTPProbe.request(test.path(), host: test.host, origin: "null")),
            ("POST without Origin", HTTPProbe.request(test.path("echo"), method: "POST", host: test.host, body: [1])),
            (
                "POST from another site",
                HTTPProbe.request(test.path("echo"), method: "POST", host: test.host, origin: "http://evil.com", body: [1])
            ),
        ]
        for (what, request) in refused {
            let answer = test.ask(request)
            #expect(answer?.status == 403, "\(what): \(String(describing: answer?.status))")
        }
        for (host, origin) in [
            ("evil.com", "http://evil.com"), (test.host, "http://evil.com"), (test.host, nil), ("evil.com", test.origin),
        ] {
            let answer = test.connect().upgrade(test.path("live"), host: host, origin: origin)
            #expect(answer?.status == 403, "WebSocket from \(host), \(origin ?? "no Origin"): \(String(describing: answer?.status))")
        }
        #expect(test.get()?.status == 200)
        #expect(
            test.ask(HTTPProbe.request(test.path("echo"), method: "POST", host: test.host, origin: test.origin, body: [1, 2]))?.body == [
                1, 2,
            ])
        #expect(test.connect().upgrade(test.path("live"), host: test.host, origin: test.origin)?.status == 101)
    }

    /// Every path carries the token (403 without it or with another); a route has its methods (405, with Allow)
    /// and parameters; any other path is 404.
    @Test func theTokenAndTheRoutes() throws {
        let test = try TestServer()
        let reversed = String(test.server.token.reversed())
        for path in ["/", "/\(reversed)/", "/echo", "/\(test.server.token.dropLast())/"] {
            #expect(test.ask(HTTPProbe.request(path, host: test.host))?.status == 403, "\(path)")
        }
        let bare = test.ask(HTTPProbe.request("/\(test.server.token)", host: test.host))
        #expect(bare?.status == 308 && bare?.header("location") == test.path())
        #expect(test.get("etc/passwd")?.status == 404)
        #expect(test.get("..%2F..%2Fetc%2Fpasswd")?.status == 404)
        let wrongMethod = test.get("echo")
        #expect(wrongMethod?.status == 405 && wrongMethod?.header("allow") == "POST")
        let created = test.ask(
            HTTPProbe.request(test.path("scores/a%20b/notes?verse=2"), method: "POST", host: test.host, origin: test.origin))
        #expect(created?.status == 201 && created?.text == "201 Created: score a b, 2\n")
        let asking = test.connect()
        asking.send(HTTPProbe.request(test.path(), method: "HEAD", host: test.host))
        let head = asking.response(head: true)
        #expect(head?.status == 200 && head?.header("content-length") == "15" && head?.body.isEmpty == true)
        let page = try #require(test.get())
        #expect(page.header("referrer-policy") == "no-referrer" && page.header("cache-control") == "no-store")
    }

    /// The request line over 8 kB gets 414; header fields over 32 kB or over 100 of them get 431; a malformed line,
    /// a folded field or a space before a colon gets 400. None is kept open.
    @Test func theHeadsLimits() throws {
        let test = try TestServer()
        let cases: [(String, [UInt8], Int)] = [
            ("a long request line", Array("GET \(test.path())?\(String(repeating: "x", count: 9000)) HTTP/1.1\r\n".utf8), 414),
            (
                "a long field", HTTPProbe.request(test.path(), host: test.host, fields: ["X-Big: " + String(repeating: "a", count: 40000)]),
                431
            ),
            ("101 fields", HTTPProbe.request(test.path(), host: test.host, fields: (0...100).map { "X-\($0): 1" }), 431),
            ("HTTP/2", Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8), 400),
            ("no version", Array("GET \(test.path())\r\nHost: \(test.host)\r\n\r\n".utf8), 400),
            ("a folded field", Array("GET \(test.path()) HTTP/1.1\r\nHost: \(test.host)\r\nX-A: 1\r\n 2\r\n\r\n".utf8), 400),
            ("space before a colon", Array("GET \(test.path()) HTTP/1.1\r\nHost : \(test.host)\r\n\r\n".utf8), 400),
            ("an absolute target", HTTPProbe.request("http://\(test.host)\(test.path())", host: test.host), 400),
        ]
        for (what, request, status) in cases {
            let probe = test.connect()
            probe.send(request)
            let answer = probe.response()
            #expect(answer?.status == status, "\(what): \(String(describing: answer?.status))")
            #expect(probe.closes(within: 2), "\(what)")
        }
    }

    /// Bodies by length and in chunks reach the handler whole; `Expect: 100-continue` is answered first. A body
    /// over the limit gets 413 before it is sent; one that does not arrive in time gets 408.
    @Test func bodiesAreReadWholeWithinTheirLimits() throws {
        var limits = ServerLimits()
        limits.body = 1000
        limits.bodySeconds = 0.5
        let test = try TestServer(limits)
        let body = (0..<1000).map { UInt8($0 % 251) }
        #expect(
            test.ask(HTTPProbe.request(test.path("echo"), method: "POST", host: test.host, origin: test.origin, body: body))?.body == body)
        let chunked =
            Array(
                "POST \(test.path("echo")) HTTP/1.1\r\nHost: \(test.host)\r\nOrigin: \(test.origin)\r\nTransfer-Encoding: chunked\r\n\r\n"
                    .utf8)
            + Array("4;ext=1\r\nabcd\r\n0A\r\n0123456789\r\n0\r\nX-Trailer: 1\r\n\r\n".utf8)
        #expect(test.ask(chunked)?.text == "abcd0123456789")

        let waiting = test.connect()
        waiting.send(
            "POST \(test.path("echo")) HTTP/1.1\r\nHost: \(test.host)\r\nOrigin: \(test.origin)\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n"
        )
        #expect(waiting.response()?.status == 100)
        waiting.send("abc")
        #expect(waiting.response()?.text == "abc")

        let tooLarge = test.connect()
        tooLarge.send("POST \(test.path("echo")) HTTP/1.1\r\nHost: \(test.host)\r\nOrigin: \(test.origin)\r\nContent-Length: 1001\r\n\r\n")
        #expect(tooLarge.response(within: 1)?.status == 413)
        let tooManyChunks =
            Array(
                "POST \(test.path("echo")) HTTP/1.1\r\nHost: \(test.host)\r\nOrigin: \(test.origin)\r\nTransfer-Encoding: chunked\r\n\r\n"
                    .utf8)
            + Array("3E9\r\n".utf8)
        #expect(test.ask(tooManyChunks)?.status == 413)
        let both = Array(
            "POST \(test.path("echo")) HTTP/1.1\r\nHost: \(test.host)\r\nOrigin: \(test.origin)\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n"
                .utf8)
        #expect(test.ask(both)?.status == 400)
        let short = test.connect()
        short.send("POST \(test.path("echo")) HTTP/1.1\r\nHost: \(test.host)\r\nOrigin: \(test.origin)\r\nContent-Length: 10\r\n\r\nabc")
        let started = HTTPProbe.now()
        #expect(short.response(within: 2)?.status == 408)
        #expect(HTTPProbe.now() - started < 1)
    }

    /// Requests sent together are answered in order on one connection; HTTP/1.0 without keep-alive is closed
    /// after its answer.
    @Test func keptAliveAndPipelined() throws {
        let test = try TestServer()
        let probe = test.connect()
        probe.send(
            HTTPProbe.request(test.path(), host: test.host)
                + HTTPProbe.request(test.path("echo"), method: "POST", host: test.host, origin: test.origin, body: Array("second".utf8)))
        #expect(probe.response()?.text == "<p>the page</p>")
        #expect(probe.response()?.text == "second")
        let old = test.connect()
        old.send("GET \(test.path()) HTTP/1.0\r\nHost: \(test.host)\r\n\r\n")
        #expect(old.response()?.status == 200)
        #expect(old.closes(within: 1))
    }

    /// With `connections` clients each in the middle of a request (its head read, its body coming), one more gets
    /// 503 at once; once one leaves, the next is served.
    @Test func oneConnectionTooManyGets503() throws {
        var limits = ServerLimits()
        limits.connections = 4
        let test = try TestServer(limits)
        var held = (0..<4).map { _ in
            let probe = test.connect()
            probe.send(
                "POST \(test.path("echo")) HTTP/1.1\r\nHost: \(test.host)\r\nOrigin: \(test.origin)\r\nContent-Length: 100\r\n\r\nab")
            return probe
        }
        #expect(waitFor { test.server.connections == 4 })
        Thread.sleep(forTimeInterval: 0.2)
        let extra = test.connect()
        #expect(extra.response(within: 1)?.status == 503)
        held.removeLast()
        #expect(waitFor { test.server.connections == 3 })
        #expect(test.get()?.status == 200)
    }

    /// A client that opens every connection the server serves and sends nothing (nor the end of a head) holds no
    /// one up: with 64 such, the page is answered within a second, by the place of the one that waited longest,
    /// which is closed; the others stay open.
    @Test func idleConnectionsMakeWayForTheirPage() throws {
        let test = try TestServer()
        let first = test.connect()
        #expect(waitFor { test.server.connections == 1 })
        Thread.sleep(forTimeInterval: 0.3)
        let idle =
            [first]
            + (1..<64).map { index in
                let probe = test.connect()
                if index % 2 == 1 { probe.send("GET \(test.path()) HTTP/1.1\r\nHo") }
                return probe
            }
        #expect(waitFor { test.server.connections == 64 })
        Thread.sleep(forTimeInterval: 0.2)
        let started = HTTPProbe.now()
        let page = test.get()
        let took = HTTPProbe.now() - started
        #expect(page?.status == 200 && took < 1, "\(String(describing: page?.status)) after \(took) s")
        print("the page with 64 idle connections open: \(String(describing: page?.status)) in \(took) s")
        #expect(idle[0].closes(within: 1))
        #expect(test.server.connections <= 64)
        #expect(!idle[2].closes(within: 0.2))
    }

    /// Stopping ends every client within a second, whatever each is doing: one dribbling its head, one in the
    /// middle of a body, one idle, a WebSocket that reads nothing while messages pile up for it, and one whose
    /// handler takes three seconds (given up on). Each sees its connection close.
    @Test func stoppingEndsEveryClientWithinASecond() throws {
        // Time enough that no limit ends a client before the stop does, on however busy a machine.
        var limits = ServerLimits()
        (limits.headSeconds, limits.idleSeconds, limits.bodySeconds) = (60, 60, 60)
        let test = try TestServer(limits)
        let dribbling = test.connect()
        dribbling.send("GET \(test.path()) HTTP/1.1\r\nHo")
        let body = test.connect()
        body.send("POST \(test.path("echo")) HTTP/1.1\r\nHost: \(test.host)\r\nOrigin: \(test.origin)\r\nContent-Length: 100\r\n\r\nab")
        let idle = test.connect()
        let deaf = try #require(test.webSocket())
        for _ in 0..<200 { deaf.send(HTTPProbe.frame(opcode: 1, Array(repeating: 0x61, count: 10_000))) }
        let slow = test.connect()
        slow.send(HTTPProbe.request(test.path("slow"), host: test.host))
        #expect(waitFor { test.server.connections == 5 })
        Thread.sleep(forTimeInterval: 0.2)
        let started = HTTPProbe.now()
        test.server.stop()
        let took = HTTPProbe.now() - started
        #expect(took < 1.2, "stop took \(took) s")
        for (what, probe) in [("dribbling", dribbling), ("body", body), ("idle", idle), ("deaf WebSocket", deaf)] {
            #expect(probe.closes(within: 1), "\(what)")
        }
        #expect(HTTPProbe(port: test.port) == nil, "still listening")
    }

    /// Stopping returns as soon as the last client's thread has ended (each signals as it does), not at the
    /// second it allows a handler: with no handler running it takes a few milliseconds, and no client is left.
    @Test func stoppingReturnsOnceTheLastClientHasEnded() throws {
        var limits = ServerLimits()
        (limits.headSeconds, limits.idleSeconds, limits.bodySeconds) = (60, 60, 60)
        let test = try TestServer(limits)
        let dribbling = test.connect()
        dribbling.send("GET \(test.path()) HTTP/1.1\r\nHo")
        let idle = (0..<3).map { _ in test.connect() }
        let live = try #require(test.webSocket())
        #expect(waitFor { test.server.connections == 5 })
        let started = HTTPProbe.now()
        test.server.stop()
        let took = HTTPProbe.now() - started
        #expect(test.server.connections == 0)
        #expect(took < 0.3, "stop took \(took) s")
        print("stop with 5 clients: \(String(format: "%.1f", took * 1000)) ms")
        for probe in [dribbling, live] + idle { #expect(probe.closes(within: 1)) }
    }

    /// The handshake's accept key is RFC 6455's own example's.
    @Test func theAcceptKeyIsTheRFCs() throws {
        let test = try TestServer()
        let answer = test.connect().upgrade(test.path("live"), host: test.host, origin: test.origin)
        #expect(answer?.status == 101 && answer?.header("sec-websocket-accept") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }
}

/// Whether `condition` holds within `seconds`.
func waitFor(_ seconds: Double = 3, _ condition: () -> Bool) -> Bool {
    let deadline = HTTPProbe.now() + seconds
    while HTTPProbe.now() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}
