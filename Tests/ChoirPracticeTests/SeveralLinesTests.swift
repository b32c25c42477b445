import ChoirPitch
import ChoirPlayback
import ChoirScore
import ChoirTestSupport
import Foundation
import Testing

@testable import ChoirPractice

/// A singer who takes more than one line, and chords written in one line.
struct SeveralLinesTests {
    static let example = "Resources/ExamplePieces/amazing_grace.musicxml"

    static func schedule(_ score: Score, singer: Int) throws -> Schedule {
        var options = PlaybackOptions()
        options.singer = singer
        return try Schedule(score: score, lines: score.lines, options: options)
    }

    /// Soprano and alto as one singer's: every note has the other line's as its alternative. A singer who takes
    /// the soprano's notes for the first half and the alto's after is right throughout, and each line gets its
    /// own figures.
    @Test func theSingerIsJudgedAgainstTheNearerOfTheirLines() throws {
        let score = try PlantedTake.score(Self.example)
        let (soprano, alto) = (try LineSelector.select("soprano", from: score.lines), try LineSelector.select("alto", from: score.lines))
        let schedule = try Self.schedule(score, singer: soprano)
        let notes = ExpectedNote.notes(of: [soprano, alto], in: schedule, score: score)
        let sopranoOnly = ExpectedNote.notes(of: soprano, in: schedule, score: score)
        #expect(notes.map(\.midi) == sopranoOnly.map(\.midi), "the first line's notes are the ones expected")
        #expect(notes.allSatisfy { $0.line == "Soprano" } && notes.filter { !$0.alternatives.isEmpty }.count >= 25)
        #expect(notes.allSatisfy { note in note.others.allSatisfy { $0.line != "Alto" } }, "my own lines are not another's")

        let half = notes.count / 2
        let sung = notes.enumerated().map { index, note in
            index < half || note.alternatives.isEmpty ? note : note.sung(as: note.alternatives[0])
        }
        let take = SyntheticSinger(sampleRate: 16000, seed: 11).sing(sung, mistakes: [:], length: notes.last!.end + 1).samples
        let frames = try PitchTrackers.track(signal: take, configuration: PracticeJudge.detector(for: sung, sampleRate: 16000))
        var judge = PracticeJudge(
            notes: notes, options: NoteComparator.Options(), gate: LevelGate(frames: frames, notes: notes), learnsLevel: false)
        for frame in frames { _ = judge.add(frame) }
        _ = judge.finish()
        let results = judge.results
        #expect(results.count == notes.count)
        #expect(results.count { $0.verdict.isCorrect } >= notes.count - 1, "\(results.map(\.verdict))")
        #expect(results.map(\.note.midi) == sung.map(\.midi), "each note judged against the line sung")
        var report = SessionReport(
            score: Self.example, part: "Soprano + Alto", tempo: 80, options: NoteComparator.Options(), results: results, trace: [],
            measureStarts: [])
        #expect(report.lineFigures.map(\.line) == ["Soprano", "Alto"])
        #expect(report.lineFigures.map(\.notes) == [sung.count { $0.line == "Soprano" }, sung.count { $0.line == "Alto" }])
        report.results = Array(results.prefix(half))
        #expect(report.lineFigures.isEmpty, "one line sung: no figures per line")
    }

    /// A chord in the singer's line is one note to sing: the upper by default, the lower when asked.
    @Test func aChordInMyLineIsOneNote() throws {
        // A soprano line of four quarter notes whose second and third are written as chords.
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/divisi.musicxml").path
        let score = try ScoreReader.read(contentsOf: path)
        let schedule = try Self.schedule(score, singer: 0)
        #expect(ExpectedNote.notes(of: 0, in: schedule, score: score).map(\.midi) == [72, 76, 74, 72])
        #expect(ExpectedNote.notes(of: 0, in: schedule, score: score, divisi: .lower).map(\.midi) == [72, 67, 65, 72])
        #expect(SessionReport.DivisiChoice(note: .upper, chords: 2).summary == "your line has 2 chords; the upper note of each was judged")
    }
}
