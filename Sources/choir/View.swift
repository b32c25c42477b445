import ArgumentParser
import ChoirBase
import ChoirSession
import ChoirTerminal

extension Choir {
    /// `choir view`: the engraved score in the browser, played from the page.
    struct View: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the engraved score in the browser and play it from the page (its address is the first line printed).",
            discussion: """
                The music waits for the page (or the terminal): space plays and pauses, ←/→ move by a measure, l loops \
                the phrase, +/− change the tempo, m mutes your line and p sounds your next note (with --part), q ends; \
                a click on a measure plays from there. Played to its end, the music waits there to be played again. \
                Without a terminal, a line on standard input ends it.
                """)

        @OptionGroup var playback: PlaybackArguments

        @OptionGroup var output: PlaybackDevice

        @OptionGroup var browser: OpenFlag

        func run() async throws {
            let signals = SignalWatcher()
            let resolved = try playback.resolve()
            let session = try output.open(resolved, playback, startsPaused: true, holdsAtEnd: true)
            let view = try ScoreView(session, open: browser.open)
            defer { view.close() }
            let events = session.events()
            try failing { try session.start() }
            let screen = PlaybackScreen()
            defer { screen.close() }
            if !screen.onTerminal { FileOutput.write("Play it from the page; a line here ends it.\n") }
            await screen.follow(events, of: session, as: .view, signals: signals)
            screen.close()
            try output.end(session, signals: signals) { "the view played on '\(output.device)' for \($0) s" }
        }
    }
}
