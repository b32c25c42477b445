import ChoirBase
import ChoirServer
import Foundation

/// The tabs watching one session, each on its WebSocket: one writer sends them all the same messages (a tab that
/// joins late is first sent the whole state), and what the tabs send comes back to one handler.
public final class ViewHub: Sendable {
    /// A message from a tab: a command (`{"command":"tempo","by":5}`, `{"command":"loop","from":3,"to":5}`) or a
    /// frame painted (`{"painted":12,"at":…}`).
    public struct Incoming: Decodable, Sendable {
        public var command: String?
        public var by: Int?
        public var measure: Int?
        /// A loop's first and last measures as played.
        public var from: Int?
        public var to: Int?
        public var painted: Int?
        /// When the tab painted it, in ms since 1970 on its clock: the server's own, since it serves 127.0.0.1 alone.
        public var at: Double?
    }

    private struct Tab {
        var socket: WebSocket
        var greeted = false
    }

    private let tabs = Locked<[Int: Tab]>([:])
    private let nextTab = Locked(0)
    private let receive: @Sendable (Incoming) -> Void
    private let joined: @Sendable () -> Void

    /// `receive` is called on the server's threads with each message a tab sends, and `joined` each time a tab
    /// opens (to ``greet(_:)`` it).
    public init(receive: @escaping @Sendable (Incoming) -> Void, joined: @escaping @Sendable () -> Void = {}) {
        self.receive = receive
        self.joined = joined
    }

    /// How many tabs are watching.
    public var count: Int { tabs.withLock { $0.count } }

    /// Sends `message` to every tab that has had the whole state, and the messages `whole()` gives to those that
    /// have not. Sending only queues: a slow tab holds up no other.
    public func publish(_ message: String, whole: () -> [String]) {
        tabs.withLock { tabs in
            var greeting: [String]?
            for id in tabs.keys {
                if tabs[id]!.greeted {
                    tabs[id]!.socket.send(message)
                } else {
                    if greeting == nil { greeting = whole() }
                    for text in greeting! { tabs[id]!.socket.send(text) }
                    tabs[id]!.greeted = true
                }
            }
        }
    }

    /// Sends the tabs that have not had the whole state the messages `whole()` gives.
    public func greet(_ whole: () -> [String]) {
        tabs.withLock { tabs in
            var greeting: [String]?
            for id in tabs.keys where !tabs[id]!.greeted {
                if greeting == nil { greeting = whole() }
                for text in greeting! { tabs[id]!.socket.send(text) }
                tabs[id]!.greeted = true
            }
        }
    }

    /// Takes a tab's WebSocket as it opens.
    public func open(_ socket: WebSocket) -> WebSocket.Handlers {
        let id = nextTab.withLock { next in
            defer { next += 1 }
            return next
        }
        tabs.withLock { $0[id] = Tab(socket: socket) }
        joined()
        let receive = self.receive
        return WebSocket.Handlers(
            text: { text in
                guard let incoming = try? JSONDecoder().decode(Incoming.self, from: Data(text.utf8)) else { return }
                receive(incoming)
            },
            closed: { [tabs] in _ = tabs.withLock { $0.removeValue(forKey: id) } })
    }

    /// Closes every tab's socket.
    public func close() {
        tabs.withLock { tabs in
            for tab in tabs.values { tab.socket.close(code: 1001, reason: "the session has ended") }
            tabs.removeAll()
        }
    }
}
