import ChoirAudio
import ChoirPitch
import ChoirTestSupport
import Foundation
import Testing

struct PitchCommandTests {
    /// A sine of `frequency` written to a temporary WAV file.
    static func tone(_ frequency: Double, seconds: Double, rate: Int = 48000, name: String) throws -> URL {
        let samples = (0..<Int(Double(rate) * seconds)).map { Float(0.5 * sin(2 * .pi * frequency * Double($0) / Double(rate))) }
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("choir-\(name).wav")
        try AudioFile.write(samples, sampleRate: rate, to: url.path)
        return url
    }

    @Test func csvHasOneLinePerHop() throws {
        let wav = try Self.tone(440, seconds: 0.25, name: "csv")
        let result = try CLI.run(["pitch", wav.path])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "time_s,f0_hz,confidence")
        // A frame every 256 samples from time 0 (the signal taken as silent beyond its ends), each window 2.2
        // periods of 60 Hz long (1760 samples).
        #expect(lines.count == 1 + (12000 - 1) / 256 + 1)
        for (index, line) in lines.dropFirst().enumerated() {
            let fields = line.split(separator: ",").compactMap { Double($0) }
            #expect(fields.count == 3)
            #expect(abs(fields[0] - Double(index * 256) / 48000) < 0.00001)
            #expect(abs(fields[1] - 440) < 0.1, "\(line)")
            let inside = fields[0] >= 880 / 48000 && fields[0] <= (12000 - 880) / 48000
            #expect(fields[2] >= (inside ? 0.99 : 0.9), "\(line)")
        }
    }

    /// A take recorded on a telephone or an old recorder (8 kHz A-law, µ-law or 8-bit WAV) is tracked like any other.
    @Test(arguments: [("A-law", 6), ("µ-law", 7), ("8-bit", 1)])
    func eightBitTakesAreTracked(name: String, tag: UInt16) throws {
        let tone = (0..<8000).map { Float(0.5 * sin(2 * .pi * 220 * Double($0) / 8000)) }
        let body = tone.flatMap { sample -> [UInt8] in
            switch tag {
            case 6: [WAVBytes.aLaw(Int16((sample * 32767).rounded()))]
            case 7: [WAVBytes.muLaw(Int16((sample * 32767).rounded()))]
            default: [UInt8((sample * 128).rounded() + 128)]
            }
        }
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("choir-\(tag)-take.wav")
        try Data(WAVBytes.wav(tag: tag, channels: 1, rate: 8000, bits: 8, body: body)).write(to: url)
        let result = try CLI.run(["pitch", url.path])
        #expect(result.status == 0, "\(name): \(result.stderr)")
        let frames = result.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",").compactMap { Double($0) } }
        let middle = frames.filter { $0.count == 3 && $0[0] > 0.2 && $0[0] < 0.8 }
        #expect(middle.count > 50)
        #expect(middle.allSatisfy { abs($0[1] - 220) < 1 }, "\(name)")
    }

    @Test func jsonWithOptions() throws {
        let wav = try Self.tone(196, seconds: 0.5, rate: 44100, name: "json")
        let result = try CLI.run([
            "pitch", wav.path, "--format", "json", "--window", "4096", "--hop", "1024",
            "--min-freq", "60", "--max-freq", "800", "--threshold", "0.1",
        ])
        #expect(result.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(json?["sample_rate"] as? Int == 44100)
        #expect(json?["window"] as? Int == 4096)
        let frames = json?["frames"] as? [[Double]] ?? []
        #expect(frames.count == (22050 - 1) / 1024 + 1)
        #expect(frames.allSatisfy { abs($0[1] - 196) < 0.05 })
    }

    @Test func badInputsSayWhatWasExpected() throws {
        let empty = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("choir-empty.wav")
        try Data().write(to: empty)
        let text = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("choir-text.wav")
        try Data("not audio".utf8).write(to: text)
        let wav = try Self.tone(440, seconds: 0.2, name: "bad")
        let truncated = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("choir-truncated.wav")
        try Data(try Data(contentsOf: wav).dropLast(1000)).write(to: truncated)
        let cases: [([String], Int32, String)] = [
            (
                ["pitch", "/nonexistent.wav"], 66,
                "choir: /nonexistent.wav: no such file: expected an audio file (WAV, FLAC, Ogg Vorbis, Opus or MP3)\n"
            ),
            (["pitch", empty.path], 65, "choir: \(empty.path): empty file: expected an audio file (WAV, FLAC, Ogg Vorbis, Opus or MP3)\n"),
            (
                ["pitch", text.path], 65,
                "choir: \(text.path): not an audio file libsndfile can read (Format not recognised.): expected an audio file (WAV, FLAC, Ogg Vorbis, Opus or MP3)\n"
            ),
            (
                ["pitch", truncated.path], 65,
                "choir: \(truncated.path): truncated: the data chunk declares 19200 bytes but only 18200 are present\n"
            ),
            (
                ["pitch", wav.path, "--window", "512"], 64,
                "choir: \(wav.path): window 512 is too short for 60.0 Hz at 48000 Hz: expected at least 1604 samples\n"
            ),
            (["pitch", wav.path, "--hop", "4096"], 64, "choir: \(wav.path): hop 4096: expected 1 to the window (1760 samples)\n"),
            (["pitch", wav.path, "--hop", "0"], 64, "choir: \(wav.path): hop 0: expected 1 to the window (1760 samples)\n"),
            (
                ["pitch", "--live", "--input", "nonexistent", "--duration", "1"], 69,
                "choir: cannot open capture device 'nonexistent': No such file or directory\n"
            ),
        ]
        for (arguments, status, message) in cases {
            let result = try CLI.run(arguments)
            #expect(result.status == status, "\(arguments)")
            #expect(result.stdout.isEmpty || arguments.contains("--live"))
            #expect(result.stderr == message)
        }
    }

    /// `--tracker net` tracks a file at the network's pace: the JSON header names it and its 128 ms window and 16 ms
    /// hop, a frame every 16 ms from 0, and a sung 330 Hz (choir's synthetic voice, at 44.1 kHz, with a 40-cent
    /// vibrato) is voiced through its middle within 25 cents of the voice's pitch at every frame, 10 at the median:
    /// the network fine-tuned on accompanied singing follows a vibrato less closely than YIN (the test prints both).
    /// `auto` with `--accompanied`, which sessions use, is YIN guided by it, at YIN's hop, and YIN's pitch is within
    /// 10 cents at every frame.
    @Test func theLearnedTrackerTracksAFile() throws {
        let voice = SyntheticVoice(sampleRate: 44100)
        let notes = [SyntheticVoice.Note(start: 0.1, duration: 0.8, frequency: 330)]
        let wav = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("choir-net-\(getpid()).wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        try AudioFile.write(voice.render(notes, length: 1), sampleRate: 44100, to: wav.path)
        /// The frames of `choir pitch` on the tone with `options`, its JSON header, and each middle frame's error in cents.
        func tracked(_ options: [String]) throws -> (frames: [[Double]], header: [String: Any], errors: [Double]) {
            let result = try CLI.run(["pitch", wav.path, "--format", "json"] + options)
            #expect(result.status == 0, "\(result.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let frames = try #require(json["frames"] as? [[Double]])
            let middle = frames.filter { $0[0] > 0.3 && $0[0] < 0.8 }
            #expect(middle.allSatisfy { $0[1] > 0 }, "\(middle)")
            return (frames, json, middle.map { abs(1200 * log2($0[1] / voice.truth(notes, at: $0[0])!)) })
        }
        let net = try tracked(["--tracker", "net"])
        #expect(
            net.header["tracker"] as? String == "net" && net.header["window_s"] as? Double == 0.128
                && net.header["hop_s"] as? Double == 0.016)
        #expect(abs(net.frames.count - 62) <= 1, "\(net.frames.count) frames")
        for (index, frame) in net.frames.enumerated() { #expect(abs(frame[0] - Double(index) * 0.016) < 1e-6) }
        #expect(
            net.errors.count >= 30 && net.errors.allSatisfy { $0 < 25 } && net.errors.sorted()[net.errors.count / 2] < 10, "\(net.errors)")
        let guided = try tracked(["--tracker", "auto", "--accompanied"])
        #expect(guided.header["tracker"] as? String == "yin+net" && guided.header["hop"] as? Int == 256)
        #expect(guided.errors.count >= 80 && guided.errors.allSatisfy { $0 < 10 }, "\(guided.errors)")
        func median(_ errors: [Double]) -> Double { errors.isEmpty ? .nan : errors.sorted()[errors.count / 2] }
        print(
            String(
                format: "a 40-cent vibrato: the learned tracker %.1f cents off at the median, %.1f at most; YIN guided by it %.1f and %.1f",
                median(net.errors), net.errors.max() ?? .nan, median(guided.errors), guided.errors.max() ?? .nan))
    }

    /// The learned tracker's weights missing or wrong: one line naming the file and the command that rebuilds it,
    /// from `pitch` and from `practice` (before the take is read), and a file the network cannot use is not read.
    @Test func missingOrWrongWeightsAreNamed() throws {
        let wav = try Self.tone(220, seconds: 0.5, rate: 16000, name: "weights")
        let wrong = FileManager.default.temporaryDirectory.appendingPathComponent("choir-wrong-\(getpid()).weights")
        try Data("CHPNET01".utf8).write(to: wrong)
        defer { try? FileManager.default.removeItem(at: wrong) }
        let rebuild = "expected SwiftF0's weights for --tracker net; rebuild them with `just net-weights`\n"
        let cases: [([String], String, String)] = [
            (["pitch", "--tracker", "net", wav.path], "/nonexistent/swiftf0.weights", "/nonexistent/swiftf0.weights: no such file: "),
            (
                ["pitch", "--tracker", "auto", "--accompanied", wav.path], wrong.path,
                "\(wrong.path): not a choir pitch-net file (no CHPNET01 header): "
            ),
            (
                ["practice", CLI.example, "--part", "tenor", "--input", wav.path, "--output", "none", "--no-history", "--accompanied"],
                "/nonexistent/swiftf0.weights", "/nonexistent/swiftf0.weights: no such file: "
            ),
        ]
        for (arguments, weights, problem) in cases {
            let result = try CLI.run(arguments, environment: ["CHOIR_PITCH_NET": weights])
            #expect(result.status == 66, "\(arguments): \(result.stderr)")
            #expect(result.stderr == "choir: " + problem + rebuild, "\(arguments)")
        }
    }
}
