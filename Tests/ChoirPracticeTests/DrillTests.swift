import ChoirPractice
import Testing

struct DrillTests {
    /// From 70% a step of 10% after each good pass: 70, 80, 90, 100, and done after a good pass at 100%. A
    /// poor pass repeats the tempo.
    @Test func tempoRisesWithEachGoodPassUpToTheWrittenTempo() {
        var drill = Drill()
        var tempos: [Double] = []
        var steps: [Drill.Next] = []
        for accuracy in [100.0, 80, 95, 90, 100] {
            tempos.append(drill.tempo)
            steps.append(drill.record(accuracy: accuracy))
        }
        #expect(tempos == [70, 80, 80, 90, 100])
        #expect(steps == [.faster, .again, .faster, .faster, .done])
        #expect(drill.passes == 5)
        #expect(
            drill.ladder == [
                Drill.Step(tempo: 70, accuracies: [100], reached: true), Drill.Step(tempo: 80, accuracies: [80, 95], reached: true),
                Drill.Step(tempo: 90, accuracies: [90], reached: true), Drill.Step(tempo: 100, accuracies: [100], reached: true),
            ])
        #expect(drill.ladder.map(\.passes) == [1, 2, 1, 1])
    }

    /// A pass mark of 80% and steps of 15%: 60, 75, 90, then 100 (never past the written tempo); a pass at 79% is
    /// not enough. A tempo still being sung has not been reached.
    @Test func theLadderClimbsToTheWrittenTempoAtTheChosenMark() {
        var drill = Drill(start: 60, step: 15, passMark: 80)
        #expect([79.0, 80, 85, 70].map { drill.record(accuracy: $0) } == [.again, .faster, .faster, .again])
        #expect(drill.ladder.map(\.tempo) == [60, 75, 90] && drill.ladder.map(\.passes) == [2, 1, 1])
        #expect(drill.ladder.map(\.reached) == [true, true, false])
        #expect([drill.record(accuracy: 95), drill.record(accuracy: 100)] == [.faster, .done])
        #expect(drill.ladder.map(\.tempo) == [60, 75, 90, 100] && drill.ladder.map(\.passes) == [2, 1, 2, 1])
    }

    @Test func aPassageNeverSungWellIsLeftAfterTheMaximumPasses() {
        var drill = Drill(start: 85, maximumPasses: 3)
        #expect(drill.tempo == 85)
        #expect([drill.record(accuracy: 50), drill.record(accuracy: 50), drill.record(accuracy: 50)] == [.again, .again, .movedOn])
        #expect(drill.tempo == 85)
    }

    /// Mistakes in measures 2–3 (three), 5–10 (seven) and 12 (one): the run 5–10 is cut to the four measures
    /// with the most mistakes, and passages come most mistakes first.
    @Test func passagesAreTheWeakestRunsOfMeasures() {
        let mistakes = ["1": 0, "2": 1, "3": 2, "4": 0, "5": 1, "6": 1, "7": 2, "8": 1, "9": 1, "10": 1, "11": 0, "12": 1]
        var results: [NoteResult] = []
        for number in (1...12).map(String.init) {
            for note in 0..<3 {
                let expected = ExpectedNote(
                    index: results.count, measure: number, measureIndex: Int(number)!, onset: Double(results.count),
                    duration: 1, midi: 60, isEntrance: note == 0)
                results.append(
                    NoteResult(
                        note: expected, verdict: note < mistakes[number]! ? .wrong : .correct, medianCents: 0, onsetError: 0,
                        inTunePercent: 100))
            }
        }
        let report = SessionReport(
            score: "my scores/s.musicxml", part: "Tenor 2", tempo: 80, options: NoteComparator.Options(),
            results: results, trace: [], measureStarts: [])
        #expect(
            Drill.passages(of: report) == [
                Drill.Passage(first: "5", last: "8", mistakes: 5),
                Drill.Passage(first: "2", last: "3", mistakes: 3),
                Drill.Passage(first: "12", last: "12", mistakes: 1),
            ])
        // The report's "Work on" passages are the drill's, each with a command a shell runs as printed.
        #expect(report.weakestPassages.map { "\($0.measures.first)-\($0.measures.last)" } == ["5-8", "2-3", "12-12"])
        #expect(report.weakestPassages[0].accuracy == 100.0 * 7 / 12)
        #expect(
            report.weakestPassages[0].suggestion == "loop measures 5–8 at 80%: choir practice 'my scores/s.musicxml' "
                + "--part 'Tenor 2' --from 5 --to 8 --loop 3 --tempo 80")
        // Cut to two measures, 5–10 gives 6–7 (three mistakes), as many as 2–3, which comes first in the score.
        #expect(Drill.passages(of: report, count: 2, longest: 2).map(\.span) == ["mm. 2–3", "mm. 6–7"])
    }

    /// A session that judged nothing says so, rather than "0.0%" beside "every measure was right".
    @Test func aReportOfNoNotesSaysSo() {
        let report = SessionReport(
            score: "s.musicxml", part: "Tenor", tempo: 80, options: NoteComparator.Options(), results: [], trace: [],
            measureStarts: [])
        #expect(
            TerminalReport.render(report, colour: false) == """
                s — Tenor, ♩ = 80
                No notes judged: no accuracy to give and no measure to work on.

                """)
    }
}
