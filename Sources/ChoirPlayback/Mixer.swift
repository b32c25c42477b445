import Glibc

/// Per-line volume and stereo position. Gains are linear and applied after synthesis, each line rendered on
/// its own, so the mix is exactly the sum of the lines at their volumes.
public struct Mixer: Sendable, Equatable {
    /// Linear gain per line, 0…1.
    public var gains: [Double]
    /// Stereo position per line, −1 (left) … 1 (right).
    public var pans: [Double]
    /// Gain of the click and count-in.
    public var clickGain = 1.0

    /// Every line at full volume, spread gently across the stereo field in score order.
    public init(lineCount: Int) {
        gains = Array(repeating: 1, count: lineCount)
        pans = (0..<lineCount).map { lineCount == 1 ? 0 : -0.5 + Double($0) / Double(lineCount - 1) }
    }

    /// What the singer asked for, by line index; volumes are 0…100.
    public struct Request: Sendable {
        public var volumes: [Int: Double] = [:]
        public var muted: Set<Int> = []
        public var soloed: Set<Int> = []
        /// The singer's lines: one, or several sung by one person (a soprano who also takes the descant).
        public var singers: Set<Int> = []
        public var myVolume: Double?
        public var othersVolume: Double?
        public var muteMine = false
        public init() {}
    }

    /// The mix for `request`: the singer's and the others' volumes first, then each line's own volume,
    /// then mutes, and solos silence every line not soloed.
    public init(lineCount: Int, request: Request) throws(PlaybackError) {
        self.init(lineCount: lineCount)
        for volume in [request.myVolume, request.othersVolume] + request.volumes.values.map(Optional.some) {
            if let volume, !(0...100).contains(volume) { throw PlaybackError("volume \(volume): expected 0 to 100") }
        }
        if request.myVolume != nil || request.othersVolume != nil || request.muteMine {
            guard !request.singers.isEmpty else {
                throw PlaybackError("my volume, the others' volume and muting my line need my line: expected the line you sing")
            }
        }
        for line in 0..<lineCount {
            let mine = request.singers.contains(line)
            if let volume = mine ? request.myVolume : request.othersVolume { gains[line] = volume / 100 }
        }
        for (line, volume) in request.volumes { gains[line] = volume / 100 }
        for line in request.muted { gains[line] = 0 }
        if request.muteMine { for singer in request.singers { gains[singer] = 0 } }
        if !request.soloed.isEmpty {
            for line in 0..<lineCount where !request.soloed.contains(line) { gains[line] = 0 }
        }
    }

    /// Left and right gains for a line, with a constant-power pan law.
    public func stereoGains(_ line: Int) -> (left: Float, right: Float) {
        let angle = (pans[line] + 1) * .pi / 4
        return (Float(gains[line] * cos(angle) * 2.squareRoot()), Float(gains[line] * sin(angle) * 2.squareRoot()))
    }
}
