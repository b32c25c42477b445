import ArgumentParser
import ChoirBase
import ChoirSession
import ChoirScore
import Glibc

/// `choir pitch --live`: the tuner (the engine's ``Tuner``) drawn. On a terminal it shows note, octave and cents;
/// otherwise it prints the same CSV as for files.
struct LiveTuner {
    var configuration: PitchTrackerConfiguration
    var device: String
    /// Stop after this many seconds (for scripts and tests); nil runs until q or Ctrl-C.
    var duration: Double?

    func run() async throws {
        let signals = SignalWatcher()
        let tuner: Tuner
        do {
            tuner = try Tuner(device: device, configuration: configuration, duration: duration)
        } catch  where error.kind == .usage {
            throw usage("--live: \(error)")
        } catch {
            throw fail(error)
        }
        let screen = TunerScreen(configuration)
        let events = tuner.events()
        try failing { try tuner.start() }
        await screen.follow(events, of: tuner, signals: signals)
        let outcome = tuner.wait()
        screen.close()
        warn(
            "captured \(String(printf: "%.1f", outcome.seconds)) s from '\(device)', "
                + "\(outcome.overruns) overruns, \(outcome.dropped) samples dropped")
        if let error = outcome.error { throw fail(error) }
    }
}

/// Where the tuner's readings go: the terminal's one line, or CSV.
private final class TunerScreen {
    private let terminal = RawTerminal()
    private var writer = PitchWriter(format: .csv)

    init(_ configuration: PitchTrackerConfiguration) {
        if terminal == nil { writer.begin(sampleRate: Int(configuration.sampleRate), configuration: configuration) }
    }

    /// Draws each reading until the tuner ends; q or a signal stops it.
    func follow(_ events: AsyncStream<Tuner.Event>, of tuner: Tuner, signals: SignalWatcher) async {
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
    func close() {
        writer.end()
        terminal?.restore()
    }
}

/// The tuner's one line: note and octave, cents, a needle and the frequency.
enum TunerLine {
    static func render(_ frame: PitchFrame) -> String {
        guard frame.isVoiced else { return "   –      listening…" }
        let exact = PitchMath.midi(hertz: frame.frequency)
        let midi = Int(exact.rounded())
        let cents = Int(((exact - Double(midi)) * 100).rounded())
        let position = max(0, min(20, 10 + cents / 5))
        var needle = Array(repeating: "─", count: 21)
        needle[10] = "┼"
        needle[position] = "●"
        let name = PitchName.name(midi: midi)
        let signed = cents > 0 ? "+\(cents)" : "\(cents)"
        return name.padded(to: 5) + signed.padded(to: 3, alignRight: true)
            + "¢  " + needle.joined() + "  " + String(printf: "%7.2f Hz", frame.frequency)
    }
}

/// A terminal in raw mode, for single keys, restored on the way out.
final class RawTerminal {
    private var original = termios()
    private var restored = false
    private var fullScreen = false

    /// A terminal on standard input and output that can draw (not `TERM=dumb`); nil otherwise.
    init?() {
        guard FileOutput.isTerminal, isatty(0) == 1, tcgetattr(0, &original) == 0 else { return nil }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        tcsetattr(0, TCSANOW, &raw)
        FileOutput.write("\u{1B}[?25l")
    }

    /// A key pressed since the last call, if any.
    static func readKey() -> UInt8? {
        var byte: UInt8 = 0
        return Glibc.read(0, &byte, 1) == 1 ? byte : nil
    }

    /// A key pressed since the last call, with the arrow keys' escape sequences read whole.
    static func readPress() -> KeyPress? {
        guard let byte = readKey() else { return nil }
        guard byte == 0x1B else { return .character(byte) }
        guard readKey() == UInt8(ascii: "[") else { return .escape }
        switch readKey() {
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        default: return .escape
        }
    }

    enum KeyPress: Equatable, Sendable {
        case character(UInt8)
        case left, right, up, down, escape
    }

    /// Columns and rows of the terminal (80×24 if it cannot say).
    var size: (width: Int, height: Int) {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Switches to the alternate screen, so that a full-screen view leaves the scrollback as it was.
    func enterFullScreen() {
        fullScreen = true
        FileOutput.write("\u{1B}[?1049h\u{1B}[H\u{1B}[2J")
    }

    /// Draws `lines` from the top left, each overwriting the line before it in place: no clearing, no flicker.
    func draw(_ lines: [String]) {
        FileOutput.write("\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\r\n") + "\u{1B}[J")
    }

    func show(_ line: String) { FileOutput.write("\r\u{1B}[2K" + line) }

    func restore() {
        guard !restored else { return }
        restored = true
        tcsetattr(0, TCSANOW, &original)
        FileOutput.write(fullScreen ? "\u{1B}[?1049l\u{1B}[?25h" : "\u{1B}[?25h\n")
    }
}
