import ArgumentParser
import ChoirBase
import ChoirScore
import ChoirSession

extension Choir {
    /// `choir play`: the mix through ALSA, on a real-time thread.
    struct Play: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play the mix of a score through ALSA (space pauses, q quits).")

        @OptionGroup var playback: PlaybackArguments

        @OptionGroup var output: PlaybackDevice

        func run() async throws {
            let signals = SignalWatcher()
            let resolved = try playback.resolve()
            let player = try output.open(resolved, playback)
            let terminal = RawTerminal()
            defer { terminal?.restore() }
            let events = player.events()
            try failing { try player.start() }
            let (inputs, stop) = FrontEndInput.stream(events, typing: terminal == nil ? .none : .keys, signals: signals)
            var now = SessionSnapshot(), lastShown = "", line = ""
            playing: for await input in inputs {
                switch input {
                case .event(let event):
                    now.apply(event)
                    let started = now.measure != "-"
                    if let terminal {
                        let pass = now.passes > 1 ? "  pass \(now.pass) of \(now.passes)" : ""
                        let shown = started ? "\(now.measure):\(now.beat)\(pass)  " + (now.paused ? "paused" : "playing") : "starting"
                        let drawn = shown + "  ♩ = \(Int(resolved.schedule.initialTempo.rounded()))"
                        if drawn != line { terminal.show(drawn) }
                        line = drawn
                    } else if started && "\(now.pass) \(now.measure)" != lastShown {
                        FileOutput.write("measure \(now.measure)" + (now.passes > 1 ? ", pass \(now.pass) of \(now.passes)" : "") + "\n")
                    }
                    if started { lastShown = "\(now.pass) \(now.measure)" }
                case .key(.character(UInt8(ascii: "q"))), .signal: break playing
                case .key(.character(UInt8(ascii: " "))): player.send(.togglePause)
                case .key, .line, .closed: break
                }
            }
            stop()
            terminal?.restore()
            try output.end(player, signals: signals) { "played \($0) s on '\(output.device)'" }
        }
    }
}
