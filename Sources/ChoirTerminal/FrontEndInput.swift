import ChoirSession
import Glibc

/// What a front end waits for while a session runs, in one stream: the session's events (a practice session's, a
/// tuner's), the keys pressed on the terminal (or the lines typed without one), and a signal. Nothing feeding it
/// sleeps: the events come as the session publishes them, the keys from a thread blocked in `poll()` on standard
/// input, a signal from the ``SignalWatcher``'s thread.
public enum FrontEndInput<Event: Sendable>: Sendable {
    case event(Event)
    case key(RawTerminal.KeyPress)
    case line(String)
    /// Standard input has ended: nothing more will be typed.
    case closed
    case signal(Int32)

    /// The session's `events` (the stream ends after their last), standard input read as `typing`, and the first
    /// signal; `stop` ends the stream and every thread and task feeding it, and must be called once done with it.
    public static func stream(_ events: AsyncStream<Event>, typing: InputTyping, signals: SignalWatcher)
        -> (inputs: AsyncStream<FrontEndInput>, stop: @Sendable () -> Void)
    {
        let (inputs, continuation) = AsyncStream<FrontEndInput>.makeStream()
        let following = Task {
            for await event in events { continuation.yield(.event(event)) }
            continuation.finish()
        }
        let signalled = Task {
            for await signal in signals.arrivals() where signal != 0 { continuation.yield(.signal(signal)) }
        }
        let reader =
            typing == .none
            ? nil
            : InputReader(typing) { typed in
                switch typed {
                case .key(let key): continuation.yield(.key(key))
                case .line(let line): continuation.yield(.line(line))
                case .closed: continuation.yield(.closed)
                case .signal, .event: break
                }
            }
        return (
            inputs,
            {
                following.cancel()
                signalled.cancel()
                reader?.stop()
                continuation.finish()
            }
        )
    }
}

extension FrontEndInput where Event == Never {
    /// Waits for a line on standard input that `ends` (one ended by Enter, unless told), a signal, or (`orEnd`) the
    /// end of input.
    public static func line(signals: SignalWatcher, orEnd: Bool, ends: (String) -> Bool = { $0.contains(Character("\n")) }) async {
        let (inputs, stop) = stream(AsyncStream { _ in }, typing: .lines, signals: signals)
        defer { stop() }
        for await input in inputs {
            switch input {
            case .line(let text): if ends(text) { return }
            case .signal: return
            case .closed: if orEnd { return }
            case .event, .key: continue
            }
        }
    }
}

/// What standard input brings: nothing to watch, single keys (a raw terminal), or lines.
public enum InputTyping: Sendable {
    case none, keys, lines
}

/// Standard input read on a thread of its own, which waits in `poll()` for input or for ``stop()``.
private final class InputReader: @unchecked Sendable {
    private let typing: InputTyping
    /// Hands on what was typed: a key, a line, or the end of the input.
    private let deliver: @Sendable (FrontEndInput<Never>) -> Void
    /// Written to by ``stop()``; the thread watches its other end.
    private var wake: [Int32] = [-1, -1]
    private var thread = pthread_t()
    private var started = false

    init(_ typing: InputTyping, deliver: @escaping @Sendable (FrontEndInput<Never>) -> Void) {
        self.typing = typing
        self.deliver = deliver
        guard pipe(&wake) == 0 else { return }
        let context = Unmanaged.passRetained(self).toOpaque()
        started =
            pthread_create(
                &thread, nil,
                { context in
                    let reader = Unmanaged<InputReader>.fromOpaque(context!).takeRetainedValue()
                    reader.read()
                    return nil
                }, context) == 0
        if !started { Unmanaged<InputReader>.fromOpaque(context).release() }
    }

    /// Ends the thread, before it takes any more input.
    func stop() {
        guard started else { return }
        var byte: UInt8 = 0
        _ = write(wake[1], &byte, 1)
        pthread_join(thread, nil)
        started = false
        close(wake[0])
        close(wake[1])
    }

    private func read() {
        var descriptors = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            guard poll(&descriptors, 2, -1) >= 0 || errno == EINTR else { return }
            if descriptors[1].revents != 0 { return }
            guard descriptors[0].revents != 0 else { continue }
            if typing == .keys {
                var pressed = false
                while let key = RawTerminal.readPress() {
                    deliver(.key(key))
                    pressed = true
                }
                // A terminal that has gone reads nothing, ever: stop watching it rather than spin.
                if !pressed && descriptors[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { descriptors[0].fd = -1 }
                continue
            }
            let count = Glibc.read(0, &buffer, buffer.count)
            guard count > 0 else {
                deliver(.closed)
                // Nothing more to read: wait for the stop alone.
                descriptors[0].fd = -1
                continue
            }
            deliver(.line(String(decoding: buffer[..<count], as: UTF8.self)))
        }
    }
}
