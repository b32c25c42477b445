import Foundation
import Testing

/// Lines rendered by `choir render` and judged as the take: a render is in time by construction, so every verdict on
/// its timing is the judge's.
struct RenderedTakeTests {
    /// The verdicts and offsets (ms) of the notes of BWV 1.6's tenor in mm. 0–2, rendered with GM `program` and
    /// judged as recorded.
    static func judged(program: String) throws -> [(measure: String, beat: Double, verdict: String, offset: Int?)] {
        let score = CLI.fixtures.appendingPathComponent("corpus/bach_bwv1.6.mxl").path
        let take = NSTemporaryDirectory() + "choir-rendered-\(program).wav", report = take + ".json"
        let render = try CLI.run([
            "render", score, "--part", "tenor", "--solo", "tenor", "--to", "2", "-o", take, "--my-instrument", program,
        ])
        #expect(render.status == 0, "\(render.stderr)")
        let judged = try CLI.run([
            "practice", score, "--part", "tenor", "--to", "2", "--input", take, "--output", "none", "--no-history", "--no-align",
            "--report", report,
        ])
        #expect(judged.status == 0, "\(judged.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        let notes = try #require(json?["notes"] as? [[String: Any]])
        return notes.map { ($0["measure"] as! String, $0["beat"] as! Double, $0["verdict"] as! String, $0["offset_ms"] as? Int) }
    }

    /// Choir Aahs, the voice lines' default, swells into each note while the note before fades under it, and the two at once
    /// read as no pitch for up to 150 ms at full level (G3 after A3 on m. 1's downbeat, A3 after it). That is no
    /// silence for the singer to come in after: both are in time, as a listener hears them.
    @Test func aSampledChoirsCrossfadeIsInTime() throws {
        let notes = try Self.judged(program: "Choir Aahs")
        let downbeat = try #require(notes.first { $0.measure == "1" && $0.beat == 1 })
        let second = try #require(notes.first { $0.measure == "1" && $0.beat == 2 })
        for note in [downbeat, second] {
            #expect(note.verdict == "correct" && abs(note.offset ?? 1000) <= 120, "m. 1 beat \(note.beat): \(note)")
        }
    }
}
