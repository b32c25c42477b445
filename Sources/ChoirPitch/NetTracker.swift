import ChoirBase
import FoundationEssentials

/// The learned tracker: SwiftF0's network (``PitchNet``) on the signal resampled to 16 kHz, each voiced frame's
/// pitch chosen among the network's salience peaks by ``PitchPath``. It hears a voice through an accompaniment that
/// YIN loses it under, at the cost of a frame every 16 ms decided 240 ms after its centre; a live session lets YIN
/// drive the needle and this tracker's frames judge the notes.
///
/// Each window handed to `analyse` contributes its newest hop; frames come out as the network decides them, at
/// most one a call while the caller's hop is no longer than the network's (256 samples at 16 kHz). A frame's
/// `confidence` is the network's probability that it is voiced; it is voiced at 0.5 or more, and never where
/// the sound peaks below 0.001 (-60 dBFS), which the network was not trained on.
final class NetTracker: PitchTracker, @unchecked Sendable {
    public let configuration: PitchTrackerConfiguration
    private let net: PitchNet
    private let path = PitchPath()
    private let resampler: Resampler?
    private let resampled: UnsafeMutableBufferPointer<Float>
    /// Input samples fed so far, and where input sample 0 lies on the caller's clock.
    private var fed = 0
    private var origin = 0.0
    /// Per frame (by index modulo 64), the accompaniment over it, and frames decided but not yet handed over.
    private let accompaniments: UnsafeMutablePointer<Double>
    private var queue = InlineArray<8, PitchFrame>(repeating: PitchFrame(time: 0, frequency: 0, confidence: 0))
    private var queued = 0

    /// Frames below this peak are silence to the network.
    static let silentPeak: Float = 0.001

    /// Checks `configuration` and reads the weights (once per process): do it off the audio thread.
    public init(_ configuration: PitchTrackerConfiguration) throws(PitchTrackerError) {
        try configuration.validate()
        try Self.checkRange(configuration)
        self.configuration = configuration
        let weights = try Self.weights(for: configuration)
        net = PitchNet(weights: weights, minimum: configuration.minimumFrequency, maximum: configuration.maximumFrequency)
        let rate = Int(configuration.sampleRate)
        resampler = rate == Int(PitchNet.sampleRate) ? nil : Resampler(from: rate, to: Int(PitchNet.sampleRate))
        let capacity = resampler?.capacity(for: configuration.hop) ?? configuration.hop
        resampled = .allocate(capacity: capacity)
        resampled.initialize(repeating: 0)
        accompaniments = .allocate(capacity: 64)
        accompaniments.initialize(repeating: 0, count: 64)
    }

    deinit {
        resampled.deallocate()
        accompaniments.deallocate()
    }

    private static func weights(for configuration: PitchTrackerConfiguration) throws(PitchTrackerError) -> PitchNetWeights {
        try PitchNetWeights.located(explicit: configuration.netWeights)
    }

    private static func checkRange(_ configuration: PitchTrackerConfiguration) throws(PitchTrackerError) {
        guard configuration.maximumFrequency > PitchNet.range.minimum, configuration.minimumFrequency < PitchNet.range.maximum,
            Double(configuration.hop) / configuration.sampleRate <= Double(PitchNet.hop) / PitchNet.sampleRate
        else {
            throw PitchTrackerError(
                description: "the learned tracker hears \(PitchNet.range.minimum)–\(PitchNet.range.maximum) Hz in hops of at most "
                    + "16 ms: expected a range overlapping it and a hop of at most \(Int(0.016 * configuration.sampleRate)) samples")
        }
    }

    public var delay: Double {
        let resampling = Double(resampler?.latency ?? 0) / configuration.sampleRate
        let decided = Double(PitchNet.lag + PitchPath.lag * PitchNet.hop) / PitchNet.sampleRate
        return max(0, decided + resampling - Double(configuration.window / 2) / configuration.sampleRate)
    }

    public func analyse(_ samples: UnsafeBufferPointer<Float>, time: Double, accompaniment: Double) -> PitchFrame? {
        let (window, hop, rate) = (configuration.window, configuration.hop, configuration.sampleRate)
        let newest = UnsafeBufferPointer(rebasing: samples[(window - hop)..<window])
        origin = time + Double(window / 2 - hop - fed) / rate
        fed += hop
        let first = net.pushed
        let count =
            resampler?.process(newest, into: resampled)
            ?? { () -> Int in
                _ = resampled.update(fromContentsOf: newest)
                return hop
            }()
        // The frames centred in what this hop brought get its accompaniment.
        var index = (first + PitchNet.hop - 1) / PitchNet.hop
        while index * PitchNet.hop < first + count {
            accompaniments[index & 63] = accompaniment
            index += 1
        }
        net.push(UnsafeBufferPointer(rebasing: resampled[0..<count])) {
            path.push($0, voiced: Self.isVoiced($0)) { enqueue(frame(from: $0)) }
        }
        guard queued > 0 else { return nil }
        let next = queue[0]
        for i in 1..<queued { queue[i - 1] = queue[i] }
        queued -= 1
        return next
    }

