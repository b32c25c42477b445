import ArgumentParser
import ChoirSession

extension Choir {
    /// `choir pitch`: the pitch track of a recording, or a tuner on live input.
    struct Pitch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Track the pitch of a recording (one line per hop), or show a live tuner with --live.")

        @Argument(help: "A recording: WAV, FLAC, Ogg Vorbis, Opus, MP3 or AIFF; channels are mixed down; any rate.")
        var input: String?

        @Flag(help: "Listen to the audio input instead of a file: a tuner at the terminal (q or Ctrl-C quits).")
        var live = false

        /// What --live listens to.
        @OptionGroup var microphone: Microphone

        /// The rate --live captures at.
        @OptionGroup var sampleRate: SampleRate

        @Option(help: "With --live, stop after this many seconds instead of waiting for q or Ctrl-C.")
        var duration: Double?

        @Option(help: "Analysis window in samples (default: 2.2 periods of --min-freq).")
        var window: Int?

        @Option(help: "Samples between frames (default: a power of two, about 5 ms).")
        var hop: Int?

        @Option(help: "Lowest frequency to look for, in Hz (default: below a low bass's C2).")
        var minFreq = PitchTrackerConfiguration.singingRange.minimum

        @Option(help: "Highest frequency to look for, in Hz (default: above a soprano's high C6).")
        var maxFreq = PitchTrackerConfiguration.singingRange.maximum

        @Option(
            help: "The aperiodicity (YIN's normalised difference at the best period, 0 to 1) at which a frame is as likely voiced as not.")
        var threshold = 0.4

        @Option(help: "Seconds of sound after a frame that the tracker weighs before deciding it (default: 1 for files, 0.025 live).")
        var lookAhead: Double?

        @Option(help: "Output format for files: csv or json.")
        var format = PitchFormat.csv.rawValue

        @OptionGroup var tracking: TrackerArguments

        func validate() throws {
            let _: PitchFormat = try named(format, for: "--format")
            if live && input != nil { throw ValidationError("give either a recording or --live, not both") }
            if !live && input == nil { throw ValidationError("give a recording, or --live for a tuner") }
        }

        func configuration(sampleRate: Int) -> PitchTrackerConfiguration {
            var configuration = PitchTrackerConfiguration(
                sampleRate: Double(sampleRate), window: window, hop: hop, minimumFrequency: minFreq,
                maximumFrequency: maxFreq, voicingThreshold: threshold,
                lookAhead: lookAhead ?? (live ? PitchTrackerConfiguration.liveLookAhead : PitchTrackerConfiguration.recordingLookAhead))
            tracking.apply(to: &configuration)
            return configuration
        }

        func run() async throws {
            if live {
                try await LiveTuner(
                    configuration: configuration(sampleRate: sampleRate.hertz), device: microphone.input, duration: duration
                ).run()
                return
            }
            let track = try failing { try PitchFile.track(input!, configuration: configuration(sampleRate:)) }
            var out = PitchWriter(format: try named(format, for: "--format"))
            out.write(sampleRate: track.sampleRate, configuration: track.configuration, frames: track.frames)
        }
    }
}
