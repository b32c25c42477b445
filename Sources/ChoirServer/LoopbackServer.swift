import Foundation
import Glibc
import Synchronization

/// An HTTP/1.1 and WebSocket server for a local page that takes commands: on 127.0.0.1 only, on a port the
/// system picks, every address under an unguessable token. Each request must name the printed address as its
/// Host, and a WebSocket or a request that changes something must come from a page of that address (its Origin):
/// another site's page, even one that has pointed its own name at 127.0.0.1, is refused (403).
///
/// Every client has a thread of its own and meets ``ServerLimits``, so that none can hold up another; at most
/// `connections` are served at once, and at that cap the one that has waited longest for a request's head makes
/// way for a newcomer. ``stop()`` returns within about a second whatever the clients are doing.
public final class LoopbackServer: Sendable {
    public let port: UInt16
    /// The secret first segment of every path.
    public let token: String
    private let listener: Int32
    private let wake: WakePipe
    private let site: Connection.Site
    private let stopping = Atomic<Bool>(false)
    private let clients = ClientRegistry()

    /// The page's address, token included: `http://127.0.0.1:PORT/TOKEN/`.
    public var address: String { "http://127.0.0.1:\(port)/\(token)/" }

    /// Listens and starts serving `router`'s routes; `headers` are added to every answer (a page's
    /// Content-Security-Policy, say).
    public init(router: Router, limits: ServerLimits = ServerLimits(), headers: [(name: String, value: String)] = []) throws(ServerError) {
        token = (0..<2).map { _ in String(UInt64.random(in: .min ... .max), radix: 16).leftPadded(to: 16) }.joined()
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ServerError.system("cannot open a socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        guard bound == 0, listen(descriptor, 128) == 0, named == 0 else {
            let error = ServerError.system("cannot listen on 127.0.0.1")
            close(descriptor)
            throw error
        }
        guard let wake = WakePipe() else {
            close(descriptor)
            throw ServerError.system("cannot make a pipe")
        }
        listener = descriptor
        self.wake = wake
        port = UInt16(bigEndian: address.sin_port)
        site = Connection.Site(port: port, token: token, router: router, limits: limits, headers: headers)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Stops listening and closes every connection (a WebSocket is told so first); returns once every client's
    /// thread has ended, or after a second at most for one still in a handler.
    public func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake.signal()
        clients.wakeAll()
        clients.waitUntilAllEnd(until: Date(timeIntervalSinceNow: 1))
    }

    /// Connections being served now.
    public var connections: Int { clients.count }

    private var isStopping: Bool { stopping.load(ordering: .acquiring) }

    private func acceptLoop() {
        defer {
            close(listener)
            wake.close()
            clients.acceptorEnded()
        }
        while !isStopping {
            var fds = [
                pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.reading, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { return }
            guard fds[0].revents & Int16(POLLIN) != 0, !isStopping else { continue }
            let descriptor = accept(listener, nil, nil)
            guard descriptor >= 0 else {
                // Out of descriptors: wait for a client to end and give one back rather than spinning (a second
                // at most, as others may be holding them).
                if errno == EMFILE || errno == ENFILE { clients.waitForOneToEnd(until: Date(timeIntervalSinceNow: 1)) { isStopping } }
                continue
            }
            guard let client = ClientSocket(accepted: descriptor) else {
                close(descriptor)
                continue
            }
            guard clients.add(client, limit: site.limits.connections) else {
                let busy = HTTPResponse.plain(503, "\(site.limits.connections) connections are open already")
                _ = busy.serialized(closing: true, extra: []).withUnsafeBytes { client.writeAvailable($0) }
                client.close()
                continue
            }
            let connection = Connection(socket: client, site: site, stopping: { [self] in isStopping })
            Thread.detachNewThread { [clients] in
                connection.serve()
                clients.remove(client)
            }
        }
    }
}

/// Why the server cannot start.
public struct ServerError: Error, CustomStringConvertible {
    public var description: String

    static func system(_ what: String) -> ServerError { ServerError(description: "\(what): \(String(cString: strerror(errno)))") }
}

/// The connections being served, so that stopping can wake each and wait for them; the condition is signalled as
/// each client's thread ends, and as the acceptor's does.
final class ClientRegistry: @unchecked Sendable {
    private let lock = NSCondition()
    private var clients: [ObjectIdentifier: ClientSocket] = [:]
    /// Whether the acceptor's thread may still add clients.
    private var accepting = true

    var count: Int { lock.withLock { clients.count } }

    /// Adds `client` unless `limit` are being served already and none of them is waiting for a request's head;
    /// if one is, the one that has waited longest yields its place (a client that connects and sends nothing holds
    /// no one up).
    func add(_ client: ClientSocket, limit: Int) -> Bool {
        lock.withLock {
            if clients.count >= limit {
                let waiting = clients.compactMap { key, client in client.waiting.map { (key, client, $0) } }
                guard let oldest = waiting.min(by: { $0.2 < $1.2 }), oldest.1.yieldPlace() else { return false }
                clients.removeValue(forKey: oldest.0)
            }
            clients[ObjectIdentifier(client)] = client
            return true
        }
    }

    func remove(_ client: ClientSocket) {
        client.close()
        lock.withLock {
            clients.removeValue(forKey: ObjectIdentifier(client))
            lock.broadcast()
        }
    }

    func wakeAll() {
        lock.withLock {
            for client in clients.values { client.wakeUp() }
            lock.broadcast()
        }
    }

    /// Waits, until `deadline` at most, for one of the clients served now to end, or for `stopping`.
    func waitForOneToEnd(until deadline: Date, stopping: () -> Bool) {
        lock.withLock {
            let served = Set(clients.keys)
            while served.isSubset(of: clients.keys) && !stopping() && lock.wait(until: deadline) {}
        }
    }

    func acceptorEnded() {
        lock.withLock {
            accepting = false
            lock.broadcast()
        }
    }

    /// Waits, until `deadline` at most, for the acceptor to end and then every client; the clients it added after
    /// the server began stopping are woken once it has.
    func waitUntilAllEnd(until deadline: Date) {
        lock.withLock {
            while accepting && lock.wait(until: deadline) {}
            for client in clients.values { client.wakeUp() }
            while !clients.isEmpty && lock.wait(until: deadline) {}
        }
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
