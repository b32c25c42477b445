import ArgumentParser
import ChoirSession
import ChoirTerminal
import Glibc

extension Choir {
    /// `choir render`: the mix to a WAV file, faster than real time.
    struct Render: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Render the mix of a score to a WAV file (faster than real time) or a standard MIDI file.")

        @OptionGroup var playback: PlaybackArguments

        @Option(name: .shortAndLong, help: "The output file: OUT.wav, or OUT.mid for a MIDI file of the same mix.")
        var output: String

        @OptionGroup var sampleRate: SampleRate

        func run() throws {
            guard let format = MixRender.Format(file: output) else {
                throw usage("\(output): expected an output file ending in .wav or .mid")
            }
            let resolved = try playback.resolve()
            var progress = isatty(2) == 1 ? ProgressBar() : nil
            defer { progress?.finish() }
            try failing {
                try MixRender.write(resolved, as: format, to: output, sampleRate: sampleRate.hertz) { done, total in
                    progress?.update(done, of: total)
                }
            }
        }
    }
}
