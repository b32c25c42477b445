import ChoirBase
import ChoirPitch
import ChoirTestSupport
import Foundation
import Testing

@testable import ChoirSession

/// `choir pitch`'s files, written from frames whose values are known.
struct PitchWriterTests {
    /// What `frames` make in `format`, written through a file as `choir pitch` writes standard output.
    static func written(
        _ format: PitchFormat,
        with configuration: PitchTrackerConfiguration = PitchTrackerConfiguration(sampleRate: 48000, window: 1024, hop: 240),
        _ frames: [PitchFrame]
    ) throws -> String {
        let path = NSTemporaryDirectory() + "choir-pitch-\(UUID().uuidString)"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(descriptor >= 0)
        defer { unlink(path) }
        var writer = PitchWriter(format: format, descriptor: descriptor)
        writer.write(sampleRate: Int(configuration.sampleRate), configuration: configuration, frames: frames)
        close(descriptor)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    static let frames = [
        PitchFrame(time: 0.01, frequency: 0, confidence: 0.1234),
        PitchFrame(time: 1.5, frequency: 220.0004, confidence: 0.9996),
        PitchFrame(time: 12.345678, frequency: 1046.5, confidence: 1),
    ]

    @Test func csvHasAHeaderThenARowAFrameInFixedDecimals() throws {
        #expect(
            try Self.written(.csv, Self.frames)
                == "time_s,f0_hz,confidence\n0.01000,0.000,0.123\n1.50000,220.000,1.000\n12.34568,1046.500,1.000\n")
    }

    @Test func jsonHasTheSettingsThenTheFramesAsRows() throws {
        #expect(
            try Self.written(.json, Self.frames) == """
                {"sample_rate": 48000, "tracker": "yin", "window": 1024, "hop": 240, "frames": [
                  [0.01000, 0.000, 0.123],
                  [1.50000, 220.000, 1.000],
                  [12.34568, 1046.500, 1.000]
                ]}

                """)
        #expect(
            try Self.written(.json, [])
                == "{\"sample_rate\": 48000, \"tracker\": \"yin\", \"window\": 1024, \"hop\": 240, \"frames\": []}\n")
    }

    /// The header names the tracker: YIN guided by the network (`auto` with other sound expected) keeps YIN's window
    /// and hop; the network alone hears 128 ms around a frame every 16 ms, whatever YIN's settings.
    @Test func jsonNamesTheTrackerAndItsFrames() throws {
        var configuration = PitchTrackerConfiguration(sampleRate: 44100, window: 1024, hop: 256)
        configuration.kind = .auto
        configuration.accompanied = true
        #expect(
            try Self.written(.json, with: configuration, [])
                == "{\"sample_rate\": 44100, \"tracker\": \"yin+net\", \"window\": 1024, \"hop\": 256, \"frames\": []}\n")
        configuration.kind = .net
        #expect(
            try Self.written(.json, with: configuration, [])
                == "{\"sample_rate\": 44100, \"tracker\": \"net\", \"window_s\": 0.128, \"hop_s\": 0.016, \"frames\": []}\n")
    }

    /// A take of a steady A3 (220 Hz), tracked from its file and written out: a row a hop, each at its frame's time,
    /// and the voiced rows at 220 Hz (within 10 cents at the take's edges).
    @Test func aSynthesizedTakesTrackIsWrittenFrameByFrame() throws {
        let rate = 48000
        let samples = (0..<rate / 2).map { Int16(12000 * sin(2 * Double.pi * 220 * Double($0) / Double(rate))) }
        let path = NSTemporaryDirectory() + "choir-a3-\(UUID().uuidString).wav"
        defer { unlink(path) }
        try Data(WAVBytes.wav(tag: 1, channels: 1, rate: rate, bits: 16, body: samples.flatMap(WAVBytes.le))).write(
            to: URL(fileURLWithPath: path))
        let track = try PitchFile.track(path) { PitchTrackerConfiguration(sampleRate: Double($0), hop: 240) }
        let rows = try Self.written(.csv, track.frames).split(separator: "\n").dropFirst()
        #expect(rows.count == track.frames.count && rows.count > 90, "a row every 5 ms of 0.5 s")
        for (row, frame) in zip(rows, track.frames) {
            let columns = row.split(separator: ",")
            #expect(columns[0] == String(printf: "%.5f", frame.time))
            if frame.isVoiced { #expect(abs(1200 * log2(Double(columns[1])! / 220)) < 10, "\(row)") }
        }
        #expect(track.frames.count { $0.isVoiced } > rows.count * 3 / 4)
    }
}
