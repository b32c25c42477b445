import ChoirAudio
import FlyingFox
import Foundation

/// The tabs watching one session, each on its WebSocket: one writer sends them all the same messages (a tab that
/// joins late is first sent the whole state), and what the tabs send comes back to one handler.
public final class ViewHub: WSMessageHandler, @unchecked Sendable {
    /// A message from a tab: a command (`{"command":"tempo","by":5}`) or a frame painted (`{"painted":12}`).
    public struct Incoming: Decodable, Sendable {
        public var command: String?
        public var by: Int?
        public var measure: Int?
        public var painted: Int?
    }

    private struct Tab {
        var continuation: AsyncStream<WSMessage>.Continuation
        var greeted = false
    }

    private let tabs = Locked<[Int: Tab]>([:])
    private let nextTab = Locked(0)
    private let receive: @Sendable (Incoming) -> Void

    /// `receive` is called on the server's tasks with each message a tab sends.
    public init(receive: @escaping @Sendable (Incoming) -> Void) {
        self.receive = receive
    }

    /// How many tabs are watching.
    public var count: Int { tabs.withLock { $0.count } }

    /// Sends `message` to every tab that has had the whole state, and the messages `whole()` gives to those that
    /// have not.
    public func publish(_ message: String, whole: () -> [String]) {
        tabs.withLock { tabs in
            var greeting: [String]?
            for id in tabs.keys {
                if tabs[id]!.greeted {
                    tabs[id]!.continuation.yield(.text(message))
                } else {
                    if greeting == nil { greeting = whole() }
                    for text in greeting! { tabs[id]!.continuation.yield(.text(text)) }
                    tabs[id]!.greeted = true
                }
            }
        }
    }

    /// Whether a tab is waiting for the whole state.
    public var hasNewTab: Bool { tabs.withLock { $0.values.contains { !$0.greeted } } }

    public func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        let (stream, continuation) = AsyncStream<WSMessage>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id = nextTab.withLock { next in
            defer { next += 1 }
            return next
        }
        tabs.withLock { $0[id] = Tab(continuation: continuation) }
        let receive = self.receive
        Task { [tabs] in
            let decoder = JSONDecoder()
            for await message in client {
                guard case .text(let text) = message, let incoming = try? decoder.decode(Incoming.self, from: Data(text.utf8)) else {
                    continue
                }
                receive(incoming)
            }
            _ = tabs.withLock { $0.removeValue(forKey: id) }
            continuation.finish()
        }
        return stream
    }

    /// Closes every tab's socket.
    public func close() {
        tabs.withLock { tabs in
            for tab in tabs.values { tab.continuation.finish() }
            tabs.removeAll()
        }
    }
}
