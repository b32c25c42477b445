import ArgumentParser
import ChoirBase
import ChoirScore
import ChoirSession
import ChoirTerminal

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
            let screen = PlaybackScreen()
            defer { screen.close() }
            let events = player.events()
            try failing { try player.start() }
            await screen.follow(events, of: player, as: .play(tempo: resolved.schedule.initialTempo), signals: signals)
            screen.close()
            try output.end(player, signals: signals) { "played \($0) s on '\(output.device)'" }
        }
    }
}