    public func finish(_ body: (PitchFrame) -> Void) {
        for i in 0..<queued { body(queue[i]) }
        queued = 0
        if let resampler {
            // The resampler's own look-ahead, as silence, then the network's.
            let silence = InlineArray<256, Float>(repeating: 0)
            var left = resampler.latency
            while left > 0 {
                let n = min(left, 256)
                left -= n
                let count = silence.span.withUnsafeBufferPointer {
                    resampler.process(UnsafeBufferPointer(rebasing: $0[0..<n]), into: resampled)
                }
                net.push(UnsafeBufferPointer(rebasing: resampled[0..<count])) {
                    path.push($0, voiced: Self.isVoiced($0)) { body(frame(from: $0)) }
                }
            }
        }
        net.finish { path.push($0, voiced: Self.isVoiced($0)) { body(frame(from: $0)) } }
        path.finish { body(frame(from: $0)) }
        fed = 0
    }

    private func enqueue(_ frame: PitchFrame) {
        guard queued < 8 else { return }
        queue[queued] = frame
        queued += 1
    }

    private func frame(from output: PitchNet.Output) -> PitchFrame {
        let centre = Double(output.index * PitchNet.hop) / PitchNet.sampleRate
        return Self.frame(output, time: origin + centre, accompaniment: accompaniments[output.index & 63])
    }

    /// Whether the tracker calls the frame voiced.
    static func isVoiced(_ output: PitchNet.Output) -> Bool { voicing(output) >= 0.5 }

    private static func voicing(_ output: PitchNet.Output) -> Double { output.peak < silentPeak ? 0 : output.voicing }

    static func frame(_ output: PitchNet.Output, time: Double, accompaniment: Double) -> PitchFrame {
        let voicing = voicing(output)
        var frame = PitchFrame(
            time: time, frequency: voicing >= 0.5 ? output.frequency : 0, confidence: voicing, level: output.level,
            accompaniment: accompaniment)
        // The network's pitch, voiced or not: what guides YIN in a ``CombinedTracker``.
        if output.frequency > 0 {
            frame.candidates.add(PitchCandidate(frequency: output.frequency, aperiodicity: 1 - voicing, probability: voicing))
        }
        return frame
    }

    /// Tracks a whole signal: one frame per 16 ms, centred at 0, 16 ms, 32 ms… (the signal taken as silent beyond
    /// its ends), the same frames a live tracker decides. Long signals are split among `threads` networks, each
    /// with 11 frames of the signal either side of its share, more than the network reaches (and than the path
    /// looks ahead; its choices further back rarely matter).
    public static func track(signal: [Float], configuration: PitchTrackerConfiguration, threads: Int = 2)
        throws(PitchTrackerError) -> [PitchFrame]
    {
        try configuration.validate()
        try checkRange(configuration)
        guard !signal.isEmpty else { return [] }
        let weights = try weights(for: configuration)
        let rate = Int(configuration.sampleRate)
        let audio = rate == Int(PitchNet.sampleRate) ? signal : Resampler(from: rate, to: Int(PitchNet.sampleRate)).resample(signal)
        let count = max(1, audio.count / PitchNet.hop)
        let workers = max(1, min(threads, count / 1000))
        var frames = [PitchFrame](repeating: PitchFrame(time: 0, frequency: 0, confidence: 0), count: count)
        frames.withUnsafeMutableBufferPointer { frames in
            let output = frames
            audio.withUnsafeBufferPointer { input in
                Parallel.slices(of: count, workers: workers) { worker, slice in
                    let net = PitchNet(weights: weights, minimum: configuration.minimumFrequency, maximum: configuration.maximumFrequency)
                    let path = PitchPath()
                    let context = 11
                    let start = max(0, slice.lowerBound - context)
                    let end = slice.upperBound == count ? input.count : min(input.count, (slice.upperBound + context) * PitchNet.hop)
                    let keep = { (frame: PitchNet.Output) in
                        let index = frame.index + start
                        guard slice.contains(index) else { return }
                        var shifted = frame
                        shifted.index = index
                        output[index] = Self.frame(shifted, time: Double(index * PitchNet.hop) / PitchNet.sampleRate, accompaniment: 0)
                    }
                    let choose = { (frame: PitchNet.Output) in path.push(frame, voiced: isVoiced(frame), keep) }
                    net.push(UnsafeBufferPointer(rebasing: input[(start * PitchNet.hop)..<end]), choose)
                    net.finish(choose)
                    path.finish(keep)
                }
            }
        }
        return frames
    }
}
