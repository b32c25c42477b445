import ArgumentParser
import ChoirBase
import ChoirScore
import ChoirSession
import ChoirTerminal

extension Choir {
    /// `choir calibrate`: measures the round trip from the playback device to the capture device and stores it
    /// for `choir practice`.
    struct Calibrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure the round trip from loudspeaker to microphone and store it for practice.",
            discussion: """
                Plays six short sweeps on the playback device and listens for them on the capture device. Put the \
                microphone where you sing, at the volume you practise at. The two streams' clocks already account \
                for what the devices report; the sweeps measure the rest (converters, sound server, air).
                """)

        @Option(help: "The ALSA playback device.")
        var device = "default"

        @OptionGroup var microphone: Microphone

        @OptionGroup var sampleRate: SampleRate

        func run() throws {
            FileOutput.write(
                try failing { try LatencyCalibration.calibrate(output: device, input: microphone.input, sampleRate: sampleRate.hertz) })
        }
    }
}
