import Dispatch
import Glibc

/// choir's YIN pitch tracker: YIN's candidate periods, weighed as probabilistic YIN weighs them (``YINDetector``),
/// and a hidden Markov model that follows the voice through them with a fixed lag (``PitchDecoder``).
///
/// Live, each window goes in as it is captured and a decided frame comes out ``delay`` seconds later; files
/// go through ``track(signal:configuration:threads:)``, which decides every frame the same way. Building a
/// tracker allocates every buffer and plans the transforms; `analyse` allocates nothing and takes no lock.
/// One tracker must not be used from two threads at once.
public final class YINTracker: PitchTracker, @unchecked Sendable {
    public let configuration: PitchTrackerConfiguration
    private let detector: YINDetector
    private let decoder: PitchDecoder

    /// Checks `configuration`, allocates and plans: do it off the audio thread.
    public init(_ configuration: PitchTrackerConfiguration) throws(PitchTrackerError) {
        try configuration.validate()
        self.configuration = configuration
        detector = YINDetector(configuration)
        decoder = Self.decoder(for: configuration)
    }

    private static func decoder(for configuration: PitchTrackerConfiguration) -> PitchDecoder {
        PitchDecoder(hop: Double(configuration.hop) / configuration.sampleRate, lag: configuration.lag)
    }

    /// Seconds by which a decided frame follows the window just analysed.
    public var delay: Double { Double(decoder.lag * configuration.hop) / configuration.sampleRate }

    /// Analyses one window of `configuration.window` samples whose centre lies at `time` seconds, with
    /// `accompaniment` the RMS of the mix the microphone may have heard over it. Returns the frame decided now:
    /// the one ``delay`` seconds before, once there is one. Allocates nothing and takes no lock.
    public func analyse(_ samples: UnsafeBufferPointer<Float>, time: Double, accompaniment: Double = 0) -> PitchFrame? {
        var observation = detector.observe(samples, time: time)
        observation.accompaniment = accompaniment
        return decoder.decode(observation)
    }

    /// Decides the frames still held back, at the end of the signal, and starts afresh.
    public func finish(_ body: (PitchFrame) -> Void) {
        decoder.finish(body)
        decoder.reset()
    }

    /// Tracks a whole signal: one frame per hop, centred at 0, hop, 2·hop… seconds (the signal is taken as
    /// silent beyond its ends), each decided as a live tracker decides it. Meant for files: it allocates the
    /// result, and analyses the windows on `threads` detectors in parallel before decoding them in order.
    public static func track(signal: [Float], configuration: PitchTrackerConfiguration, threads: Int = 2)
        throws(PitchTrackerError) -> [PitchFrame]
    {
        try configuration.validate()
        guard !signal.isEmpty else { return [] }
        let n = configuration.window, hop = configuration.hop
        let count = (signal.count - 1) / hop + 1
        let workers = max(1, min(threads, count / 64 + 1))
        let detectors = (0..<workers).map { _ in YINDetector(configuration) }
        var observations = [PitchObservation](repeating: PitchObservation(time: 0, level: 0), count: count)
        observations.withUnsafeMutableBufferPointer { output in
            nonisolated(unsafe) let output = output
            signal.withUnsafeBufferPointer { input in
                nonisolated(unsafe) let input = input
                DispatchQueue.concurrentPerform(iterations: workers) { worker in
                    let detector = detectors[worker]
                    // Windows that reach past either end are read from a copy with silence around it.
                    var edge = [Float](repeating: 0, count: n)
                    for index in (worker * count / workers)..<((worker + 1) * count / workers) {
                        let start = index * hop - n / 2
                        let time = Double(index * hop) / configuration.sampleRate
                        if start >= 0 && start + n <= input.count {
                            output[index] = detector.observe(UnsafeBufferPointer(rebasing: input[start..<(start + n)]), time: time)
                            continue
                        }
                        for i in 0..<n { edge[i] = start + i >= 0 && start + i < input.count ? input[start + i] : 0 }
                        output[index] = edge.withUnsafeBufferPointer { detector.observe($0, time: time) }
                    }
                }
            }
        }
        let decoder = decoder(for: configuration)
        var frames: [PitchFrame] = []
        frames.reserveCapacity(count)
        for observation in observations {
            if let frame = decoder.decode(observation) { frames.append(frame) }
        }
        decoder.finish { frames.append($0) }
        return frames
    }
}
