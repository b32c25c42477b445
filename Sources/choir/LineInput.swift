import Glibc

/// Standard input read without blocking, for commands that wait for Enter while they work.
struct LineInput {
    /// What came in while waiting.
    enum Event {
        case quiet
        case typed(String)
        /// The end of input: nothing more will come.
        case closed
    }

    private(set) var isOpen = true
    private var buffer = [UInt8](repeating: 0, count: 256)

    /// Waits up to `milliseconds` for input and reads what has come.
    mutating func next(waiting milliseconds: Int32) -> Event {
        guard isOpen else { return .closed }
        var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return .quiet }
        let count = read(0, &buffer, buffer.count)
        guard count > 0 else {
            isOpen = false
            return .closed
        }
        return .typed(String(decoding: buffer[..<count], as: UTF8.self))
    }
}
