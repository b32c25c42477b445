import Dispatch
import Glibc

/// choir's pitch tracker: YIN's candidate periods, weighed as probabilistic YIN weighs them (``YINDetector``),
/// and a hidden Markov model that follows the voice through them with a fixed lag (``PitchDecoder``).
///
/// Live, each window goes in as it is captured and a decided frame comes out ``delay`` seconds later; files
/// go through ``track(signal:configuration:threads:)``, which decides every frame the same way. Building a
/// tracker allocates every buffer and plans the transforms; `analyse` allocates nothing and takes no lock.
/// One tracker must not be used from two threads at once.
public final class PitchTracker: @unchecked Sendable {
    /// What a tracker listens for and how.
    public struct Configuration: Equatable, Sendable {
        public var sampleRate: Double
        /// Analysis window in samples; it must hold two periods of the lowest frequency.
        public var window: Int
        /// Samples between successive frames.
        public var hop: Int
        public var minimumFrequency: Double
        public var maximumFrequency: Double
        /// The aperiodicity (d′ at the best dip, 0 to 1) at which a window is as likely voiced as not.
        public var voicingThreshold: Double
        /// Frames quieter than this RMS are silence.
        public var silenceRMS: Double
        /// Seconds between a window's analysis and the decision on it: what the decoder may look ahead.
        public var lookAhead: Double

        /// A low bass's C2 (65 Hz) to a soprano's high C6 (1047 Hz), with room for a flat C2 and a sharp C6.
        public static let singingRange = (minimum: 60.0, maximum: 1100.0)

        /// `window` defaults to 2.2 periods of the lowest frequency, and `hop` to the longest power of two up to
        /// 3 ms (a frame every 5 ms or so).
        public init(
            sampleRate: Double, window: Int? = nil, hop: Int? = nil,
            minimumFrequency: Double = singingRange.minimum, maximumFrequency: Double = singingRange.maximum,
            voicingThreshold: Double = 0.4, silenceRMS: Double = 0.0003, lookAhead: Double = 0.025
        ) {
            self.sampleRate = sampleRate
            self.minimumFrequency = minimumFrequency
            self.maximumFrequency = maximumFrequency
            self.voicingThreshold = voicingThreshold
            self.silenceRMS = silenceRMS
            self.lookAhead = lookAhead
            // 2.2 periods of the lowest frequency, in whole blocks of 32 samples.
            // (Less a hair, so that 2.2 periods that come to a whole number of blocks are not rounded up past it.)
            let blocks = 2.2 * sampleRate / minimumFrequency / 32 - 1e-6
            self.window = window ?? (blocks.isFinite && blocks > 0 ? Int(min(blocks.rounded(.up), 8192)) * 32 : 2048)
            if let hop {
                self.hop = hop
            } else {
                var hop = 32
                while Double(hop) * 2 <= sampleRate * 0.006 { hop *= 2 }
                self.hop = hop
            }
        }

        /// The longest period looked for, in samples.
        var maximumLag: Int { Int((sampleRate / minimumFrequency).rounded(.up)) + 1 }

        /// Frames the decoder holds back: `lookAhead` in whole hops.
        public var lag: Int { max(0, Int((lookAhead * sampleRate / Double(hop)).rounded(.down))) }

        /// Throws, saying what was expected, when the configuration cannot work.
        public func validate() throws(ConfigurationError) {
            guard sampleRate.isFinite, sampleRate >= 1000, sampleRate <= 768_000 else {
                throw ConfigurationError(description: "sample rate \(sampleRate) Hz: expected 1000 to 768000")
            }
            guard minimumFrequency.isFinite, maximumFrequency.isFinite, minimumFrequency > 0,
                minimumFrequency < maximumFrequency, maximumFrequency < sampleRate / 2
            else {
                throw ConfigurationError(
                    description: "frequency range \(minimumFrequency)–\(maximumFrequency) Hz: expected 0 < min < max "
                        + "< \(sampleRate / 2) Hz (half the sample rate)")
            }
            guard window >= 32, window <= 1 << 18, window % 2 == 0 else {
                throw ConfigurationError(description: "window \(window): expected an even number of samples from 32 to 262144")
            }
            guard window >= 2 * (maximumLag + 1) else {
                throw ConfigurationError(
                    description: "window \(window) is too short for \(minimumFrequency) Hz at \(Int(sampleRate)) Hz: "
                        + "expected at least \(2 * (maximumLag + 1)) samples")
            }
            guard hop >= 1, hop <= window else {
                throw ConfigurationError(description: "hop \(hop): expected 1 to the window (\(window) samples)")
            }
            guard voicingThreshold > 0, voicingThreshold < 1 else {
                throw ConfigurationError(description: "voicing threshold \(voicingThreshold): expected a value between 0 and 1")
            }
            guard silenceRMS >= 0, silenceRMS.isFinite else {
                throw ConfigurationError(description: "silence RMS \(silenceRMS): expected zero or more")
            }
            guard lookAhead >= 0, lookAhead <= 1 else {
                throw ConfigurationError(description: "look-ahead \(lookAhead) s: expected 0 to 1 second")
            }
        }
    }

    /// A configuration that cannot work, with what was expected.
    public struct ConfigurationError: Error, CustomStringConvertible, Equatable, Sendable {
        public var description: String
    }

    public let configuration: Configuration
    private let detector: YINDetector
    private let decoder: PitchDecoder

    /// Checks `configuration`, allocates and plans: do it off the audio thread.
    public init(_ configuration: Configuration) throws(ConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        detector = YINDetector(configuration)
        decoder = Self.decoder(for: configuration)
    }

    private static func decoder(for configuration: Configuration) -> PitchDecoder {
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
    public static func track(signal: [Float], configuration: Configuration, threads: Int = 2)
        throws(ConfigurationError) -> [PitchFrame]
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
