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
        guard bin >= 0, bin < Self.binCount, levels[bin] > 0 else { return 0 }
        return pow(10, (Double(levels[bin]) - 255) / 20)
    }

    /// How strongly a pitch of `frequency` Hz sounds: the power its harmonics (up to 3.5 kHz) stand above the
    /// troughs halfway between them, summed. Noise (a breath, a consonant) fills troughs and harmonics alike and
    /// adds little. Harmonics within three bins of one of `others`' (pitches still ringing) are left out, so
    /// that what is measured is this pitch alone; nil when fewer than two are left.
    public func salience(of frequency: Double, excluding others: [Double] = []) -> Double? {
        guard frequency > 0 else { return nil }
        func bin(_ hz: Double) -> Int { Int((hz / binWidth).rounded()) }
        var total = 0.0
        var used = 0
        var k = 1.0
        while k * frequency <= 3500 {
            defer { k += 1 }
            let harmonic = k * frequency
            let shared = others.contains { other in
                other > 0 && abs(harmonic - max(1, (harmonic / other).rounded()) * other) < 3 * binWidth
            }
            if shared { continue }
            let centre = bin(harmonic)
            let peak = max(power(at: centre - 1), power(at: centre), power(at: centre + 1))
            let trough = min(power(at: bin(harmonic - frequency / 2)), power(at: bin(harmonic + frequency / 2)))
            total += max(0, peak - trough)
            used += 1
        }
        return used >= 2 ? total : nil
    }
}
