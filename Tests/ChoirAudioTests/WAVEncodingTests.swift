import ChoirAudio
import ChoirTestSupport
import Foundation
import Testing

/// WAV files in every encoding a recorder writes, built byte by byte here (not by libsndfile, which reads them), of
/// a known tone: each reads back as that tone, from a file and from memory alike.
struct WAVEncodingTests {
    /// An encoding: its format tag and bits, how a sample in −1…1 is stored, and how far a sample read back may lie
    /// from the one written (its quantisation).
    struct Encoding: CustomStringConvertible, Sendable {
        var description: String
        var tag: UInt16
        var bits: Int
        var extensible = false
        var tolerance: Float
        var encode: @Sendable (Float) -> [UInt8]
    }

    static let encodings: [Encoding] = [
        Encoding(description: "8-bit unsigned", tag: 1, bits: 8, tolerance: 1.0 / 128) {
            [UInt8(max(0, min(255, ($0 * 128).rounded() + 128)))]
        },
        Encoding(description: "A-law", tag: 6, bits: 8, tolerance: 0.02) { [WAVBytes.aLaw(Int16(($0 * 32767).rounded()))] },
        Encoding(description: "µ-law", tag: 7, bits: 8, tolerance: 0.02) { [WAVBytes.muLaw(Int16(($0 * 32767).rounded()))] },
        Encoding(description: "16-bit", tag: 1, bits: 16, tolerance: 1.0 / 16384) { WAVBytes.le(Int16(($0 * 32767).rounded())) },
        Encoding(description: "24-bit", tag: 1, bits: 24, tolerance: 1.0 / 4_000_000) {
            Array(WAVBytes.le(Int32(($0 * 8_388_607).rounded())).prefix(3))
        },
        Encoding(description: "24-bit extensible", tag: 1, bits: 24, extensible: true, tolerance: 1.0 / 4_000_000) {
            Array(WAVBytes.le(Int32(($0 * 8_388_607).rounded())).prefix(3))
        },
        Encoding(description: "32-bit", tag: 1, bits: 32, tolerance: 1e-6) { WAVBytes.le(Int32((Double($0) * 2_147_483_647).rounded())) },
        Encoding(description: "32-bit float", tag: 3, bits: 32, tolerance: 0) { WAVBytes.le($0.bitPattern) },
        Encoding(description: "64-bit float", tag: 3, bits: 64, tolerance: 0) { WAVBytes.le(Double($0).bitPattern) },
    ]

    /// Reads `bytes` as a file named `name` and as memory; both must give the same.
    static func read(_ bytes: [UInt8], name: String) throws -> AudioFile.Audio {
        let path = AudioFileTests.temporary(name)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let file = try AudioFile.read(contentsOf: path)
        let memory = try AudioFile.read(data: bytes, file: name)
        #expect(file.samples == memory.samples && file.sampleRate == memory.sampleRate && file.channels == memory.channels)
        return file
    }

    @Test(arguments: encodings)
    func aToneReadsBackInEveryEncoding(encoding: Encoding) throws {
        let sine = AudioFileTests.sine
        let bytes = WAVBytes.wav(
            tag: encoding.tag, channels: 1, rate: 48_000, bits: encoding.bits, body: sine.flatMap(encoding.encode),
            extensible: encoding.extensible)
        let audio = try Self.read(bytes, name: "tone.wav")
        #expect(audio.sampleRate == 48_000 && audio.channels == 1)
        #expect(audio.samples.count == sine.count)
        let worst = zip(audio.samples, sine).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst <= encoding.tolerance, "\(encoding): a sample \(worst) away")
        #expect(abs(AudioFileTests.frequency(audio) - 220) <= 1, "\(encoding)")
    }

    @Test func stereoIsMixedDown() throws {
        let body = [Int16(16384), Int16(-16384), Int16(32767), Int16(32767), Int16(16384), Int16(0)].flatMap(WAVBytes.le)
        let audio = try Self.read(WAVBytes.wav(tag: 1, channels: 2, rate: 44100, bits: 16, body: body), name: "stereo.wav")
        #expect(audio.sampleRate == 44100 && audio.channels == 2)
        #expect(audio.samples == [0, Float(32767) / 32768, 0.25])
    }

    /// A file that is not whole, or not audio, is refused in one line that names it and says what was expected,
    /// whether it is read from a file or from memory.
    @Test(arguments: [true, false])
    func aBrokenFileIsOneLine(fromMemory: Bool) throws {
        let expected = "expected an audio file (WAV, FLAC, Ogg Vorbis, Opus or MP3)"
        let whole = WAVBytes.wav(tag: 1, channels: 1, rate: 48_000, bits: 16, body: [UInt8](repeating: 0, count: 192_000))
        let cases: [(bytes: [UInt8], message: String)] = [
            (Array(whole.dropLast(1000)), "truncated: the data chunk declares 192000 bytes but only 191000 are present"),
            ([], "empty file: \(expected)"),
            (Array("hello, world".utf8), "not an audio file libsndfile can read (Format not recognised.): \(expected)"),
            (Array(whole.prefix(40)), "not a whole WAV file (no data chunk after a fmt chunk): \(expected)"),
            (
                Array(whole.prefix(42)) + [0xFF, 0xFF, 0, 0],
                "damaged: its \"LIST\" chunk declares 65535 bytes but only 0 remain: \(expected)"
            ),
            (WAVBytes.wav(tag: 1, channels: 1, rate: 48_000, bits: 16, body: []), "no audio in the file: \(expected)"),
        ]
        for (bytes, message) in cases {
            let path = AudioFileTests.temporary("broken.wav")
            defer { try? FileManager.default.removeItem(atPath: path) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let error = try #require(throws: AudioFile.Failure.self) {
                _ = fromMemory ? try AudioFile.read(data: bytes, file: path) : try AudioFile.read(contentsOf: path)
            }
            #expect(error.description == "\(path): \(message)")
            #expect(!error.unreadable)
        }
    }

    /// The fuzzer's finds: WAV files of a few hundred bytes whose metadata chunks (an INFO chunk inside the header, a
    /// LIST chunk after the data) held libsndfile 1.2's `sf_open` for over a minute (its issue #1118). choir shows
    /// libsndfile only the chunks the audio needs, and answers at once: with the audio, or in one line.
    @Test(.timeLimit(.minutes(1)), arguments: ["libsndfile-info-chunk-hang.wav", "libsndfile-trailing-chunk-hang.wav"])
    func aHeaderThatHoldsLibsndfileIsAnsweredAtOnce(name: String) throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fuzz/takes/\(name)")
        let start = Date()
        do {
            let audio = try AudioFile.read(contentsOf: url.path)
            print("\(name): \(audio.samples.count) samples at \(audio.sampleRate) Hz")
        } catch {
            #expect(error.message.hasSuffix("expected an audio file (WAV, FLAC, Ogg Vorbis, Opus or MP3)") && !error.message.contains("\n"))
            print("\(name): \(error.message)")
        }
        #expect(Date().timeIntervalSince(start) < 1)
    }
}
