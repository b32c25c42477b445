/// How long after the microphone heard a sample a front end showed it: a count per millisecond, up to a second.
public struct DelayTally: Sendable {
    private var counts = [Int](repeating: 0, count: 1000)

    public init() {}

    /// Counts a frame shown `nanoseconds` after its newest sample was heard (a delay of a second or more as the last).
    public mutating func add(nanoseconds: Int) {
        counts[max(0, min(counts.count - 1, nanoseconds / 1_000_000))] += 1
    }

    /// Median, 95th percentile and maximum in ms; nil when nothing was counted.
    public var summary: (median: Int, percentile95: Int, maximum: Int)? {
        let total = counts.reduce(0, +)
        guard total > 0 else { return nil }
        func percentile(_ share: Double) -> Int {
            var seen = 0
            for (ms, count) in counts.enumerated() {
                seen += count
                if Double(seen) >= share * Double(total) { return ms }
            }
            return counts.count - 1
        }
        return (percentile(0.5), percentile(0.95), counts.lastIndex { $0 > 0 }!)
    }
}
