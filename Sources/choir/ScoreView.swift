import ArgumentParser
import ChoirBase
import ChoirSession
import ChoirTerminal
import ChoirView

/// The session's engraved score in the browser (`choir view`, and `choir practice --view` beside the terminal).
/// Its address is the first line printed; once a practice session has ended the page keeps the report until
/// Enter (or the end of input).
final class ScoreView {
    let feed: SessionFeed
    let server: ViewServer

    /// Engraves the session's score (or reads its cached engraving), serves it, prints the address and, with
    /// `open`, hands it to the desktop's browser.
    init(_ session: any SteeredSession, open: Bool) throws {
        let engraving: Engraving
        do {
            engraving = try Engraving.of(score: session.resolved.plan.score, transpose: session.resolved.plan.transpose)
            feed = SessionFeed(session, engraving: engraving)
            server = try ViewServer(feed)
        } catch {
            throw fail(error)
        }
        FileOutput.write("Score view: \(server.address)\n")
        if open { Self.browse(server.address) }
        feed.start()
    }

    /// Keeps the page, which the session's last event gave the report, up until Enter, the end of input, or a signal.
    func linger(signals: SignalWatcher) async {
        FileOutput.write("The score view shows the report at \(server.address); press Enter to close it.\n")
        await FrontEndInput.line(signals: signals, orEnd: true) { $0.contains("\n") || $0.contains("q") }
    }

    /// Stops serving, and says how long after the microphone the page showed what was sung.
    func close() {
        feed.stop()
        server.stop()
        if let lag = feed.lag { Self.say(lag, shown: "the score view") }
    }

    /// Says how long after the microphone `shown` painted what was sung, and `plus`.
    static func say(_ lag: (median: Int, percentile95: Int, maximum: Int), shown: String, plus: String = "") {
        warn(Desktop.delay(lag, shown: shown, plus: plus))
    }

    /// Opens `address` in the desktop's browser, or says that it cannot.
    static func browse(_ address: String) {
        if let browser = Desktop.browse(address) { warn("cannot start \(browser) to open the score view; open \(address) yourself") }
    }
}

/// `--open`, for the commands that serve a page (`view`, `studio`, `practice --view`).
struct OpenFlag: ParsableArguments {
    @Flag(name: .customLong("open"), help: "Open the page in the desktop's browser.")
    var open = false
}

/// `--input`, for the commands that listen to a microphone live (`calibrate`, `pitch --live`, `studio`).
struct Microphone: ParsableArguments {
    @Option(name: [.customLong("input"), .customLong("input-device")], help: "The microphone: an ALSA capture device.")
    var input = "default"
}
