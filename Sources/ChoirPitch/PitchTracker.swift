/// What every pitch tracker does, whichever way it hears: windows of the signal go in as they are captured, and
/// frames come out, each decided ``delay`` seconds after the newest sound it weighed. ``PitchTrackers`` builds one
/// from a ``PitchTrackerConfiguration`` and tracks whole signals; nothing else names a tracker.
///
/// Building a tracker allocates and plans everything; `analyse` allocates nothing and takes no lock, so a session
/// may call it as each hop is captured. One tracker must not be used from two threads at once.
public protocol PitchTracker: AnyObject, Sendable {
    var configuration: PitchTrackerConfiguration { get }

    /// Seconds by which the frame returned follows the centre of the window just analysed.
    var delay: Double { get }

    /// Analyses one window of `configuration.window` samples whose centre lies at `time` seconds, the window
    /// `configuration.hop` samples on from the last one, with `accompaniment` the RMS of the mix the microphone may
    /// have heard over it. Returns the frame decided now, if one was.
    func analyse(_ samples: UnsafeBufferPointer<Float>, time: Double, accompaniment: Double) -> PitchFrame?

    /// Decides the frames still held back, at the end of the signal, and starts afresh.
    func finish(_ body: (PitchFrame) -> Void)
}

/// Which pitch tracker to use: a row of ``PitchTrackers`` each.
public enum PitchTrackerKind: String, Sendable, CaseIterable, Codable {
    /// choir's YIN tracker (``YINTracker``): candidate periods weighed as probabilistic YIN weighs them, followed
    /// through by a hidden Markov model.
    case yin
    /// The learned tracker (SwiftF0's network): hears the voice through an accompaniment.
    case net
    /// Where other sound is expected (``PitchTrackerConfiguration/accompanied``), YIN guided by the learned tracker
    /// (``CombinedTracker``); else YIN.
    case auto

    /// Whether this kind listens with the learned tracker, with or without other sound expected.
    public func usesNetwork(accompanied: Bool) -> Bool {
        self == .net || (self == .auto && accompanied)
    }
}

/// A tracker that cannot be built as asked, with what was expected.
public struct PitchTrackerError: Error, CustomStringConvertible, Equatable, Sendable {
    public var description: String
    /// Whether the learned tracker's weights file is missing or wrong (the message names it, and what rebuilds
    /// it), rather than the configuration.
    public var isWeights: Bool

    public init(description: String, isWeights: Bool = false) {
        self.description = description
        self.isWeights = isWeights
    }
}

extension PitchTracker {
    /// Analyses one window with nothing known to play over it.
    public func analyse(_ samples: UnsafeBufferPointer<Float>, time: Double) -> PitchFrame? {
        analyse(samples, time: time, accompaniment: 0)
    }
}
