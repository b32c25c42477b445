import ArgumentParser
import ChoirPitch

/// Which pitch tracker listens: shared by the commands that track a voice.
struct TrackerArguments: ParsableArguments {
    @Option(
        help: """
            The pitch tracker: yin (the most exact on a voice alone, and the quickest), net (a learned tracker that \
            hears the voice through an accompaniment), or auto (yin guided by net where other sound than the \
            mix is expected, --accompanied; else yin, which hears the voice as well once the mix's echo is taken out).
            """)
    var tracker: PitchTrackerKind = .auto

    @Flag(help: "Other sound is expected besides the voice (a piano or a guitar in the room, a backing track).")
    var accompanied = false
}

extension PitchTrackerKind: ExpressibleByArgument {}
