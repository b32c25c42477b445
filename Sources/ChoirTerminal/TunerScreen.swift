import ChoirBase
import ChoirScore
import ChoirSession

/// Where the tuner's readings go: the terminal's one line, or CSV.
public final class TunerScreen {
    private let terminal = RawTerminal()
    private var writer = PitchWriter(format: .csv)

    /// The terminal's line if there is a terminal, else CSV with `configuration`'s header.
    public init(_ configuration: PitchTrackerConfiguration) {
        if terminal == nil { writer.begin(sampleRate: Int(configuration.sampleRate), configuration: configuration) }
    }

    /// Draws each reading until the tuner ends; q or a signal stops it.
    public func follow(_ events: AsyncStream<Tuner.Event>, of tuner: Tuner, signals: SignalWatcher) async {
        let (inputs, stop) = FrontEndInput.stream(events, typing: terminal == nil ? .none : .keys, signals: signals)
        defer { stop() }
        for await input in inputs {
            switch input {
            case .event(.reading(let frame)):
                if let terminal {
                    terminal.show(TunerLine.render(frame))
                } else {
                    writer.write(frame)
                    writer.flush()
                }
            case .key(.character(UInt8(ascii: "q"))), .signal: tuner.stop()
            case .event, .key, .line, .closed: break
            }
        }
    }

    /// Ends the CSV, or gives the terminal back.
    public func close() {
        writer.end()
        terminal?.restore()
    }
}
