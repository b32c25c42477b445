import ArgumentParser
import ChoirBase
import ChoirScore
import ChoirSession
import Glibc

extension Choir {
    /// `choir play`: the mix through ALSA, on a real-time thread.
    struct Play: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play the mix of a score through ALSA (space pauses, q quits).")

        @OptionGroup var playback: PlaybackArguments

        @OptionGroup var output: PlaybackDevice

        func run() throws {
            let signals = SignalWatcher()
            let resolved = try playback.resolve()
            let player = try output.open(resolved, playback)
            let terminal = RawTerminal()
            defer { terminal?.restore() }
            do { try player.start() } catch { throw fail(error) }
            var lastShown = ""
            while !player.hasEnded && player.error == nil && signals.received == nil {
                if let key = terminal?.readKey() {
                    if key == UInt8(ascii: "q") { break }
                    if key == UInt8(ascii: " ") { player.send(.togglePause) }
                }
                let now = player.snapshot
                let started = now.measure != "-"
                if let terminal {
                    let pass = now.passes > 1 ? "  pass \(now.pass) of \(now.passes)" : ""
                    let shown = started ? "\(now.measure):\(now.beat)\(pass)  " + (now.paused ? "paused" : "playing") : "starting"
                    terminal.show(shown + "  ♩ = \(Int(resolved.schedule.initialTempo.rounded()))")
                } else if started && "\(now.pass) \(now.measure)" != lastShown {
                    FileOutput.write("measure \(now.measure)" + (now.passes > 1 ? ", pass \(now.pass) of \(now.passes)" : "") + "\n")
                }
                if started { lastShown = "\(now.pass) \(now.measure)" }
                // Until a key is pressed, or the position shown is due again.
                var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
                if terminal != nil { _ = poll(&descriptor, 1, 20) } else { usleep(20_000) }
            }
            player.stop()
            terminal?.restore()
            var standardError = StandardError()
            print(
                "choir: played \(String(printf: "%.1f", player.seconds)) s on '\(output.device)', \(player.underruns) underruns",
                to: &standardError)
            if let error = player.error { throw fail(error) }
            if let signal = signals.received { throw ExitCode(128 + signal) }
        }
    }
}
