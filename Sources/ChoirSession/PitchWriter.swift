import ChoirPitch
import Glibc

/// How a pitch track is written: CSV rows, or one JSON object with the frames as rows.
public enum PitchFormat: String, CaseIterable, Sendable {
    case csv, json
}

/// Writes pitch frames quickly: fixed-point formatting into one buffer, flushed in large writes to a file
/// descriptor (`choir pitch` writes a file's track, and the tuner what it hears, to standard output).
public struct PitchWriter {
    public var format: PitchFormat
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var first = true

    /// A writer of `format` to the open file `descriptor`, which it does not close.
    public init(format: PitchFormat, descriptor: Int32 = 1) {
        self.format = format
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 16)
    }

    /// The header: the CSV's column names, or the JSON's analysis settings: the tracker `configuration` names, and
    /// for YIN (alone or guided) its window and hop in the recording's samples; the learned tracker alone hears
    /// 16 kHz, 2048 samples at most around each frame, every 256.
    public mutating func begin(sampleRate: Int, configuration: PitchTrackerConfiguration) {
        let tracker = PitchTrackers.name(of: configuration)
        switch (format, tracker) {
        case (.csv, _): append("time_s,f0_hz,confidence\n")
        case (.json, "net"):
            append("{\"sample_rate\": \(sampleRate), \"tracker\": \"net\", \"window_s\": 0.128, \"hop_s\": 0.016, \"frames\": [")
        case (.json, _):
            append(
                "{\"sample_rate\": \(sampleRate), \"tracker\": \"\(tracker)\", \"window\": \(configuration.window), "
                    + "\"hop\": \(configuration.hop), \"frames\": [")
        }
    }

    /// One frame: time (s, 5 decimals), frequency (Hz, 0 when unvoiced) and confidence (3 decimals each).
    public mutating func write(_ frame: PitchFrame) {
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

    /// Closes the JSON and writes out what is left.
    public mutating func end() {
        if format == .json { append(first ? "]}\n" : "\n]}\n") }
        flush()
    }

    /// A recording's whole track (``PitchFile/track(_:configuration:)``): the header, a row per frame, the end.
    public mutating func write(sampleRate: Int, configuration: PitchTrackerConfiguration, frames: [PitchFrame]) {
        begin(sampleRate: sampleRate, configuration: configuration)
        for frame in frames { write(frame) }
        end()
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
    public mutating func flush() {
        buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 { break }
                offset += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
