import ChoirBase
import ChoirPractice
import ChoirSession

/// What a singer sees and presses while a live session runs: on a terminal the live view and the keys; otherwise
/// one line per measure judged. A recorded take is judged without a screen.
public final class SessionScreen {
    private var terminal: RawTerminal?
    private var view = LiveView(title: "", cues: LiveCues(notes: [], lyrics: []))
    private var shownMeasure = ""
    private var lastDrawn = 0
    /// How long after its newest sample reached the converter each drawn frame was on screen.
    private var lags = DelayTally()

    /// The analysis window's newest sample to its centre, in ms, for the delay summary.
    public private(set) var halfWindowMilliseconds = 0

    /// A screen not yet showing a session.
    public init() {}

    /// Runs `session` to its end: keys become commands, its events are drawn (with `context`, what the session is
    /// part of: a drill's passage, pass and tempo, or a plan's item), and a signal cancels it. Returns its outcome, or
    /// throws why it could not start.
    public func run(_ session: PracticeSession, context: String? = nil, signals: SignalWatcher) async throws(SessionError)
        -> PracticeSession.Outcome
    {
        view = LiveView(title: "\(session.resolved.title) — \(session.header.part)", cues: LiveCues(session), context: context)
        halfWindowMilliseconds = Int(session.halfWindow * 1000 + 1e-6)
        let events = session.events()
        let live = !session.plan.input.isTake
        // Each live session has the screen while it runs; between a drill's passes the terminal shows their lines.
        if live {
            terminal = RawTerminal()
            terminal?.enterFullScreen()
        }
        defer { close() }
        try session.start()
        let (inputs, stop) = FrontEndInput.stream(events, typing: terminal == nil ? .none : .keys, signals: signals)
        defer { stop() }
        var snapshot = SessionSnapshot()
        for await input in inputs {
            switch input {
            case .event(let event):
                snapshot.apply(event)
                // A recorded take is judged without a screen.
                if live { show(snapshot, after: event) }
            case .key(let key): if let command = Self.command(for: key) { session.send(command) }
            case .signal: session.cancel()
            case .line, .closed: break
            }
        }
        return session.wait()
    }

    /// The session command a key asks for, as the live view's help line says; nil for a key that asks none.
    public static func command(for key: RawTerminal.KeyPress) -> SessionCommand? {
        switch key {
        case .character(UInt8(ascii: "q")): .quit
        case .character(UInt8(ascii: " ")): .togglePause
        case .left: .step(measures: -1)
        case .right: .step(measures: 1)
        case .character(UInt8(ascii: "l")): .toggleLoop
        case .character(UInt8(ascii: "+")), .character(UInt8(ascii: "=")), .up: .tempo(by: 5)
        case .character(UInt8(ascii: "-")), .down: .tempo(by: -5)
        case .character(UInt8(ascii: "m")): .toggleMute
        case .character(UInt8(ascii: "p")): .promptNextNote
        default: nil
        }
    }

    /// Draws the snapshot on a terminal: at once what the singer did or changed, the position and pitch at most 30
    /// times a second; without one, prints a line when a measure is done.
    private func show(_ snapshot: SessionSnapshot, after event: SessionEvent) {
        let results = snapshot.results
        guard let terminal else {
            if let last = results.last, let percent = snapshot.percentCorrect, last.note.measure != shownMeasure {
                shownMeasure = last.note.measure
                let judged = String(count: results.count { $0.note.measure == shownMeasure }, "note")
                FileOutput.write("measure \(shownMeasure): \(judged) judged, running accuracy \(percent)%\n")
            }
            return
        }
        let now = Int(PracticeSession.clock() / 1_000_000)
        switch event {
        // A position comes just before the pitch decided with it: the pitch draws both.
        case .position, .audio: return
        case .pitch: guard now - lastDrawn >= 33 else { return }
        case .began, .judged, .transport, .pass, .ended: break
        }
        lastDrawn = now
        let (width, height) = terminal.size
        terminal.draw(view.render(LiveView.State(snapshot), width: width, height: height, colour: FileOutput.colour))
        if let heard = snapshot.heard { lags.add(nanoseconds: PracticeSession.clock() - heard) }
    }

    /// The time from a captured sample to the screen that shows it, as drawn: median, 95th percentile and maximum
    /// in ms; nil when nothing was drawn.
    public var lag: (median: Int, percentile95: Int, maximum: Int)? { lags.summary }

    /// Gives the terminal back: cooked mode and the normal screen.
    public func close() {
        terminal?.restore()
        terminal = nil
    }
}
