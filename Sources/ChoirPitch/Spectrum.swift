import ChoirBase
import Glibc

/// A short-time power spectrum from 0 to 4 kHz, in half-decibel steps: enough to tell which pitches sound in a
/// window, and how strongly.
///
/// A pitch tracker gives one pitch per window. Where two sound at once (a note swelling in while the previous one
/// still rings, in a room or in a sampled voice's release), the tracker settles on the new one only once it
/// dominates, which can be a fifth of a second after a listener hears it begin. The spectrum keeps the weaker one:
/// ``salience(of:excluding:)`` measures one pitch's harmonics on their own.
public struct Spectrum: Sendable {
    /// How many bins are kept: 0 to 4 kHz at the analyser's 15.6 Hz.
    public static let binCount = 256

    /// Seconds from the start of the signal to the window's centre.
    public var time: Double
    /// Hz from one bin to the next.
    public let binWidth: Double
    /// Power per bin in half-decibels above −127.5 dB of a full-scale sine; 0 is that or quieter.
    private var levels: InlineArray<256, UInt8>

    /// A spectrum of silence at `time`.
    public init(time: Double, binWidth: Double) {
        self.time = time
        self.binWidth = binWidth
        levels = InlineArray(repeating: 0)
    }

    /// Sets bin `bin` from a power relative to a full-scale sine's.
    mutating func set(_ bin: Int, relativePower: Float) {
        let halfDecibels = relativePower > 0 ? 20 * log10f(relativePower) + 255 : 0
        levels[bin] = UInt8(max(0, min(255, halfDecibels.rounded())))
    }

    /// The power in bin `bin`, relative to a full-scale sine's; 0 outside the bins kept.
    public func power(at bin: Int) -> Double {
        guard bin >= 0, bin < Self.binCount else { return 0 }
        return Self.powers[Int(levels[bin])]
    }

    /// The power at `hz`, between bins by a straight line.
    private func power(atFrequency hz: Double) -> Double {
        let position = hz / binWidth
        let bin = Int(position.rounded(.down)), fraction = position - Double(bin)
        return power(at: bin) * (1 - fraction) + power(at: bin + 1) * fraction
    }

    /// The power each level stands for, worked out once: spectra are read many times over.
    private static let powers: [Double] = (0..<256).map { $0 == 0 ? 0 : pow(10, (Double($0) - 255) / 20) }

    /// How strongly a pitch of `frequency` Hz sounds: the power its harmonics (up to 3.5 kHz) stand above the
    /// troughs halfway between them, summed. Noise (a breath, a consonant) fills troughs and harmonics alike and
    /// adds little. Harmonics within three bins of one of `others`' (pitches still ringing) are left out, so
    /// that what is measured is this pitch alone; nil when fewer than two are left.
    public func salience(of frequency: Double, excluding others: [Double] = []) -> Double? {
        var total = 0.0
        let used = harmonics(of: frequency, excluding: others) { _, _, peak, trough in total += max(0, peak - trough) }
        return used >= 2 ? total : nil
    }

    /// The pitch within `cents` of `frequency` whose harmonics (those clear of `others`', as in
    /// ``salience(of:excluding:)``) stand out most, and their salience: the one pitch of a mixture nearest a note,
    /// where a tracker that reads one pitch per window hears the louder or something in between. Steps of 10 cents
    /// find the harmonics; the pitch is where their peaks lie (each peak's centre by a parabola through its bin and
    /// its neighbours, in decibels), weighted by power and by harmonic number, since a peak's error in hertz is the
    /// pitch's divided by its number. Only the peaks five bins clear of the other notes' harmonics, whose skirts
    /// would pull them, are used where there are two or more. Nil when no pitch has two clear peaks.
    public func pitch(near frequency: Double, within cents: Double, excluding others: [Double] = []) -> (
        frequency: Double, salience: Double
    )? {
        // Each step is scored by the power exactly at its harmonics, not at the loudest bin near them as the salience
        // is: a step between two notes whose harmonics reach a bin of the other's peaks would score as well as either.
        var steps: [(frequency: Double, score: Double)] = []
        for step in stride(from: -cents, through: cents, by: 10) {
            let candidate = frequency * PitchMath.ratio(cents: step)
            var score = 0.0
            let clear = harmonics(of: candidate, excluding: others) { number, _, _, trough in
                score += max(0, power(atFrequency: number * candidate) - trough)
            }
            if clear >= 2, score > 0 { steps.append((candidate, score)) }
        }
        // Where few harmonics are clear, one step's set can catch another sound's peak, or the skirt of one: a step
        // stands only where at least two real peaks (loudest of their neighbours) lie within 20 cents of it.
        for step in steps.sorted(by: { $0.score > $1.score }).prefix(5) {
            for clearance in [5.0, 3.0] {
                var weighted = 0.0, weights = 0.0, peaks = 0
                harmonics(of: step.frequency, excluding: others, clearance: clearance) { number, bin, peak, _ in
                    func decibels(_ b: Int) -> Double { Double(levels[max(0, min(Self.binCount - 1, b))]) }
                    let (left, centre, right) = (decibels(bin - 1), decibels(bin), decibels(bin + 1))
                    let curvature = left - 2 * centre + right
                    guard centre > 0, centre >= left, centre >= right, curvature < 0 else { return }
                    let position = (Double(bin) + 0.5 * (left - right) / curvature) * binWidth
                    guard abs(PitchMath.cents(position / number, from: step.frequency)) <= 20 else { return }
                    weighted += peak * position
                    weights += peak * number
                    peaks += 1
                }
                if peaks >= 2, let salience = salience(of: step.frequency, excluding: others) { return (weighted / weights, salience) }
            }
        }
        return nil
    }

    /// Calls `body` with each harmonic of `frequency` up to 3.5 kHz not within `clearance` bins of one of
    /// `others`': its number (1 for the fundamental), the bin of its peak (the loudest within a bin of where it
    /// should be), the peak's power and the trough's (the quieter of the two halfway to the harmonics either side).
    /// Returns how many there were.
    @discardableResult
    private func harmonics(
        of frequency: Double, excluding others: [Double], clearance: Double = 3, _ body: (Double, Int, Double, Double) -> Void
    ) -> Int {
        guard frequency > 0, binWidth > 0 else { return 0 }
        func bin(_ hz: Double) -> Int { Int((hz / binWidth).rounded()) }
        var used = 0
        var k = 1.0
        while k * frequency <= 3500 {
            defer { k += 1 }
            let harmonic = k * frequency
            let shared = others.contains { other in
                other > 0 && abs(harmonic - max(1, (harmonic / other).rounded()) * other) < clearance * binWidth
            }
            if shared { continue }
            let centre = bin(harmonic)
            var peak = centre
            if power(at: centre - 1) > power(at: peak) { peak = centre - 1 }
            if power(at: centre + 1) > power(at: peak) { peak = centre + 1 }
            let trough = min(power(at: bin(harmonic - frequency / 2)), power(at: bin(harmonic + frequency / 2)))
            body(k, peak, power(at: peak), trough)
            used += 1
        }
        return used
    }
}
