import ChoirAudio
import Foundation
import Testing

/// Recordings in the formats singers have them, read and written through libsndfile.
struct AudioFileTests {
    /// Two seconds of a 220 Hz sine at 48 kHz.
    static let sine = (0..<96_000).map { Float(0.5 * sin(2 * Double.pi * 220 * Double($0) / 48_000)) }

    static func temporary(_ name: String) -> String { NSTemporaryDirectory() + "choir-audio-\(UUID().uuidString)-\(name)" }

    /// The frequency of a clean tone, from its rising zero crossings over the middle second.
    static func frequency(_ audio: AudioFile.Audio) -> Double {
        let start = audio.sampleRate / 2, end = start + audio.sampleRate
        var crossings = 0
        for index in start..<end where audio.samples[index - 1] < 0 && audio.samples[index] >= 0 { crossings += 1 }
        return Double(crossings)
    }

    /// Each lossy format keeps the pitch and the length (give or take its encoder's padding); FLAC keeps every
    /// sample to 16 bits.
    @Test(arguments: ["flac", "ogg", "opus", "mp3", "aiff"])
    func aToneSurvivesTheFormat(format: String) throws {
        let path = Self.temporary("tone.\(format)")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try AudioFile.write(Self.sine, sampleRate: 48_000, to: path)
        let audio = try AudioFile.read(contentsOf: path)
        #expect(audio.sampleRate == 48_000)
        #expect(abs(audio.duration - 2) < 0.06, "\(format): \(audio.duration) s")
        #expect(abs(Self.frequency(audio) - 220) <= 1, "\(format)")
        if format == "flac" || format == "aiff" {
            #expect(zip(audio.samples, Self.sine).allSatisfy { abs($0 - $1) <= 1.0 / 32768 })
        }
    }

    @Test func whatCannotBeReadOrWrittenSaysWhatWasExpected() throws {
        let expected = "expected an audio file (WAV, FLAC, Ogg Vorbis, Opus or MP3)"
        let text = Self.temporary("notes.flac"), empty = Self.temporary("empty.ogg")
        defer { for path in [text, empty] { try? FileManager.default.removeItem(atPath: path) } }
        try Data("not audio at all".utf8).write(to: URL(fileURLWithPath: text))
        try Data().write(to: URL(fileURLWithPath: empty))
        let cases = [
            ("/nonexistent.flac", "no such file: \(expected)"), (empty, "empty file: \(expected)"),
            (text, "not an audio file libsndfile can read (Format not recognised.): \(expected)"),
        ]
        for (path, message) in cases {
            do {
                _ = try AudioFile.read(contentsOf: path)
                Issue.record("\(path) was read")
            } catch {
                #expect(error.description == "\(path): \(message)")
            }
        }
        do {
            try AudioFile.write(Self.sine, sampleRate: 48_000, to: Self.temporary("take.xyz"))
            Issue.record("an unknown format was written")
        } catch {
            #expect(error.message == "unknown audio format: expected a name ending in .flac, .ogg, .opus, .mp3, .aiff or .wav")
        }
    }
}

extension AudioFileTests {
    /// A recording written as it comes, in pieces and gaps of silence, reads back sample for sample (FLAC keeps 16
    /// bits); until it is finished it is only the partial file beside its name.
    @Test func aRecordingIsWrittenAsItComes() throws {
        let path = Self.temporary("heard.flac")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try AudioFile.Writer(path: path, sampleRate: 48_000)
        try Self.sine.withUnsafeBufferPointer { sine in
            try writer.append(interleaved: UnsafeBufferPointer(rebasing: sine[0..<1000]))
            try writer.appendSilence(10_000)
            try writer.append(interleaved: UnsafeBufferPointer(rebasing: sine[1000...]))
        }
        #expect(writer.frames == Self.sine.count + 10_000)
        #expect(!FileManager.default.fileExists(atPath: path) && FileManager.default.fileExists(atPath: path + ".partial"))
        try writer.finish()
        #expect(FileManager.default.fileExists(atPath: path) && !FileManager.default.fileExists(atPath: path + ".partial"))
        let expected = Array(Self.sine[0..<1000]) + [Float](repeating: 0, count: 10_000) + Self.sine[1000...]
        let read = try AudioFile.read(contentsOf: path).samples
        #expect(read.count == expected.count)
        #expect(zip(read, expected).allSatisfy { abs($0 - $1) <= 1.0 / 32768 + 1e-6 })
    }
}
