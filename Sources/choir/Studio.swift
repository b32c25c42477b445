import ArgumentParser
import ChoirBase
import ChoirLibrary
import ChoirSession
import ChoirTerminal
import ChoirView

extension Choir {
    /// `choir studio`: the library in the browser, one local app on 127.0.0.1 behind a token.
    struct Studio: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Your library in the browser: find and add scores, mix a piece, play it and sing takes (the address is printed first).",
            discussion: """
                FOLDER's scores are added to the library first (changed and moved files noticed, as `choir library add` \
                does), and scores brought to the page are filed there. A line on standard input, or a signal, ends it.
                """)

        @Argument(help: "A folder of scores (default: scores/ beside the history, where the library's are filed).")
        var folder: String?

        @OptionGroup var browser: OpenFlag

        @OptionGroup var output: PlaybackDevice

        /// Where takes sung live come from.
        @OptionGroup var microphone: Microphone

        func run() async throws {
            let signals = SignalWatcher()
            let library = try openLibrary()
            let server: StudioServer
            do {
                let (folder, changes) = try library.add(folder: folder, history: PracticePlan.defaultHistory)
                var devices = StudioDevices()
                (devices.output, devices.input, devices.period, devices.sampleRate) = (
                    output.device, microphone.input, output.period, output.sampleRate.hertz
                )
                server = try StudioServer(library: library, history: try openHistory(), folder: folder, devices: devices)
                FileOutput.write("Studio: \(server.address)\n")
                FileOutput.write(Library.added(changes, total: try library.entries().count))
                // A score in FOLDER that choir cannot read is said, and the studio serves the rest.
                for case (_, .failure(let error)) in changes { warn(error) }
            } catch {
                throw fail(error)
            }
            defer {
                server.stop()
                if let lag = server.lag { ScoreView.say(lag, shown: "the studio") }
            }
            if browser.open { ScoreView.browse(server.address) }
            // A line ends the studio; the end of input leaves the page in charge (a launcher gives no terminal).
            await FrontEndInput.line(signals: signals, orEnd: false)
            if let signal = signals.received { throw ExitCode(128 + signal) }
        }
    }
}
