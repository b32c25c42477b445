import ChoirAudio
import Foundation
import Testing

/// `choir practice` on takes that start off the beat, and the notes its report names.
struct TimingCommandTests {
    static let take = "Resources/DemoTakes/amazing_grace_tenor.wav"

    /// Judges `take` against the example's tenor line; the report's text and its JSON.
    static func judge(_ take: String, _ extra: [String] = []) throws -> (stdout: String, notes: [[String: Any]], document: [String: Any]) {
        let report = try PracticeCommandTests.dataHome() + "/report.json"
        let result = try CLI.run(
            ["practice", CLI.example, "--part", "tenor", "--input", take, "--output", "none", "--no-history", "--report", report] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as! [String: Any]
        return (result.stdout, document["notes"] as! [[String: Any]], document)
    }

    static func accuracy(_ document: [String: Any]) -> Double {
        (document["summary"] as! [String: Any])["accuracy_pct"] as! Double
    }

    /// The demo take's three planted mistakes (flat in m. 6, late in m. 7 and m. 12, as
    /// `make-demo-take` plants them) are named by measure, beat, syllable, written and sung pitch, timing and
    /// verdict, in score order; the JSON carries the same for every note.
    @Test func theDemoTakesMistakesAreNamed() throws {
        let judged = try Self.judge(Self.take)
        let table = judged.stdout.split(separator: "\n").drop { !$0.hasPrefix("Notes to work on") }.prefix(5).map(String.init)
        #expect(table.first == "Notes to work on (3):", "\(judged.stdout)")
        let rows = table.dropFirst(2).map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        #expect(
            rows.map { [$0[0], $0[2], $0[3], $0.last!] } == [
                ["6", "wretch", "G3", "flat"], ["7", "me!", "A3", "late"], ["12", "Was", "F♯3", "late"],
            ])
        #expect(rows[1].joined(separator: " ").contains("ms late"), "\(rows[1])")
        #expect(rows[0][4] == "G3" && rows[0][5].hasPrefix("−"), "flat is sung below the note: \(rows[0])")
        for note in judged.notes {
            for key in ["beat", "syllable", "sung_name", "offset_ms", "timing_tolerance_ms", "summary"] {
                #expect(note.keys.contains(key), "\(key) missing from \(note)")
            }
        }
        let late = try #require(judged.notes.first { $0["verdict"] as? String == "late" })
        #expect((late["offset_ms"] as? Int ?? 0) > (late["timing_tolerance_ms"] as? Int ?? .max))
        #expect((late["summary"] as? String)?.hasPrefix("m. 7 beat 1 “me!”: A3 sung A3") == true, "\(late)")
    }

    /// With `--all-notes`, every note is listed, right ones too.
    @Test func everyNoteIsListedOnRequest() throws {
        let judged = try Self.judge(Self.take, ["--all-notes"])
        let lines = judged.stdout.split(separator: "\n").drop { !$0.hasPrefix("Notes (") }
        #expect(lines.first == "Notes (\(judged.notes.count)):")
        #expect(lines.dropFirst(2).prefix(judged.notes.count).count { $0.hasSuffix(" correct") } == judged.notes.count - 3)
    }

    /// A take with 0.3, 1 or 2.5 s of silence before it, or cut 0.2 s into its first note, is moved to where its
    /// singing fits the score, says so in one line, and scores within a point of the take as it was, which is placed
    /// by its entrances (its consonants come before their vowels) by less than a take said to start off the beat;
    /// the shifted take is placed where that one is, moved by the shift. `--no-align` judges it as recorded.
    @Test(arguments: [0.3, 1.0, 2.5, -0.2])
    func aTakeThatStartsOffTheBeatIsAligned(shift: Double) throws {
        let original = try AudioFile.read(contentsOf: CLI.root.appendingPathComponent(Self.take).path)
        let count = Int(abs(shift) * Double(original.sampleRate))
        let samples = shift > 0 ? [Float](repeating: 0, count: count) + original.samples : Array(original.samples.dropFirst(count))
        let moved = try PracticeCommandTests.dataHome() + "/moved.wav"
        try AudioFile.write(samples, sampleRate: original.sampleRate, to: moved)

        let asRecorded = try Self.judge(Self.take)
        let aligned = try Self.judge(moved)
        let said = aligned.stdout.split(separator: "\n").filter { $0.hasPrefix("Take: the take starts ") }
        #expect(said.count == 1, "\(aligned.stdout)")
        let found = try #require(aligned.document["aligned_s"] as? Double)
        let placed = try #require(asRecorded.document["aligned_s"] as? Double)
        #expect(abs(placed) < 0.05 && !asRecorded.stdout.contains("Take: "), "the take as it was is placed, not moved: \(placed) s")
        #expect(abs(found - (placed + shift)) <= 0.02, "found \(found) s for \(shift) s, against \(placed) s as it was")
        #expect(said.first?.contains(shift > 0 ? "s late: aligned" : "s early: aligned") == true)
        #expect(abs(Self.accuracy(aligned.document) - Self.accuracy(asRecorded.document)) <= 1, "\(aligned.stdout)")

        if shift == 0.3 {
            // Kept in the history, the session's report says the same again.
            let data = try PracticeCommandTests.dataHome()
            let kept = try CLI.run(
                ["practice", CLI.example, "--part", "tenor", "--input", moved, "--output", "none"], environment: ["XDG_DATA_HOME": data])
            let again = try CLI.run(["report", "1"], environment: ["XDG_DATA_HOME": data])
            #expect(kept.stdout.contains("Take: the take starts 0.3") && again.stdout == kept.stdout, "\(again.stdout)")
            let unaligned = try Self.judge(moved, ["--no-align"])
            #expect(!unaligned.stdout.contains("Take: "))
            #expect(Self.accuracy(unaligned.document) < Self.accuracy(asRecorded.document) - 20, "\(unaligned.stdout)")
            #expect(unaligned.stdout.contains("Timing: your entrances came steadily"), "\(unaligned.stdout)")
        }
    }
}
