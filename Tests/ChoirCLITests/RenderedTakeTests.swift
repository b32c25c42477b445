import ChoirAudio
import Foundation
import Testing

/// Lines rendered by `choir render` and judged as the take: a render is in time by construction, so every verdict on
/// its timing is the judge's.
struct RenderedTakeTests {
    /// A judged note: where it is, its verdict and its offset (ms).
    typealias Judged = (measure: String, beat: Double, verdict: String, offset: Int?)

    /// The notes of the chorale `score`'s `part` (BWV 1.6's unless told) up to m. `to` (to its end when nil), rendered
    /// with GM `program` and judged (`arguments` added), and the seconds the take was moved by to fit the score, if it
    /// was.
    static func judged(
        _ part: String, to: Int?, program: String, _ arguments: [String] = [], score: String = "bach_bwv1.6.mxl", silence: Double = 0
    ) throws -> (notes: [Judged], aligned: Double?) {
        let range = to.map { ["--to", "\($0)"] } ?? []
        let rendered = NSTemporaryDirectory() + "choir-rendered-\(score)-\(part)-\(to ?? 0)-\(program).wav"
        let take = silence > 0 ? rendered + ".after-\(silence)-s.wav" : rendered, report = take + ".json"
        let score = CLI.fixtures.appendingPathComponent("corpus/\(score)").path
        let render = try CLI.run(
            [
                "render", score, "--part", part, "--solo", part, "-o", rendered, "--my-instrument", program,
            ] + range)
        #expect(render.status == 0, "\(render.stderr)")
        if silence > 0 {
            let audio = try AudioFile.read(contentsOf: rendered)
            let before = [Float](repeating: 0, count: Int(silence * Double(audio.sampleRate)))
            try AudioFile.write(before + audio.samples, sampleRate: audio.sampleRate, to: take)
        }
        let judged = try CLI.run(
            [
                "practice", score, "--part", part, "--input", take, "--output", "none", "--no-history", "--report", report,
            ] + range + arguments)
        #expect(judged.status == 0, "\(judged.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        let notes = try #require(json?["notes"] as? [[String: Any]])
        return (
            notes.map { ($0["measure"] as! String, $0["beat"] as! Double, $0["verdict"] as! String, $0["offset_ms"] as? Int) },
            json?["aligned_s"] as? Double
        )
    }

    /// Choir Aahs, the voice lines' default, swells into each note while the note before fades under it, and the two at
    /// once read as no pitch for up to 150 ms at full level (G3 after A3 on m. 1's downbeat of the tenor, A3 after
    /// it). That is no silence for the singer to come in after: both are in time, as a listener hears them.
    @Test func aSampledChoirsCrossfadeIsInTime() throws {
        let notes = try Self.judged("tenor", to: 2, program: "Choir Aahs", ["--no-align"]).notes
        let downbeat = try #require(notes.first { $0.measure == "1" && $0.beat == 1 })
        let second = try #require(notes.first { $0.measure == "1" && $0.beat == 2 })
        for note in [downbeat, second] {
            #expect(note.verdict == "correct" && abs(note.offset ?? 1000) <= 120, "m. 1 beat \(note.beat): \(note)")
        }
    }

    /// Synth Voice swells into F4 while the C4 before it fades (BWV 12.7's tenor, m. 9 beat 3): the two together repeat
    /// at F3's period, so for 150 ms the tracker reads the new note an octave down. That is this note, not the singer
    /// holding on to another pitch: it is in time, as its harmonics' rise says.
    @Test func aNoteReadAnOctaveDownAsItSwellsInIsInTime() throws {
        let notes = try Self.judged("tenor", to: 9, program: "Synth Voice", ["--no-align"], score: "bach_bwv12.7.mxl").notes
        let note = try #require(notes.first { $0.measure == "9" && $0.beat == 3 })
        #expect(note.verdict == "correct" && abs(note.offset ?? 1000) <= 60, "\(note)")
    }

