import ChoirBase
import ChoirSession
import ChoirTerminal
import ChoirView
import FoundationEssentials
import Glibc

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
        warn(
            "\(shown) showed what was sung \(lag.median) ms after it was captured (median; 95%: \(lag.percentile95) ms, "
                + "at most \(lag.maximum) ms)" + plus)
    }

    /// `$BROWSER`, else `xdg-open`, detached from the terminal.
    static func browse(_ address: String) {
        let browser = ProcessInfo.processInfo.environment["BROWSER"].flatMap { $0.isEmpty ? nil : $0 } ?? "xdg-open"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let words: [String] = ["/usr/bin/env", browser, address]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        if SpawnAttributes.withSignalsReset({ posix_spawn(&pid, "/usr/bin/env", &actions, $0, argv, environ) }) != 0 {
            warn("cannot start \(browser) to open the score view; open \(address) yourself")
        }
    }
}
