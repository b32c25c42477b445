import ArgumentParser
import ChoirAudio
import ChoirPlayback
import FoundationEssentials
import Glibc

extension Choir {
    /// `choir render`: the mix to a WAV file, faster than real time.
    struct Render: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Render the mix of a score to a WAV file (faster than real time) or a standard MIDI file.")

        @OptionGroup var playback: PlaybackArguments

        @Option(name: .shortAndLong, help: "The output file: OUT.wav, or OUT.mid for a MIDI file of the same mix.")
        var output: String

        @Option(help: "Sample rate of the output, in Hz.")
        var sampleRate = 48000

        func run() throws {
            let isMIDI = output.lowercased().hasSuffix(".mid") || output.lowercased().hasSuffix(".midi")
            guard isMIDI || output.lowercased().hasSuffix(".wav") else {
                throw fail("\(output): expected an output file ending in .wav or .mid")
            }
            let resolved = try playback.resolve()
            // Fail on an unwritable path before spending time rendering.
            guard FileManager.default.createFile(atPath: output, contents: nil) else {
                throw fail("\(output): cannot be written: expected a writable path")
            }
            if isMIDI {
                let bytes = MIDIFile.encode(
                    resolved.schedule, lineNames: resolved.lines.map(\.name), programs: resolved.programs,
                    mixer: resolved.mixer)
                guard FileManager.default.createFile(atPath: output, contents: Data(bytes)) else {
                    throw fail("\(output): cannot be written: expected a writable path")
                }
                return
            }
            let renderer: SynthRenderer
            do {
                renderer = try SynthRenderer(
                    soundFont: resolved.soundFont, sampleRate: sampleRate, schedule: resolved.schedule,
                    programs: resolved.programs, mixer: resolved.mixer)
            } catch {
                try? FileManager.default.removeItem(atPath: output)
                throw fail(error)
            }
            var progress = isatty(2) == 1 ? ProgressBar(total: renderer.totalFrames) : nil
            do {
                let writer = try WAVWriter(path: output, channels: 2, sampleRate: sampleRate)
                let block = 4096
                var left = [Float](repeating: 0, count: block), right = left
                while !renderer.isFinished {
                    try left.withUnsafeMutableBufferPointer { l in
                        try right.withUnsafeMutableBufferPointer { r in
                            let count = renderer.render(left: l.baseAddress!, right: r.baseAddress!, frames: block)
                            try writer.append(left: l.baseAddress!, right: r.baseAddress!, frames: count)
                        }
                    }
                    progress?.update(renderer.position)
                }
                try writer.finish()
            } catch {
                progress?.finish()
                throw fail("\(error)")
            }
            progress?.finish()
        }
    }
}

/// A progress bar on standard error, for terminals.
struct ProgressBar {
    var total: Int
    private var shown = -1

    init(total: Int) { self.total = total }

    mutating func update(_ done: Int) {
        let percent = total > 0 ? done * 100 / total : 100
        guard percent != shown else { return }
        shown = percent
        let filled = percent * 30 / 100
        var standardError = StandardError()
        print("\r[" + String(repeating: "█", count: filled) + String(repeating: " ", count: 30 - filled) + "] \(percent)%",
              terminator: "", to: &standardError)
    }

    func finish() {
        var standardError = StandardError()
        print("\r\u{1B}[2K", terminator: "", to: &standardError)
    }
}
