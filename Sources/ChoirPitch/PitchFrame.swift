/// One analysed frame: the pitch the tracker decided on, or none.
public struct PitchFrame: Sendable {
    /// Centre of the analysis window, in seconds from the start of the signal.
    public var time: Double
    /// Fundamental frequency in Hz; 0 when unvoiced.
    public var frequency: Double
    /// 1 − d′ at the chosen period (YIN's cumulative mean normalised difference): how periodic the window is
    /// there. For an unvoiced frame, the same at its most periodic dip; 0 for silence.
    public var confidence: Double
    /// RMS of the window, so that a judge can tell the singer from quieter sounds around them.
    public var level: Double
    /// RMS, over the same window, of the mix that was playing: what the microphone may hear besides the singer
    /// (0 when nothing is known to play). The tracker carries it through; a practice session fills it in.
    public var accompaniment: Double
    /// Every period the tracker weighed for this window, the chosen one among them: where two sounds repeat
    /// together, the voice's own period is one of the others.
    public var candidates = PitchCandidates()
    public var isVoiced: Bool { frequency > 0 }

    public init(time: Double, frequency: Double, confidence: Double, level: Double = 0, accompaniment: Double = 0) {
        self.time = time
        self.frequency = frequency
        self.confidence = confidence
        self.level = level
        self.accompaniment = accompaniment
    }
}
