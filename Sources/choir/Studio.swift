import ArgumentParser
import ChoirBase
import ChoirLibrary
import ChoirSession
import ChoirTerminal
import ChoirView
import FoundationEssentials

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

        @Flag(name: .customLong("open"), help: "Open the app in the desktop's browser.")
        var openStudio = false

        @OptionGroup var output: PlaybackDevice

        @Option(name: .customLong("input"), help: "The microphone for takes sung live: an ALSA capture device.")
        var input = "default"

        func run() async throws {
            let signals = SignalWatcher()
            let library = try openLibrary()
            if let folder, (try? FileManager.default.attributesOfItem(atPath: folder))?[.type] as? FileAttributeType != .typeDirectory {
                throw fail("\(folder): no such folder: expected a folder of scores", .noInput)
            }
            let folder = folder ?? Library.defaultFolder(history: PracticePlan.defaultHistory)
            let server: StudioServer
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                let changes = try library.add(Library.scores(in: [folder]))
                var devices = StudioDevices()
                (devices.output, devices.input, devices.period, devices.sampleRate) = (
                    output.device, input, output.period, output.sampleRate.hertz
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
            if openStudio { ScoreView.browse(server.address) }
            // A line ends the studio; the end of input leaves the page in charge (a launcher gives no terminal).
            await FrontEndInput.line(signals: signals, orEnd: false)
            if let signal = signals.received { throw ExitCode(128 + signal) }
        }
    }
}
