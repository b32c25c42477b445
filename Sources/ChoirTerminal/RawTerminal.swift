import Glibc

/// A terminal in raw mode, for single keys, restored on the way out.
public final class RawTerminal {
    private var original = termios()
    private var restored = false
    private var fullScreen = false

    /// A terminal on standard input and output that can draw (not `TERM=dumb`); nil otherwise.
    public init?() {
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
    public static func readKey() -> UInt8? {
        var byte: UInt8 = 0
        return Glibc.read(0, &byte, 1) == 1 ? byte : nil
    }

    /// A key pressed since the last call, with the arrow keys' escape sequences read whole.
    public static func readPress() -> KeyPress? { press(reading: readKey) }

    /// The key whose bytes `next` gives (nil when it gives none): a character, or an arrow key's escape sequence
    /// (ESC [ A to D) read whole; any other escape is ``KeyPress/escape``.
    public static func press(reading next: () -> UInt8?) -> KeyPress? {
        guard let byte = next() else { return nil }
        guard byte == 0x1B else { return .character(byte) }
        guard next() == UInt8(ascii: "[") else { return .escape }
        switch next() {
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        default: return .escape
        }
    }

    public enum KeyPress: Equatable, Sendable {
        case character(UInt8)
        case left, right, up, down, escape
    }

    /// Columns and rows of the terminal (80×24 if it cannot say).
    public var size: (width: Int, height: Int) {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Switches to the alternate screen, so that a full-screen view leaves the scrollback as it was.
    public func enterFullScreen() {
        fullScreen = true
        FileOutput.write("\u{1B}[?1049h\u{1B}[H\u{1B}[2J")
    }

    /// Draws `lines` from the top left, each overwriting the line before it in place: no clearing, no flicker.
    public func draw(_ lines: [String]) {
        FileOutput.write("\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\r\n") + "\u{1B}[J")
    }

    /// Replaces the cursor's line with `line`.
    public func show(_ line: String) { FileOutput.write("\r\u{1B}[2K" + line) }

    /// Gives the terminal back as it was found (cooked mode, the cursor, the normal screen); once only.
    public func restore() {
        guard !restored else { return }
        restored = true
        tcsetattr(0, TCSANOW, &original)
        FileOutput.write(fullScreen ? "\u{1B}[?1049l\u{1B}[?25h" : "\u{1B}[?25h\n")
    }
}
