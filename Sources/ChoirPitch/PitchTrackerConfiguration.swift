/// What a pitch tracker listens for and how: which tracker (``PitchTrackerKind``), the signal's rate, the range of
/// pitches, and the frames wanted. ``PitchTrackers/make(_:)`` builds the tracker it names. The window, voicing
/// threshold and look-ahead are YIN's; a tracker that hears another way reads what it needs and checks it.
public struct PitchTrackerConfiguration: Equatable, Sendable {
    /// Which tracker.
    public var kind = PitchTrackerKind.yin
    /// Whether other sound is expected in the signal besides the voice (a piano or a guitar in the room, a backing
    /// track; not a mix whose echo is taken out first): what ``PitchTrackerKind/auto`` decides by.
    public var accompanied = false
    /// The learned tracker's weights file; nil for the one ``PitchNetWeights/locate(explicit:environment:)`` finds.
    public var netWeights: String?
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

    /// The look-ahead of a tracker heard live: a few frames, which the needle and the judge's live verdicts can wait.
    public static let liveLookAhead = 0.025
    /// The look-ahead of a tracker reading a recording, where nothing waits on the decision: a second, longer than
    /// any scoop or wavering onset the decoder may need to see past.
    public static let recordingLookAhead = 1.0

    /// A low bass's C2 (65 Hz) to a soprano's high C6 (1047 Hz), with room for a flat C2 and a sharp C6.
    public static let singingRange = (minimum: 60.0, maximum: 1100.0)

    /// `window` defaults to 2.2 periods of the lowest frequency, and `hop` to the longest power of two up to
    /// 3 ms (a frame every 5 ms or so).
    public init(
        sampleRate: Double, window: Int? = nil, hop: Int? = nil,
        minimumFrequency: Double = singingRange.minimum, maximumFrequency: Double = singingRange.maximum,
        voicingThreshold: Double = 0.4, silenceRMS: Double = 0.0003, lookAhead: Double = liveLookAhead
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
    public func validate() throws(PitchTrackerError) {
        guard sampleRate.isFinite, sampleRate >= 1000, sampleRate <= 768_000 else {
            throw PitchTrackerError(description: "sample rate \(sampleRate) Hz: expected 1000 to 768000")
        }
        guard minimumFrequency.isFinite, maximumFrequency.isFinite, minimumFrequency > 0,
            minimumFrequency < maximumFrequency, maximumFrequency < sampleRate / 2
        else {
            throw PitchTrackerError(
                description: "frequency range \(minimumFrequency)–\(maximumFrequency) Hz: expected 0 < min < max "
                    + "< \(sampleRate / 2) Hz (half the sample rate)")
        }
        guard window >= 32, window <= 1 << 18, window % 2 == 0 else {
            throw PitchTrackerError(description: "window \(window): expected an even number of samples from 32 to 262144")
        }
        guard window >= 2 * (maximumLag + 1) else {
            throw PitchTrackerError(
                description: "window \(window) is too short for \(minimumFrequency) Hz at \(Int(sampleRate)) Hz: "
                    + "expected at least \(2 * (maximumLag + 1)) samples")
        }
        guard hop >= 1, hop <= window else {
            throw PitchTrackerError(description: "hop \(hop): expected 1 to the window (\(window) samples)")
        }
        guard voicingThreshold > 0, voicingThreshold < 1 else {
            throw PitchTrackerError(description: "voicing threshold \(voicingThreshold): expected a value between 0 and 1")
        }
        guard silenceRMS >= 0, silenceRMS.isFinite else {
            throw PitchTrackerError(description: "silence RMS \(silenceRMS): expected zero or more")
        }
        guard lookAhead >= 0, lookAhead <= 1 else {
            throw PitchTrackerError(description: "look-ahead \(lookAhead) s: expected 0 to 1 second")
        }
    }
}
