import ArgumentParser
import ChoirScore
import ChoirSession
import Glibc

extension Choir {
    /// `choir play`: the mix through ALSA, on a real-time thread.
    struct Play: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play the mix of a score through ALSA (space pauses, q quits).")

        @OptionGroup var playback: PlaybackArguments

        @Option(help: "ALSA playback device.")
        var device = "default"

        @Option(help: "Frames the playback thread renders and writes at a time.")
        var period = 256

        @Option(help: "Sample rate, in Hz.")
        var sampleRate = 48000

        func run() throws {
            guard (16...8192).contains(period) else { throw usage("--period \(period): expected 16 to 8192 frames") }
            let signals = SignalWatcher()
            let resolved = try playback.resolve()
            let output: PlaybackSession
            do {
                output = try PlaybackSession(resolved, device: device, sampleRate: sampleRate, period: period)
            } catch where error.kind == .deviceUnavailable {
                throw fail("\(error); to write the mix to a file instead, use `choir render \(playback.score.shellQuoted) -o mix.wav`", ExitStatus.deviceUnavailable)
            } catch {
                throw fail(error)
            }
            let terminal = RawTerminal()
            defer { terminal?.restore() }
            do { try output.start() } catch { throw fail(error) }
            var lastShown = ""
            while !output.hasEnded && output.error == nil && signals.received == nil {
                if let key = terminal?.readKey() {
                    if key == UInt8(ascii: "q") { break }
                    if key == UInt8(ascii: " ") { output.send(.togglePause) }
                }
                let now = output.snapshot
                let started = now.measure != "-"
                if let terminal {
                    let shown = started ? "\(now.measure):\(now.beat)  " + (now.paused ? "paused" : "playing") : "starting"
                    terminal.show(shown + "  ♩ = \(Int(resolved.schedule.initialTempo.rounded()))")
                } else if started && now.measure != lastShown {
                    FileOutput.write("measure \(now.measure)\n")
                }
                if started { lastShown = now.measure }
                // Until a key is pressed, or the position shown is due again.
                var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
                if terminal != nil { _ = poll(&descriptor, 1, 20) } else { usleep(20_000) }
            }
            output.stop()
            terminal?.restore()
            var standardError = StandardError()
            print("choir: played \(String(printf: "%.1f", output.seconds)) s on '\(device)', \(output.underruns) underruns",
                  to: &standardError)
            if let error = output.error { throw fail(error) }
            if let signal = signals.received { throw ExitCode(128 + signal) }
        }
    }
}
