/// Note values (`<type>`, `<beat-unit>`) and pitch steps.
enum NoteType {
    /// Length in quarter notes of each MusicXML note type.
    static func quarters(_ name: String) -> Rational? {
        switch name {
        case "maxima": Rational(32)
        case "long": Rational(16)
        case "breve": Rational(8)
        case "whole": Rational(4)
        case "half": Rational(2)
        case "quarter": Rational(1)
        case "eighth": Rational(1, 2)
        case "16th": Rational(1, 4)
        case "32nd": Rational(1, 8)
        case "64th": Rational(1, 16)
        case "128th": Rational(1, 32)
        case "256th": Rational(1, 64)
        case "512th": Rational(1, 128)
        case "1024th": Rational(1, 256)
        default: nil
        }
    }

    /// A value lengthened by its dots: each dot adds half of the previous addition.
    static func dotted(_ value: Rational, dots: Int) -> Rational {
        value * Rational((1 << (dots + 1)) - 1, 1 << dots)
    }

    static let stepSemitones: [String: Int] = ["C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11]
}

/// MIDI velocities for dynamic marks.
enum Dynamics {
    /// Velocity before any dynamic mark: mezzo-forte.
    static let defaultVelocity = 80

    /// Velocity for a `<dynamics>` child element; accents such as sfz do not change the running level.
    static func velocity(_ mark: String) -> Int? {
        switch mark {
        case "pppppp": 5
        case "ppppp": 10
        case "pppp": 16
        case "ppp": 24
        case "pp": 36
        case "p", "fp": 49
        case "mp": 64
        case "mf": 80
        case "f": 96
        case "ff": 112
        case "fff": 120
        case "ffff", "fffff", "ffffff": 127
        default: nil
        }
    }

    /// Velocity for `<sound dynamics>`, a percentage of forte, which MusicXML defines as velocity 90.
    static func velocity(percentOfForte percent: Double) -> Int {
        guard percent.isFinite else { return defaultVelocity }
        return Int(min(max((percent * 0.9).rounded(), 1), 127))
    }
}

extension Rational {
    /// Parses a non-negative decimal such as "3", "0.5" or " 480.25 "; nil for anything else,
    /// including negative numbers and values too large or too fine to represent.
    init?(decimal text: String) {
        var whole = 0, fraction = 0, denominator = 1
        var digits = 0, fractionDigits = 0
        var sawPoint = false, sawEnd = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard !sawEnd else { return nil }
                if sawPoint {
                    fractionDigits += 1
                    guard fractionDigits <= 6 else { return nil }
                    fraction = fraction * 10 + Int(byte - UInt8(ascii: "0"))
                    denominator *= 10
                } else {
                    digits += 1
                    guard digits <= 12 else { return nil }
                    whole = whole * 10 + Int(byte - UInt8(ascii: "0"))
                }
            case UInt8(ascii: "."):
                guard !sawPoint, !sawEnd else { return nil }
                sawPoint = true
            case 0x20, 0x09, 0x0A, 0x0D:
                if digits + fractionDigits > 0 || sawPoint { sawEnd = true }
            default:
                return nil
            }
        }
        guard digits + fractionDigits > 0 else { return nil }
        self.init(whole * denominator + fraction, denominator)
    }

    public static func / (a: Rational, b: Rational) -> Rational {
        a * Rational(b.denominator, b.numerator)
    }
}
