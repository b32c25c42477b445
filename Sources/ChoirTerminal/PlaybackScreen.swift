import ChoirSession

/// What `choir play` and `choir view` show and take while the mix plays: on a terminal, one status line
/// (``PlaybackLine``) and the keys; without one, a line as each measure starts (and, for the view, as the music
/// pauses or plays on), and for the view the lines typed, a line ending it.
public final class PlaybackScreen {
    /// Whose screen: `choir play`'s (the score's `tempo` shown; space pauses, q ends), or `choir view`'s (every key
    /// of the live view).
    public enum Mode: Sendable {
        case play(tempo: Double)
        case view
    }

    private let terminal: RawTerminal?

    /// Takes the terminal in raw mode, if there is one.
    public init() { terminal = RawTerminal() }

    /// Whether a terminal shows the status line and takes the keys.
    public var onTerminal: Bool { terminal != nil }

    /// Draws `events` of `session` until they end, q (play) or a line typed (view) or a signal ends them.
    public func follow(_ events: AsyncStream<SessionEvent>, of session: any SteeredSession, as mode: Mode, signals: SignalWatcher) async {
        let typing: InputTyping
        switch mode {
        case .play: typing = terminal == nil ? .none : .keys
        case .view: typing = terminal == nil ? .lines : .keys
        }
        let (inputs, stop) = FrontEndInput.stream(events, typing: typing, signals: signals)
        defer { stop() }
        var now = SessionSnapshot(), shown = SessionSnapshot(), line = ""
        shown.paused = true
        following: for await input in inputs {
            switch input {
            case .event(let event):
                now.apply(event)
                guard let terminal else {
                    printChanges(now, after: &shown, as: mode)
                    continue
                }
                let drawn: String
                switch mode {
                case .play(let tempo): drawn = PlaybackLine.playing(now, tempo: tempo)
                case .view: drawn = PlaybackLine.viewing(now)
                }
                if drawn != line { terminal.show(drawn) }
                line = drawn
            case .key(let key):
                switch mode {
                case .play:
                    if key == .character(UInt8(ascii: "q")) { break following }
                    if key == .character(UInt8(ascii: " ")) { session.send(.togglePause) }
                case .view: if let command = SessionScreen.command(for: key) { session.send(command) }
                }
            // A line ends the view; the end of input leaves the page in charge (a launcher gives no terminal).
            case .line(let text): if text.contains(Character("\n")) { break following }
            case .closed: break
            case .signal: break following
            }
        }
    }

    /// Without a terminal, prints what changed since `shown`: the measure (play: and the pass) and, for the view,
    /// whether the music plays.
    private func printChanges(_ now: SessionSnapshot, after shown: inout SessionSnapshot, as mode: Mode) {
        guard now.measure != "-" else { return }
        switch mode {
        case .play:
            if (now.pass, now.measure) != (shown.pass, shown.measure) { FileOutput.write(PlaybackLine.measure(now) + "\n") }
        case .view:
            guard now.measure != shown.measure || now.paused != shown.paused else { return }
            if now.paused != shown.paused { FileOutput.write(now.paused ? "paused\n" : "playing\n") }
            if now.measure != shown.measure { FileOutput.write("measure \(now.measure)\n") }
        }
        shown = now
    }

    /// Gives the terminal back.
    public func close() { terminal?.restore() }
}
