import ArgumentParser
import ChoirAudio
import ChoirPlayback
import ChoirScore
import FoundationEssentials
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
            guard (16...8192).contains(period) else { throw fail("--period \(period): expected 16 to 8192 frames") }
            let resolved = try playback.resolve()
            let renderer: SynthRenderer
            let output: ALSAPlayback
            do {
                renderer = try SynthRenderer(
                    soundFont: resolved.soundFont, sampleRate: sampleRate, schedule: resolved.schedule,
                    programs: resolved.programs, mixer: resolved.mixer, blockSize: period)
                output = try ALSAPlayback(device: device, sampleRate: sampleRate, periodFrames: period, source: renderer)
            } catch let error as AudioDeviceError {
                throw fail("\(error); to write the mix to a file instead, use `choir render \(playback.score) -o mix.wav`")
            } catch {
                throw fail("\(error)")
            }
            signal(SIGINT) { _ in interrupted.store(true, ordering: .relaxed) }
            let terminal = isatty(1) == 1 ? RawTerminal() : nil
            defer { terminal?.restore() }
            let clock = PositionClock(schedule: resolved.schedule, score: resolved.score, sampleRate: sampleRate,
                                      zeroSample: renderer.zeroSample)
            do { try output.start() } catch { throw fail(error) }
            var lastShown = ""
            while !output.isFinished && output.error == nil && !interrupted.load(ordering: .relaxed) {
                if let key = terminal?.readKey() {
                    if key == UInt8(ascii: "q") { break }
                    if key == UInt8(ascii: " ") { output.isPaused.toggle() }
                }
                let position = clock.position(at: renderer.renderedFrames)
                if let terminal {
                    terminal.show("\(position.measure):\(position.beat)  " + (output.isPaused ? "paused" : "playing")
                                  + "  ♩ = \(Int(resolved.schedule.initialTempo.rounded()))")
                } else if position.measure != lastShown {
                    FileOutput.write("measure \(position.measure)\n")
                }
                lastShown = position.measure
                usleep(20_000)
            }
            output.stop()
            terminal?.restore()
            var standardError = StandardError()
            let seconds = Double(renderer.renderedFrames) / Double(sampleRate)
            print("choir: played \(String(printf: "%.1f", seconds)) s on '\(device)', \(output.underruns) underruns",
                  to: &standardError)
            if let error = output.error { throw fail(error) }
        }
    }
}

/// Turns a rendered sample position into measure and beat for the display.
struct PositionClock {
    var schedule: Schedule
    var score: Score
    var sampleRate: Int
    var zeroSample: Int

    func position(at frames: Int) -> (measure: String, beat: Int) {
        let seconds = Double(frames - zeroSample) / Double(sampleRate)
        guard seconds >= 0 else { return ("count-in", 0) }
        guard let index = schedule.measures.lastIndex(where: { $0.start <= seconds }) else { return ("-", 0) }
        let (measureIndex, start) = schedule.measures[index]
        let end = index + 1 < schedule.measures.count ? schedule.measures[index + 1].start : schedule.length
        let measure = score.measures[measureIndex]
        let beats = max(1, measure.time.beats.reduce(0, +))
        let beat = min(beats, Int((seconds - start) / max(0.001, end - start) * Double(beats)) + 1)
        return (measure.number, beat)
    }
}
