import ChoirAudio
import Foundation
import Testing

/// `--part` repeated: every chosen line is the singer's, in the mix and in the judging; and `--divisi`.
struct SeveralLinesCommandTests {
    /// Both lines get my instrument (the MIDI file's program changes, channel by line); the others keep theirs.
    @Test func everyChosenLineIsMineInTheMix() throws {
        let out = PlaybackCommandTests.temporary("two-mine.mid")
        let result = try CLI.run(["render", CLI.example, "--part", "Soprano", "--part", "Alto", "--my-instrument", "71", "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        let programs = (0..<4).map { channel in bytes.windows(ofCount: 2).first { $0.first == 0xC0 + UInt8(channel) }.map { Int($0.last!) }
        }
        #expect(programs == [70, 70, 52, 52], "GM 71 (clarinet) is 70 from 0")
        // Muting my part silences both.
        let muted = PlaybackCommandTests.temporary("two-muted.mid")
        _ = try CLI.run(["render", CLI.example, "--part", "S", "--part", "A", "--mute-my-part", "-o", muted])
        let volumes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: muted))).windows(ofCount: 3)
            .filter { $0.first! & 0xF0 == 0xB0 && Array($0)[1] == 7 }.map { Array($0)[2] }
        #expect(volumes == [0, 0, 127, 127], "\(volumes)")
    }

    /// The tenor's take judged as a singer of the tenor and the bass lines: each note against the nearer, which is
    /// the tenor's, so the verdicts are the tenor's own. With the bass first, its rhythm is the one expected, and
    /// the notes the take sang with the tenor are still right; alone, the bass gets none.
    @Test func aSingerOfTwoLinesIsJudgedAgainstTheNearer() throws {
        func judge(_ parts: [String]) throws -> (stdout: String, notes: [[String: Any]]) {
            let json = PlaybackCommandTests.temporary("two-lines-\(parts.joined()).json")
            let result = try CLI.run(
                ["practice", CLI.example, "--input", PracticeCommandTests.take, "--output", "none", "--no-history", "--report", json]
                    + parts.flatMap { ["--part", $0] })
            #expect(result.status == 0, "\(result.stderr)")
            let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as! [String: Any]
            return (result.stdout, document["notes"] as! [[String: Any]])
        }
        let tenor = try judge(["tenor"]), both = try judge(["tenor", "bass"])
        #expect(
            both.stdout.hasPrefix("Amazing Grace — Tenor + Bass, ♩ = 80\nAccuracy: 89.3% (25 of 28 notes)\nVerdicts: "), "\(both.stdout)")
        #expect(both.notes.map { $0["verdict"] as! String } == tenor.notes.map { $0["verdict"] as! String })
        #expect(both.notes.map { $0["expected_midi"] as! Int } == tenor.notes.map { $0["expected_midi"] as! Int })
        #expect(both.notes.allSatisfy { $0["line"] as? String == "Tenor" })

        let bassFirst = try judge(["bass", "tenor"])
        // The one note judged as the bass's is a unison, which the take sang flat (a planted mistake).
        #expect(
            bassFirst.stdout.hasPrefix(
                """
                Amazing Grace — Bass + Tenor, ♩ = 80
                Accuracy: 96.4% (27 of 28 notes)
                Lines: Tenor 100% (27 of 27), Bass 0% (0 of 1)

                """), "\(bassFirst.stdout)")
        #expect(try judge(["bass"]).stdout.contains("\nAccuracy: 0.0% (0 of 28 notes)\n"))
    }

    /// A chord in the singer's line: the upper note is judged unless told, and the report says which.
    @Test func divisiPicksTheNoteAndTheReportSaysWhich() throws {
        let folder = try PracticeCommandTests.dataHome()
        let score = CLI.fixtures.appendingPathComponent("divisi.musicxml").path, silent = folder + "/silent.wav"
        try AudioFile.write([Float](repeating: 0, count: 8000 * 6), sampleRate: 8000, to: silent)
        for (choice, midis) in [("upper", [72, 76, 74, 72]), ("lower", [72, 67, 65, 72])] {
            let json = folder + "/\(choice).json"
            let result = try CLI.run(
                ["practice", score, "--part", "1", "--input", silent, "--output", "none", "--no-history", "--report", json]
                    + (choice == "upper" ? [] : ["--divisi", choice]))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("\nDivisi: your line has 2 chords; the \(choice) note of each was judged\n"), "\(result.stdout)")
            let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as! [String: Any]
            #expect((document["notes"] as! [[String: Any]]).map { $0["expected_midi"] as! Int } == midis)
            #expect((document["divisi"] as? [String: Any])?["note"] as? String == choice)
        }
    }
}
