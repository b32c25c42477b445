/// An exact rational number, used for score positions and durations in quarter notes.
///
/// Always normalised (lowest terms, positive denominator), so equal values compare and hash equal.
/// Arithmetic traps on overflow; the reader bounds its inputs so that every value it builds fits.
public struct Rational: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let numerator: Int
    public let denominator: Int

    public static let zero = Rational(0)

    public init(_ value: Int) {
        numerator = value
        denominator = 1
    }

    /// Creates `numerator / denominator`; `denominator` must not be zero.
    public init(_ numerator: Int, _ denominator: Int) {
        precondition(denominator != 0, "zero denominator")
        let g = Self.gcd(numerator.magnitude, denominator.magnitude)
        let sign = denominator < 0 ? -1 : 1
        self.numerator = sign * numerator / Int(g)
        self.denominator = sign * denominator / Int(g)
    }

    public var doubleValue: Double { Double(numerator) / Double(denominator) }

    public var description: String {
        denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)"
    }

    static func gcd(_ a: UInt, _ b: UInt) -> UInt {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a == 0 ? 1 : a
    }

    /// The sum, or nil when it cannot be represented.
    public func addingReportingOverflow(_ other: Rational) -> Rational? {
        let g = Int(Self.gcd(denominator.magnitude, other.denominator.magnitude))
        let (scaledA, o1) = numerator.multipliedReportingOverflow(by: other.denominator / g)
        let (scaledB, o2) = other.numerator.multipliedReportingOverflow(by: denominator / g)
        let (sum, o3) = scaledA.addingReportingOverflow(scaledB)
        let (den, o4) = (denominator / g).multipliedReportingOverflow(by: other.denominator)
        if o1 || o2 || o3 || o4 { return nil }
        return Rational(sum, den)
    }

    public static func + (a: Rational, b: Rational) -> Rational {
        guard let sum = a.addingReportingOverflow(b) else { preconditionFailure("Rational overflow") }
        return sum
    }

    public static func - (a: Rational, b: Rational) -> Rational { a + Rational(-b.numerator, b.denominator) }

    public static func * (a: Rational, b: Rational) -> Rational {
        let g1 = Int(gcd(a.numerator.magnitude, b.denominator.magnitude))
        let g2 = Int(gcd(b.numerator.magnitude, a.denominator.magnitude))
        return Rational((a.numerator / g1) * (b.numerator / g2), (a.denominator / g2) * (b.denominator / g1))
    }

    public static func += (a: inout Rational, b: Rational) { a = a + b }
    public static func -= (a: inout Rational, b: Rational) { a = a - b }

    public static func < (a: Rational, b: Rational) -> Bool {
        // Cross-multiplying in 128 bits cannot overflow for 64-bit terms.
        let left = a.numerator.multipliedFullWidth(by: b.denominator)
        let right = b.numerator.multipliedFullWidth(by: a.denominator)
        return (left.high, left.low) < (right.high, right.low)
    }
}
