import ArgumentParser
import ChoirSession
import ChoirPitch
import FoundationEssentials
import Glibc

extension Choir {
    /// `choir pitch`: the pitch track of a recording, or a tuner on live input.
    struct Pitch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Track the pitch of a recording (one line per hop), or show a live tuner with --live.")

        @Argument(help: "A recording: WAV, FLAC, Ogg Vorbis, Opus, MP3 or AIFF; channels are mixed down; any rate.")
        var input: String?

        @Flag(help: "Listen to the audio input instead of a file: a tuner at the terminal (q or Ctrl-C quits).")
        var live = false

        @Option(help: "ALSA capture device for --live.")
        var device = "default"

        @Option(help: "Sample rate for --live, in Hz.")
        var sampleRate = 48000

        @Option(help: "With --live, stop after this many seconds instead of waiting for q or Ctrl-C.")
        var duration: Double?

        @Option(help: "Analysis window in samples (default: 2.2 periods of --min-freq).")
        var window: Int?

        @Option(help: "Samples between frames (default: a power of two, about 5 ms).")
        var hop: Int?

        @Option(help: "Lowest frequency to look for, in Hz (default: below a low bass's C2).")
        var minFreq = PitchTrackerConfiguration.singingRange.minimum

        @Option(help: "Highest frequency to look for, in Hz (default: above a soprano's high C6).")
        var maxFreq = PitchTrackerConfiguration.singingRange.maximum

        @Option(
            help: "The aperiodicity (YIN's normalised difference at the best period, 0 to 1) at which a frame is as likely voiced as not.")
        var threshold = 0.4

        @Option(help: "Seconds of sound after a frame that the tracker weighs before deciding it (default: 1 for files, 0.025 live).")
        var lookAhead: Double?

        @Option(help: "Output format for files: csv or json.")
        var format: PitchFormat = .csv

        @OptionGroup var tracking: TrackerArguments

        func validate() throws {
            if live && input != nil { throw ValidationError("give either a recording or --live, not both") }
            if !live && input == nil { throw ValidationError("give a recording, or --live for a tuner") }
        }

        func configuration(sampleRate: Int) -> PitchTrackerConfiguration {
            var configuration = PitchTrackerConfiguration(
                sampleRate: Double(sampleRate), window: window, hop: hop, minimumFrequency: minFreq,
                maximumFrequency: maxFreq, voicingThreshold: threshold, lookAhead: lookAhead ?? (live ? 0.025 : 1))
            configuration.kind = tracking.tracker
            configuration.accompanied = tracking.accompanied
            return configuration
        }

        func run() throws {
            if live {
                try LiveTuner(configuration: configuration(sampleRate: sampleRate), device: device, duration: duration).run()
                return
            }
            let track: (sampleRate: Int, configuration: PitchTrackerConfiguration, frames: [PitchFrame])
            do { track = try PitchFile.track(input!, configuration: configuration(sampleRate:)) } catch { throw fail(error) }
            var out = PitchWriter(format: format)
            out.begin(
                sampleRate: track.sampleRate, tracker: PitchTrackers.name(of: track.configuration), window: track.configuration.window,
                hop: track.configuration.hop)
            for frame in track.frames { out.write(frame) }
            out.end()
        }
    }
}

enum PitchFormat: String, ExpressibleByArgument, CaseIterable {
    case csv, json
}

/// Writes pitch frames quickly: fixed-point formatting into one buffer, flushed in large writes.
struct PitchWriter {
    var format: PitchFormat
    private var buffer: [UInt8] = []
    private var first = true

    init(format: PitchFormat) {
        self.format = format
        buffer.reserveCapacity(1 << 16)
    }

    /// The header: the tracker, and for YIN (alone or guided) its window and hop in the recording's samples; the
    /// learned tracker alone hears 16 kHz, 2048 samples at most around each frame, every 256.
    mutating func begin(sampleRate: Int, tracker: String, window: Int, hop: Int) {
        switch (format, tracker) {
        case (.csv, _): append("time_s,f0_hz,confidence\n")
        case (.json, "net"):
            append("{\"sample_rate\": \(sampleRate), \"tracker\": \"net\", \"window_s\": 0.128, \"hop_s\": 0.016, \"frames\": [")
        case (.json, _):
            append("{\"sample_rate\": \(sampleRate), \"tracker\": \"\(tracker)\", \"window\": \(window), \"hop\": \(hop), \"frames\": [")
        }
    }

    mutating func write(_ frame: PitchFrame) {
        if format == .json { append(first ? "\n  [" : ",\n  [") }
        first = false
        fixed(frame.time, decimals: 5)
        buffer.append(UInt8(ascii: format == .csv ? "," : ","))
        if format == .json { buffer.append(UInt8(ascii: " ")) }
        fixed(frame.frequency, decimals: 3)
        buffer.append(UInt8(ascii: ","))
        if format == .json { buffer.append(UInt8(ascii: " ")) }
        fixed(frame.confidence, decimals: 3)
        buffer.append(UInt8(ascii: format == .csv ? "\n" : "]"))
        if buffer.count > 60_000 { flush() }
    }

    mutating func end() {
        if format == .json { append(first ? "]}\n" : "\n]}\n") }
        flush()
    }

    private mutating func append(_ text: String) { buffer.append(contentsOf: text.utf8) }

    private mutating func fixed(_ value: Double, decimals: Int) {
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((abs(value) * Double(scale)).rounded())
        if value < 0 && scaled != 0 { buffer.append(UInt8(ascii: "-")) }
        digits(scaled / scale)
        buffer.append(UInt8(ascii: "."))
        var fraction = scaled % scale
        var divisor = scale / 10
        while divisor > 0 {
            buffer.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
    }

    private mutating func digits(_ value: Int) {
        if value >= 10 { digits(value / 10) }
        buffer.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// Writes out what is buffered: a live listener's frames go out as they are heard.
    mutating func flush() {
        buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(1, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 { break }
                offset += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
