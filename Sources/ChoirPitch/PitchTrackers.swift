/// The pitch trackers, one row each: what a configuration's ``PitchTrackerKind`` builds, and how it tracks a whole
/// signal. Adding a tracker is one row; the rest of choir names none.
public enum PitchTrackers {
    private struct Row: Sendable {
        var kind: PitchTrackerKind
        var make: @Sendable (PitchTrackerConfiguration) throws(PitchTrackerError) -> any PitchTracker
        var track: @Sendable ([Float], PitchTrackerConfiguration, Int) throws(PitchTrackerError) -> [PitchFrame]
    }

    private static let rows: [Row] = [
        Row(kind: .yin, make: { (c) throws(PitchTrackerError) in try YINTracker(c) }, track: YINTracker.track),
    ]

    private static func row(for configuration: PitchTrackerConfiguration) -> Row {
        let kind = configuration.kind.resolved(accompanied: configuration.accompanied)
        return rows.first { $0.kind == kind }!
    }

    /// The tracker `configuration` names, built and checked: do it off the audio thread.
    public static func make(_ configuration: PitchTrackerConfiguration) throws(PitchTrackerError) -> any PitchTracker {
        try row(for: configuration).make(configuration)
    }

    /// Tracks a whole signal as the tracker `configuration` names would live: one frame per hop of that tracker,
    /// from the signal's start (taken as silent beyond its ends). Meant for files: it allocates the result, and may
    /// work on `threads` threads.
    public static func track(signal: [Float], configuration: PitchTrackerConfiguration, threads: Int = 2)
        throws(PitchTrackerError) -> [PitchFrame]
    {
        try row(for: configuration).track(signal, configuration, threads)
    }
}
