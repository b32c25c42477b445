import ArgumentParser
import ChoirBase
import ChoirSession

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

        @Flag(name: .customLong("open"), help: "Open the page in the desktop's browser.")
        var openView = false

        func run() async throws {
            let signals = SignalWatcher()
            let resolved = try playback.resolve()
            let session = try output.open(resolved, playback, startsPaused: true, holdsAtEnd: true)
            let view = try ScoreView(session, open: openView)
            defer { view.close() }
            let events = session.events()
            try failing { try session.start() }
            let terminal = RawTerminal()
            defer { terminal?.restore() }
            if terminal == nil { FileOutput.write("Play it from the page; a line here ends it.\n") }
            let (inputs, stop) = FrontEndInput.stream(events, typing: terminal == nil ? .lines : .keys, signals: signals)
            var now = SessionSnapshot(), shown = (measure: "-", paused: true), line = ""
            watching: for await input in inputs {
                switch input {
                case .event(let event):
                    now.apply(event)
                    if let terminal {
                        var flags = now.flags
                        if !now.paused { flags.insert("playing", at: 0) }
                        let percent = now.tempoPercent == 100 ? "" : " (\(now.tempoPercent)%)"
                        let place = now.measure == "-" ? "starting" : "m. \(now.measure):\(now.beat)"
                        let drawn = "\(place)  ♩ = \(Int(now.tempo.rounded()))\(percent)  " + flags.joined(separator: ", ")
                        if drawn != line { terminal.show(drawn) }
                        line = drawn
                    } else if now.measure != "-" && (now.measure != shown.measure || now.paused != shown.paused) {
                        if now.paused != shown.paused { FileOutput.write(now.paused ? "paused\n" : "playing\n") }
                        if now.measure != shown.measure { FileOutput.write("measure \(now.measure)\n") }
                        shown = (now.measure, now.paused)
                    }
                case .key(let key): if let command = SessionScreen.command(for: key) { session.send(command) }
                // A line ends playback; the end of input leaves the page in charge (a launcher gives no terminal).
                case .line(let text): if text.contains("\n") { break watching }
                case .closed: break
                case .signal: break watching
                }
            }
            stop()
            terminal?.restore()
            try output.end(session, signals: signals) { "the view played on '\(output.device)' for \($0) s" }
        }
    }
}
