import ArgumentParser
import ChoirSession

/// The options of everything that listens to the singer (practice and a plan's run): where the voice comes from,
/// where the mix goes, the loudspeakers' round trip, and which pitch tracker judges.
struct SingerArguments: ParsableArguments {
    @Option(
        name: [.customLong("input"), .customLong("input-device")],
        help:
            "The microphone: an ALSA capture device, or a recording to judge instead (WAV, FLAC, Ogg, Opus, MP3; time 0 = the first beat, or the count-in's first click); a plan's run takes one recording per item, in order (default: the default device)."
    )
    var input: [String] = []

    @Option(
        name: [.customLong("output"), .customLong("device")],
        help:
            "Where the mix goes: an ALSA device, a .wav file (a plan's item N in FILE-N.wav), or none (at a microphone, silence on the music's true time); default: none for a recording, else the default device."
    )
    var output: String?

    @Flag(help: "The microphone hears no loudspeakers (you wear headphones): the mix is not looked for in it.")
    var headphones = false

    // Unconditional, so that a negative value as calibrate prints it needs no '='.
    @Option(
        parsing: .unconditional,
        help:
            "Round-trip latency to subtract from the microphone, in ms (default: what `choir calibrate` stored for the two devices, or 0)."
    )
    var latency: Double?

    @OptionGroup var tracking: TrackerArguments

    func validate() throws {
        if let latency, !(-500...2000).contains(latency) { throw ValidationError("--latency \(latency): expected -500 to 2000 ms") }
        if let problem = output.flatMap(MixDestination.problem) { throw ValidationError("--output \(problem)") }
    }

    /// Sets `plan`'s devices from the options: the singer is `input`, the mix goes to `output`.
    func apply(to plan: inout PracticePlan, input: String, output: String? = nil) {
        plan.input = PracticePlan.Input(input)
        if let output = output ?? self.output { plan.output = MixDestination(output) }
        plan.latency = latency.map { $0 / 1000 }
        plan.loudspeakers = !headphones
        plan.tracker = tracking.kind
        plan.accompanied = tracking.accompanied
    }
}
