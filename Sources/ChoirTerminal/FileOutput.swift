import ChoirFiles
import FoundationEssentials
import Glibc

/// Standard output and error as the terminal and the locale allow: UTF-8 where the locale's character set is, ASCII
/// otherwise; colour and a drawn screen only on a terminal that has them.
public enum FileOutput {
    /// Whether the locale's character set is UTF-8.
    public static let unicode: Bool = {
        setlocale(LC_CTYPE, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET))).uppercased().filter { $0 != "-" }
        return codeset == "UTF8"
    }()

    /// Whether standard output is a terminal that can move its cursor and colour text: not `TERM=dumb`.
    public static var isTerminal: Bool { isatty(1) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb" }

    /// Whether to use ANSI colours: such a terminal, and `NO_COLOR` unset.
    public static var colour: Bool { isTerminal && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty }

    /// Columns to lay text out in: the terminal's, else `$COLUMNS`, else 80.
    public static var width: Int {
        var size = winsize()
        if isatty(1) == 1, ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return ProcessInfo.processInfo.environment["COLUMNS"].flatMap { Int($0) }.map { max(40, $0) } ?? 80
    }

    /// Writes `text` to a file descriptor, standard output unless told, in ASCII if the locale is not UTF-8. A file
    /// name's bytes that are not UTF-8 go out as the bytes they are (``FileName``).
    public static func write(_ text: String, to descriptor: Int32 = 1) {
        let text = unicode ? text : text.ascii
        let bytes = FileName.isEscaped(text) ? FileName.encode(text) : Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }
}

extension String {
    /// The text in ASCII: each symbol choir prints as its nearest ASCII, any other character as "?".
    public var ascii: String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for character in self {
            // A file name's byte that is not UTF-8 is written as it is.
            if character.isASCII || FileName.isEscaped(String(character)) {
                out.append(character)
            } else {
                out += Self.asciiSymbols[character] ?? "?"
            }
        }
        return out
    }

    private static let asciiSymbols: [Character: String] = [
        "♯": "#", "♭": "b", "♮": "", "♩": "q", "–": "-", "—": "-", "−": "-", "→": "->", "←": "<-", "…": "...",
        "·": ".", "•": "*", "●": "o", "◀": "<", "▶": ">", "━": "=", "─": "-", "│": "|", "┼": "+", "█": "#", "▓": "+", "░": ".", "¢": "c",
        "‿": "_", "✎": "*", "×": "x", "’": "'", "‘": "'", "“": "\"", "”": "\"", "≥": ">=", "≤": "<=", "±": "+/-", "µ": "u",
        "\u{A0}": " ", "½": ".5", "¼": ".25", "¾": ".75",
    ]
}
