/// Every limit a client meets: how much it may send and how long it may take. The defaults suit a page on
/// loopback; a client past any of them gets its answer (414, 431, 413, 408, 503) or is closed, and never holds up
/// another.
public struct ServerLimits: Sendable {
    /// The longest request line (method, target and version), in bytes; longer gets 414.
    public var requestLine = 8 * 1024
    /// The most bytes of request line and header fields together; more gets 431.
    public var head = 32 * 1024
    /// The most header fields; more gets 431.
    public var headerFields = 100
    /// Seconds from a request's first byte to the end of its header fields; slower gets 408.
    public var headSeconds = 5.0
    /// Seconds an open connection may wait for a request (its first, or the next) before it is closed.
    public var idleSeconds = 15.0
    /// The largest request body, in bytes; larger gets 413.
    public var body = 32 * 1024 * 1024
    /// Seconds from the end of the header fields to the end of the body; slower gets 408.
    public var bodySeconds = 30.0
    /// Seconds a client has to take a whole response before its connection is closed.
    public var writeSeconds = 10.0
    /// Connections served at once. One more takes the place of the connection that has waited longest for a
    /// request's head (it is closed); when every one is past its head, the newcomer is answered 503 and closed.
    public var connections = 64
    /// The largest WebSocket message, in bytes; larger closes the socket (1009).
    public var message = 1024 * 1024
    /// Bytes queued for a WebSocket whose reader does not keep up; more closes it (1013: try again later).
    public var backlog = 4 * 1024 * 1024
    /// Seconds a WebSocket may be silent before it is pinged; as long again without a word from it closes it.
    public var pingSeconds = 15.0

    public init() {}
}
