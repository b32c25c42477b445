import ChoirAudio
import ChoirPitch
import Foundation
import Testing

struct PlaybackCommandTests {
    static func temporary(_ name: String) -> String { NSTemporaryDirectory() + "choir-\(name)" }

    @Test func renderWritesTheMix() throws {
        let out = Self.temporary("render.wav")
        let result = try CLI.run(["render", CLI.example, "-o", out, "--to", "2", "--sample-rate", "44100"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let audio = try AudioFile.read(contentsOf: out)
        #expect(audio.sampleRate == 44100 && audio.channels == 2)
        // Pickup and two bars of 3/4 at 80: 5.25 s, and a second to ring out.
        #expect(abs(audio.duration - 6.25) < 0.001)
        #expect(audio.samples.contains { abs($0) > 0.05 })
    }

    /// What the voices' retuning measured is kept for the next run, which renders the same mix without measuring;
    /// a cache that is not one is measured again and replaced.
    @Test func voiceTuningIsKeptBetweenRuns() throws {
        let cache = Self.temporary("cache-\(UUID().uuidString)")
        let tuning = cache + "/choir/tuning.json"
        func render(_ name: String) throws -> [Float] {
            let out = Self.temporary("\(name).wav")
            let result = try CLI.run(["render", CLI.example, "-o", out, "--to", "2"], environment: ["XDG_CACHE_HOME": cache])
            #expect(result.status == 0, "\(result.stderr)")
            return try AudioFile.read(contentsOf: out).samples
        }
        let measured = try render("measured")
        let kept = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: tuning))) as? [String: Double] ?? [:]
        // Choir Aahs (program 52) on every key the four lines play in the pickup and two bars (`choir notes`).
        var keys: Set<Int> = []
        for name in kept.keys {
            let fields = name.split(separator: "|").map(String.init)
            if fields[fields.count - 2] == "52", let key = Int(fields[fields.count - 1]) { keys.insert(key) }
        }
        #expect(keys == [43, 50, 54, 55, 59, 62, 67, 69, 71], "\(keys.sorted())")
        #expect(try render("cached") == measured)
        try "not json".write(toFile: tuning, atomically: true, encoding: .utf8)
        #expect(try render("remeasured") == measured)
        #expect(
            (try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: tuning))) as? [String: Double])?.count
                == kept.count)
    }

    /// The MIDI file has a tempo track and one track per line, with the line's notes.
    @Test func renderWritesAMIDIFile() throws {
        let out = Self.temporary("render.mid")
        let result = try CLI.run(["render", CLI.example, "-o", out, "--part", "T", "--my-instrument", "clarinet", "--bpm", "60"])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        #expect(Array(bytes[0..<4]) == Array("MThd".utf8))
        #expect(bytes[9] == 1 && bytes[11] == 5)  // format 1, 5 tracks
        #expect(bytes[12] == 0x01 && bytes[13] == 0xE0)  // 480 ticks per quarter
        // The tempo meta event: 1,000,000 µs per quarter.
        #expect(bytes.windows(ofCount: 6).contains([0xFF, 0x51, 0x03, 0x0F, 0x42, 0x40]))
        // The tenor (channel 2) plays the clarinet (program 71) and has 31 note-ons.
        #expect(bytes.windows(ofCount: 2).contains([0xC2, 71]))
        let tenorOns = bytes.windows(ofCount: 3).filter { $0.first == 0x92 }.count
        #expect(tenorOns >= 31)
    }

    @Test func badOptionsGiveOneLine() throws {
        let out = Self.temporary("bad.wav")
        // Each kind of failure has its sysexits status, as `choir help` lists them.
        let cases: [([String], Int32, String)] = [
            (
                ["render", CLI.example, "-o", out, "--part", "viola"], 64,
                "choir: \(CLI.example): unknown line 'viola': expected one of 1 Soprano, 2 Alto, 3 Tenor, 4 Bass\n"
            ),
            (["render", CLI.example, "-o", out, "--instrument", "kazoo"], 64, "choir: --instrument kazoo: expected LINE=VALUE\n"),
            (
                ["render", CLI.example, "-o", out, "--soundfont", "/nonexistent.sf2"], 66,
                "choir: /nonexistent.sf2: no such SoundFont: expected a readable .sf2 file\n"
            ),
            (
                ["render", "/nonexistent.musicxml", "-o", out], 66,
                "choir: /nonexistent.musicxml: no such file: expected a MusicXML (.musicxml, .xml) or .mxl file\n"
            ),
            (
                ["render", "Tests/Fixtures/corpus/README.md", "-o", out], 65,
                "choir: Tests/Fixtures/corpus/README.md:1:1: expected '<' but found text outside the root element\n"
            ),
            (
                ["render", CLI.example, "-o", out, "--from", "30"], 64,
                "choir: \(CLI.example): measure 30 is not in the score: expected 0–16\n"
            ),
            (["render", CLI.example, "-o", out, "--tempo", "0"], 64, "choir: \(CLI.example): tempo 0.0%: expected 10 to 400\n"),
            (
                ["render", CLI.example, "-o", out, "--bpm", "9999"], 64,
                "choir: \(CLI.example): bpm 9999.0: expected 10 to 400 quarter notes per minute\n"
            ),
            (["render", CLI.example, "-o", out + ".ogg"], 64, "choir: \(out).ogg: expected an output file ending in .wav or .mid\n"),
            (
                ["render", CLI.example, "-o", "/nonexistent/dir/out.wav"], 73,
                "choir: /nonexistent/dir/out.wav: cannot be written (No such file or directory): expected a writable path\n"
            ),
            (
                ["play", CLI.example, "--device", "nonexistent"], 69,
                "choir: cannot open playback device 'nonexistent': No such file or directory; without a sound card, add "
                    + "`--device none` (silence, on the music's time), or write the mix to a file with `choir render \(CLI.example) -o mix.wav`\n"
            ),
            (
                ["view", CLI.example, "--device", "nonexistent"], 69,
                "choir: cannot open playback device 'nonexistent': No such file or directory; without a sound card, add "
                    + "`--device none` (silence, on the music's time), or write the mix to a file with `choir render \(CLI.example) -o mix.wav`\n"
            ),
            (["view", CLI.example, "--period", "8"], 64, "choir: --period 8: expected 16 to 8192 frames\n"),
        ]
        for (arguments, status, message) in cases {
            let result = try CLI.run(arguments)
            #expect(result.status == status, "\(arguments)")
            #expect(result.stderr == message)
        }
    }

    /// An instrument choir does not know is named with the nearest it does, and every name it knows, in one line.
    @Test func anUnknownInstrumentListsTheKnownOnes() throws {
        let result = try CLI.run(["render", CLI.example, "-o", Self.temporary("bad.wav"), "--instrument", "T=clarnet"])
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                "choir: \(CLI.example): unknown instrument 'clarnet' (did you mean 'Clarinet'?): expected a GM program number 1-128, "
                    + "a word of a name (piano, organ, strings), or a name: Acoustic Grand Piano, Bright Acoustic Piano, "))
        #expect(result.stderr.contains(", Choir Aahs, Voice Oohs, Synth Voice, "))
        #expect(result.stderr.hasSuffix("Applause, Gunshot\n") && result.stderr.count { $0 == "\n" } == 1)
        let far = try CLI.run(["render", CLI.example, "-o", Self.temporary("bad.wav"), "--instrument", "T=kazoo"])
        #expect(far.stderr.hasPrefix("choir: \(CLI.example): unknown instrument 'kazoo': expected a GM program number"))
    }
}

extension Array where Element == UInt8 {
    func windows(ofCount count: Int) -> [[UInt8]] {
        self.count < count ? [] : (0...(self.count - count)).map { Array(self[$0..<($0 + count)]) }
    }
}
