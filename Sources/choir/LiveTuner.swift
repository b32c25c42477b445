import ArgumentParser
import ChoirSession
import ChoirTerminal
import Glibc

/// `choir pitch --live`: the tuner (the engine's ``Tuner``) drawn. On a terminal it shows note, octave and cents;
/// otherwise it prints the same CSV as for files.
struct LiveTuner {
    var configuration: PitchTrackerConfiguration
    var device: String
    /// Stop after this many seconds (for scripts and tests); nil runs until q or Ctrl-C.
    var duration: Double?

    func run() async throws {
        let signals = SignalWatcher()
        let tuner: Tuner
        do {
            tuner = try Tuner(device: device, configuration: configuration, duration: duration)
        } catch  where error.kind == .usage {
            throw usage("--live: \(error)")
        } catch {
            throw fail(error)
        }
        let screen = TunerScreen(configuration)
        let events = tuner.events()
        try failing { try tuner.start() }
        await screen.follow(events, of: tuner, signals: signals)
        let outcome = tuner.wait()
        screen.close()
        warn(outcome.summary(device: device))
        if let error = outcome.error { throw fail(error) }
    }
}