    /// Synth Voice's B3 rings on louder than the E4 a fourth above it for 40 ms (BWV 178.7's tenor, m. 2 beat 3), so
    /// the tracker reads the B3 on as if it were held past the beat: the leap is timed where its own harmonics rise.
    @Test func aLeapUnderTheNoteBeforesReleaseIsInTime() throws {
        let notes = try Self.judged("tenor", to: 2, program: "Synth Voice", ["--no-align"], score: "bach_bwv178.7.mxl").notes
        let note = try #require(notes.first { $0.measure == "2" && $0.beat == 3 })
        #expect(note.verdict == "correct" && abs(note.offset ?? 1000) <= 60, "\(note)")
    }

    /// Choir Aahs' partials are wide (a sampled choir, its voices a few cents apart), so the harmonics of a note a
    /// step from the one before seem to rise while the note before swells in. A line sings one note at a time: the new
    /// note's rise is looked for only once the note before has swelled in (BWV 158.4's tenor, C♯4 after D4 on m. 1's
    /// downbeat, was heard 147 ms early).
    @Test func aNoteDoesNotBeginWhileTheOneBeforeSwellsIn() throws {
        let notes = try Self.judged("tenor", to: 2, program: "Choir Aahs", ["--no-align"], score: "bach_bwv158.4.mxl").notes
        let note = try #require(notes.first { $0.measure == "1" && $0.beat == 1 })
        #expect(note.verdict == "correct" && abs(note.offset ?? 1000) <= 60, "\(note)")
    }

    /// The soprano's Choir Aahs settles on its pitch 130 ms into each note, where its entrances are heard within a few
    /// tens of milliseconds: the take fits the score best moved by its entrances, not by where its pitch settles,
    /// which would call the entrances heard on the beat early. It is placed within 50 ms of where it is, not said
    /// to start off the beat, and every note is right.
    @Test func aSwellingVoiceIsAlignedByItsEntrances() throws {
        let (notes, aligned) = try Self.judged("soprano", to: 4, program: "Choir Aahs")
        #expect(abs(aligned ?? 0) < 0.05, "\(aligned ?? 0)")
        #expect(notes.allSatisfy { $0.verdict == "correct" }, "\(notes.filter { $0.verdict != "correct" })")
    }

    /// A render with a second of silence before it scores within a point of the render as it was, both placed by
    /// their entrances (issue 28). Synth Voice's bass of "Lift Every Voice and Sing", whose entrances the judge hears
    /// late, was left where it was and scored 19 points lower than after the silence, where the take was moved.
    @Test func aRenderWithSilenceBeforeItIsJudgedAsItWas() throws {
        let score = "johnson_j_r_lift_every_voice.mxl"
        let asRendered = try Self.judged("Bass", to: nil, program: "Synth Voice", score: score)
        let later = try Self.judged("Bass", to: nil, program: "Synth Voice", score: score, silence: 1)
        func accuracy(_ notes: [Judged]) -> Double { 100 * Double(notes.count { $0.verdict == "correct" }) / Double(notes.count) }
        #expect(
            abs((later.aligned ?? 0) - (asRendered.aligned ?? 0) - 1) <= 0.02, "\(asRendered.aligned ?? 0) s, then \(later.aligned ?? 0) s")
        #expect(
            abs(accuracy(later.notes) - accuracy(asRendered.notes)) <= 1, "\(accuracy(asRendered.notes))%, then \(accuracy(later.notes))%")
    }

    /// Every line of BWV 1.6 (344 notes), rendered with voices (Voice Oohs, Synth Voice), a string and a wind: at most
    /// one note in a hundred is called early, late or missing (the issue's bar; over the corpus's 92 chorale lines,
    /// 0.71, 0.50, 0.05 and none in 100). Choir Aahs, whose notes cross for a quarter of a second, is not there yet,
    /// at 7.01 (`Benchmarks/judge-renders.py` gives the whole table).
    @Test(arguments: ["Voice Oohs", "Synth Voice", "Violin", "Clarinet"])
    func aRenderedChoraleIsInTime(program: String) throws {
        var notes: [Judged] = []
        for part in ["soprano", "alto", "tenor", "bass"] { notes += try Self.judged(part, to: nil, program: program).notes }
        let timing = notes.filter { ["early", "late", "rushed", "dragged", "missing"].contains($0.verdict) }
        #expect(notes.count == 344)
        #expect(timing.count * 100 <= notes.count, "\(timing)")
    }
}
