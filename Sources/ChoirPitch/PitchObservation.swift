/// What YIN finds in one window: its level, and the periods it may have, each with how likely it is.
public struct PitchObservation: Sendable {
    /// Centre of the window, in seconds.
    public var time: Double
    /// RMS of the window.
    public var level: Double
    /// RMS of what the microphone may hear besides the singer; see ``PitchFrame/accompaniment``.
    public var accompaniment = 0.0
    /// d′ at the window's most periodic dip (1 for silence).
    public var aperiodicity: Double
    public var candidates = PitchCandidates()

    public init(time: Double, level: Double, aperiodicity: Double = 1) {
        self.time = time
        self.level = level
        self.aperiodicity = aperiodicity
    }
}
