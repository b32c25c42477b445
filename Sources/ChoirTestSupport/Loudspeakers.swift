import ChoirPitch
import Glibc

/// What a microphone hears of a mix played through loudspeakers in a room: the loudspeakers' band (nothing much
/// below 90 Hz, softened above 8 kHz), the distance (a few milliseconds' delay), the room's early reflections
/// and its reverberant tail (about 0.4 s to fall 60 dB). Each seed is another room and another placing.
public struct Loudspeakers: Sendable {
    public var sampleRate: Double
    public var seed: UInt64

    public init(sampleRate: Double, seed: UInt64) {
        self.sampleRate = sampleRate
        self.seed = seed
    }

    /// The impulse response from the mix to the microphone.
    public var impulseResponse: [Float] {
        var random = SplitMix(seed: seed &* 31 &+ 1)
        let delay = Int((0.003 + random.unit() * 0.009) * sampleRate)
        let decay = 0.3 + random.unit() * 0.2
        var response = [Float](repeating: 0, count: delay + Int(decay * sampleRate))
        response[delay] = 1
        // Early reflections: walls and ceiling, 3 to 25 ms after the direct sound, weaker with distance.
        for _ in 0..<8 {
            let at = delay + Int((0.003 + random.unit() * 0.022) * sampleRate)
            if at < response.count { response[at] += Float((random.unit() < 0.5 ? -1 : 1) * (0.2 + random.unit() * 0.4)) }
        }
        // The tail: noise falling 60 dB over `decay` seconds, from 25 ms on.
        let tailStart = delay + Int(0.025 * sampleRate)
        for i in tailStart..<response.count {
            let t = Double(i - tailStart) / sampleRate
            response[i] += Float(0.12 * (random.unit() * 2 - 1) * pow(10, -3 * t / decay))
        }
        return response
    }

    /// `mix` as the microphone hears it, as long as `mix`.
    public func play(_ mix: [Float]) -> [Float] {
        // The loudspeaker: second-order high-pass at 90 Hz and a one-pole low-pass at 8 kHz.
        var band = [Float](repeating: 0, count: mix.count)
        let w = tan(.pi * 90 / sampleRate), q = 0.7071
        let norm = 1 / (1 + w / q + w * w)
        let (b0, b1, b2) = (norm, -2 * norm, norm)
        let (a1, a2) = (2 * (w * w - 1) * norm, (1 - w / q + w * w) * norm)
        var (x1, x2, y1, y2) = (0.0, 0.0, 0.0, 0.0)
        let smoothing = exp(-2 * .pi * 8000 / sampleRate)
        var low = 0.0
        for i in mix.indices {
            let x = Double(mix[i])
            let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
            (x2, x1, y2, y1) = (x1, x, y1, y)
            low = y + smoothing * (low - y)
            band[i] = Float(low)
        }
        return Convolution.convolve(band, impulseResponse, outputs: band.indices)
    }
}
