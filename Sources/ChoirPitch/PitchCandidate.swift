import Glibc

/// A period one window may have.
public struct PitchCandidate: Sendable, Equatable {
    /// In Hz, from the period refined by parabolic interpolation.
    public var frequency: Double
    /// d′ at this period (YIN's cumulative mean normalised difference): 0 for a window that repeats exactly.
    public var aperiodicity: Double
    /// How likely it is that the window is voiced with this period.
    public var probability: Double

    public init(frequency: Double, aperiodicity: Double, probability: Double) {
        self.frequency = frequency
        self.aperiodicity = aperiodicity
        self.probability = probability
    }
}

/// The candidate periods of one window, held inline (no allocation): at most ``capacity``.
public struct PitchCandidates: Sendable {
    public static let capacity = 8
    public private(set) var count = 0
    private var storage = InlineArray<8, PitchCandidate>(repeating: PitchCandidate(frequency: 0, aperiodicity: 1, probability: 0))

    public init() {}

    /// Adds a candidate; beyond ``capacity``, the least likely one gives way.
    public mutating func add(_ candidate: PitchCandidate) {
        if count < Self.capacity {
            storage[count] = candidate
            count += 1
            return
        }
        var weakest = 0
        for i in 1..<count where storage[i].probability < storage[weakest].probability { weakest = i }
        if candidate.probability > storage[weakest].probability { storage[weakest] = candidate }
    }

    public subscript(index: Int) -> PitchCandidate {
        precondition(index < count)
        return storage[index]
    }

    /// The probability that the window is voiced at all.
    public var voicedProbability: Double {
        var sum = 0.0
        for i in 0..<count { sum += storage[i].probability }
        return min(1, sum)
    }

    /// The most periodic candidate within `cents` of `frequency`, if any.
    public func nearest(_ frequency: Double, within cents: Double) -> PitchCandidate? {
        var best: PitchCandidate?
        for i in 0..<count where abs(PitchMath.cents(storage[i].frequency, from: frequency)) <= cents {
            if storage[i].aperiodicity < best?.aperiodicity ?? .infinity { best = storage[i] }
        }
        return best
    }
}
