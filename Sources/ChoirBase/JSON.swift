/// A JSON value with keys kept in the order they were given, so output is stable and diffable.
public enum JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral
{
    case null
    case bool(Bool)
    case int(Int)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }

    public init(_ value: String?) { self = value.map(JSON.string) ?? .null }
    public init(_ value: Double?) { self = value.map(JSON.number) ?? .null }

    /// Pretty-printed with two-space indents; arrays of plain values stay on one line.
    public func serialized(indent: Int = 0) -> String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .number(let value): return value.isFinite ? String(value) : "null"
        case .string(let value): return Self.quoted(value)
        case .array(let items):
            if items.isEmpty { return "[]" }
            if items.allSatisfy(\.isScalar) {
                return "[" + items.map { $0.serialized() }.joined(separator: ", ") + "]"
            }
            let pad = String(repeating: "  ", count: indent + 1)
            return "[\n" + items.map { pad + $0.serialized(indent: indent + 1) }.joined(separator: ",\n")
                + "\n" + String(repeating: "  ", count: indent) + "]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            let pad = String(repeating: "  ", count: indent + 1)
            return "{\n"
                + members.map { pad + Self.quoted($0.0) + ": " + $0.1.serialized(indent: indent + 1) }
                .joined(separator: ",\n") + "\n" + String(repeating: "  ", count: indent) + "}"
        }
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }

    /// `text` as a JSON string, which is a TOML basic string too: quotes, backslashes and control characters
    /// (DEL included, which TOML asks for) escaped.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
