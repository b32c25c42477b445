import ChoirAudio
import ChoirPitch
import ChoirTestSupport
import Foundation
import Testing

/// `--transpose N` moves what is played, judged and named, in every command that reads a score.
struct TranspositionTests {
    static func notes(_ extra: [String]) throws -> [[Double]] {
        let result = try CLI.run(["notes", CLI.example, "--part", "Tenor", "--json"] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let part = (json["parts"] as! [[String: Any]])[0]
        return (part["notes"] as! [[Any]]).map { [$0[0] as! Double, $0[1] as! Double, $0[2] as! Double] }
    }

    @Test func notesMoveByTheTransposition() throws {
        let written = try Self.notes([]), lower = try Self.notes(["--transpose", "-2"])
        #expect(written.count == 28 && lower.count == written.count)
        for (a, b) in zip(written, lower) {
            #expect(b[0] == a[0] && b[1] == a[1], "onset and length stay")
            #expect(b[2] == a[2] - 2)
        }
    }

    @Test func infoGivesTheTransposedKeyAndRangesSpelledInIt() throws {
        let down = try CLI.run(["info", CLI.example, "--transpose", "-2"])
        #expect(down.status == 0)
        #expect(
            down.stdout == """
                Resources/ExamplePieces/amazing_grace.musicxml
                  Title     Amazing Grace
                  Composer  Traditional (New Britain)
                  Key       F major (transposed down 2 semitones)
                  Time      3/4
                  Tempo     ♩ = 80
                  Measures  17 (with a pickup)
                  Duration  0:36
                  Verses    2
                  Lines
                    Soprano: C4–C5
                    Alto: A3–F4
                    Tenor: E3–C4
                    Bass: F2–F3

                """)
        // A semitone up, G major is A♭ major: its notes are spelled with flats.
        let up = try CLI.run(["info", CLI.example, "--transpose", "1", "--json"])
        let json = try JSONSerialization.jsonObject(with: Data(up.stdout.utf8)) as! [String: Any]
        #expect(json["key"] as? String == "A♭ major" && json["transpose"] as? Int == 1)
        let tenor = (json["lines"] as! [[String: Any]])[2]
        #expect(tenor["lowest"] as? String == "G3" && tenor["highest"] as? String == "E♭4")
        #expect(tenor["lowest_midi"] as? Int == 55 && tenor["highest_midi"] as? Int == 63)
    }

    @Test func aTranspositionOutOfRangeIsAUsageError() throws {
        let result = try CLI.run(["notes", CLI.example, "--transpose", "13"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --transpose 13: expected -12 to 12 semitones\n"))
    }

    /// The rendered tenor, tracked, sounds each written pitch two semitones down.
    @Test func renderPlaysTheTransposedPitches() throws {
        let out = PlaybackCommandTests.temporary("transposed.wav")
        let result = try CLI.run([
            "render", CLI.example, "-o", out, "--part", "Tenor", "--solo", "Tenor", "--my-instrument", "piano",
            "--transpose", "-2", "--to", "4",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let audio = try WAVFile.read(contentsOf: out)
        let frames = try PitchTrackers.track(signal: audio.samples, configuration: .init(sampleRate: Double(audio.sampleRate)))
        var checked = 0
        for note in try Self.notes(["--transpose", "-2"]) {
            // Seconds from the JSON's time column are not kept here; at ♩ = 80 a quarter note is 0.75 s.
            let start = note[0] * 0.75, end = (note[0] + note[1]) * 0.75
            guard end <= 4.5 * 2.25, end - start >= 0.5 else { continue }
            let middle = frames.filter { $0.time > start + 0.1 && $0.time < end - 0.1 && $0.isVoiced }
            let pitches = middle.map { 69 + 12 * log2($0.frequency / 440) }.sorted()
            guard !pitches.isEmpty else { continue }
            #expect(abs(pitches[pitches.count / 2] - note[2]) < 0.2, "note \(note[2]) at \(start) s")
            checked += 1
        }
        #expect(checked >= 3)
    }

    /// The demo take moved up two semitones (Rubber Band) and judged with `--transpose 2` gets the verdicts the
    /// take itself gets untransposed, and the report says the key moved and names the notes in it.
    @Test func aTransposedTakeIsJudgedAgainstTheTransposedNotes() throws {
        let take = try WAVFile.read(contentsOf: CLI.root.appendingPathComponent(PracticeCommandTests.take).path)
        let raised = PitchShifter.shift(take.samples, sampleRate: take.sampleRate) { _ in 200 }
        let path = PlaybackCommandTests.temporary("raised-take.flac")
        try AudioFile.write(raised, sampleRate: take.sampleRate, to: path)
        func judge(_ arguments: [String]) throws -> [String: Any] {
            let json = PlaybackCommandTests.temporary("transposed-report.json")
            let result = try CLI.run(
                ["practice", CLI.example, "--part", "tenor", "--output", "none", "--no-history", "--report", json] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            if arguments.contains("2") { #expect(result.stdout.hasPrefix("\(CLI.example) — Tenor, ♩ = 80, transposed up 2 semitones\n")) }
            return try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as! [String: Any]
        }
        let written = try judge(["--input", PracticeCommandTests.take])
        let moved = try judge(["--input", path, "--transpose", "2"])
        #expect(moved["transpose"] as? Int == 2)
        let a = written["notes"] as! [[String: Any]], b = moved["notes"] as! [[String: Any]]
        #expect(a.count == b.count)
        #expect(b.map { $0["expected_midi"] as! Int } == a.map { $0["expected_midi"] as! Int + 2 })
        // G major's F♯ is A major's G♯.
        #expect(b.first { $0["expected_midi"] as! Int == 56 }?["expected_name"] as? String == "G♯3")
        let agree = zip(a, b).count { $0["verdict"] as! String == $1["verdict"] as! String }
        #expect(agree >= a.count - 1, "verdicts \(a.map { $0["verdict"]! }) against \(b.map { $0["verdict"]! })")
    }
}
