import ArgumentParser
import ChoirBase
import ChoirSession
import ChoirTerminal

/// The options of the commands that play the mix on a device (`play`, `view`), and opening it.
struct PlaybackDevice: ParsableArguments {
    @Option(help: "ALSA playback device, or none: silence, on the music's true time (no sound card needed).")
    var device = "default"

    @Option(help: "Frames the playback thread renders and writes at a time.")
    var period = 256

    @OptionGroup var sampleRate: SampleRate

    /// Opens the device for `resolved` (from `playback`'s score); one that cannot be opened exits with
    /// ``ExitStatus/deviceUnavailable``, naming `--device none` and `choir render` instead.
    func open(_ resolved: ResolvedPlayback, _ playback: PlaybackArguments, startsPaused: Bool = false, holdsAtEnd: Bool = false)
        throws -> PlaybackSession
    {
        guard PlaybackSession.periods.contains(period) else {
            throw usage(expected("--period", period, PlaybackSession.periods, unit: " frames"))
        }
        do {
            return try PlaybackSession(
                resolved, device: device, sampleRate: sampleRate.hertz, period: period, startsPaused: startsPaused, holdsAtEnd: holdsAtEnd)
        } catch  where error.kind == .deviceUnavailable {
            throw fail(
                "\(error); without a sound card, add `--device none` (silence, on the music's time), or write the mix to a "
                    + "file with `choir render \(playback.score.score.shellQuoted) -o mix.wav`",
                .deviceUnavailable)
        } catch {
            throw fail(error)
        }
    }

    /// Ends `session`, says how it played (`said` words it from its seconds; its underruns follow), and exits with
    /// its failure, or the signal that ended it.
    func end(_ session: PlaybackSession, signals: SignalWatcher, said: (String) -> String) throws {
        // Read while the stream runs (a stalled stream's error is that it runs without moving), and again once it is
        // stopped (a thread that would not stop is stuck in the device).
        let stalled = session.error
        session.stop()
        // When each came, because an underrun at the start and one where the machine held the process up have
        // different causes.
        let times = session.underrunTimes
        let placed =
            times.isEmpty
            ? ""
            : " (\(times.count < session.underruns ? "the first \(times.count) " : "")at "
                + times.map { String(printf: "%.2f", $0) }.joined(separator: ", ") + " s)"
        warn(said(String(printf: "%.1f", session.seconds)) + ", \(session.underruns) underruns" + placed)
        if let error = stalled ?? session.error { throw fail(error) }
        if let signal = signals.received { throw ExitCode(128 + signal) }
    }
}

/// `--sample-rate`, for every command that opens an audio device or writes audio.
struct SampleRate: ParsableArguments {
    @Option(name: .customLong("sample-rate"), help: "Sample rate, in Hz (8000 to 192000).")
    var hertz = 48000

    func validate() throws {
        guard PlaybackSession.sampleRates.contains(hertz) else {
            throw ValidationError(expected("--sample-rate", hertz, PlaybackSession.sampleRates, unit: " Hz"))
        }
    }
}
