import ArgumentParser
import ChoirSession

/// Which pitch tracker listens: shared by the commands that track a voice (pitch, and through
/// ``SingerArguments`` practice and a plan's run).
struct TrackerArguments: ParsableArguments {
    @Option(
        help: """
            The pitch tracker: yin (the most exact on a voice alone, and the quickest), net (a learned tracker that \
            hears the voice through an accompaniment), or auto (yin guided by net where other sound than the \
            mix is expected, --accompanied; else yin, which hears the voice as well once the mix's echo is taken out).
            """)
    var tracker = PitchTrackerKind.auto.rawValue

    @Flag(help: "Other sound is expected besides the voice (a piano or a guitar in the room, a backing track).")
    var accompanied = false

    func validate() throws {
        let _: PitchTrackerKind = try named(tracker, for: "--tracker")
    }

    /// The tracker named (`validate` has checked the name).
    var kind: PitchTrackerKind { PitchTrackerKind(rawValue: tracker.lowercased()) ?? .auto }

    /// Sets `configuration`'s tracker from the options.
    func apply(to configuration: inout PitchTrackerConfiguration) {
        configuration.kind = kind
        configuration.accompanied = accompanied
    }
}
