/// The pitch trackers, one row each: what a configuration's ``PitchTrackerKind`` builds, and how it tracks a whole
/// signal. Adding a tracker is one row; the rest of choir names none.
public enum PitchTrackers {
    private struct Row: Sendable {
        var name: String
        var make: @Sendable (PitchTrackerConfiguration) throws(PitchTrackerError) -> any PitchTracker
        var track: @Sendable ([Float], PitchTrackerConfiguration, Int) throws(PitchTrackerError) -> [PitchFrame]
    }

    private static let rows: [Row] = [
        Row(name: "yin", make: { (c) throws(PitchTrackerError) in try YINTracker(c) }, track: YINTracker.track),
        Row(name: "net", make: { (c) throws(PitchTrackerError) in try NetTracker(c) }, track: NetTracker.track),
        Row(name: "yin+net", make: { (c) throws(PitchTrackerError) in try CombinedTracker(c) }, track: CombinedTracker.track),
    ]

    /// The tracker `configuration` names: `yin`, `net`, or `yin+net` (YIN guided by the network, what `auto` takes
    /// where other sound is expected).
    public static func name(of configuration: PitchTrackerConfiguration) -> String {
        switch configuration.kind {
        case .yin: "yin"
        case .net: "net"
        case .auto: configuration.accompanied ? "yin+net" : "yin"
        }
    }

    private static func row(for configuration: PitchTrackerConfiguration) -> Row {
        let name = name(of: configuration)
        return rows.first { $0.name == name }!
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
