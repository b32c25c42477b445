import ChoirPractice
import ChoirTestSupport
import Foundation
import Testing

/// The measures that improved or slipped in a line's latest session (``PlantedSession/changing()``: a note a
/// measure, mm. 1–16), against the five sessions before it.
struct MeasureChangeTests {
    @Test func theLatestSessionIsComparedWithTheFiveBefore() {
        let (improved, slipped) = MeasureChange.changes(PlantedSession.changing())
        #expect(
            improved.map(\.summary) == [
                "m. 3: 0% → 100% (+100 points, against 5 sessions)", "m. 5: 80% → 100% (+20 points, against 5 sessions)",
                "m. 10: 80% → 100% (+20 points, against 5 sessions)",
            ])
        #expect(
            slipped.map(\.summary) == [
                "m. 7: 100% → 0% (-100 points, against 5 sessions)", "m. 11: 60% → 0% (-60 points, against 5 sessions)",
            ])
        #expect(improved.map(\.measureIndex) == [2, 4, 9])
        // One session has nothing to compare with; a note wrong once in the five before is just a change (20 points).
        #expect(MeasureChange.changes([PlantedSession.changing()[0]]) == ([], []))
        let nearly = MeasureChange.changes(
            (0..<5).map { session in PlantedSession.make { if session == 0 && $0.note.measure == "2" { $0.verdict = .wrong } } }
                + [PlantedSession.make()])
        #expect(nearly.improved.map(\.summary) == ["m. 2: 80% → 100% (+20 points, against 5 sessions)"])
    }

    /// From the history: the line's sessions in its trend, the alto's apart, and the latest named.
    @Test func theHistoryGivesALinesChanges() throws {
        let history = try PracticeHistory(path: PracticeHistoryTests.temporaryPath())
        var ids: [Int64] = []
        for (day, report) in PlantedSession.changing().enumerated() {
            let id = try history.begin(report, started: Date(timeIntervalSince1970: 1_793_000_000 + Double(day) * 86_400))
            try history.record(report.results, trace: [], session: id)
            try history.finish(session: id)
            ids.append(id)
        }
        var alto = PlantedSession.make { $0.verdict = .wrong }
        alto.part = "Alto"
        let id = try history.begin(alto, started: Date(timeIntervalSince1970: 1_794_000_000))
        try history.record(alto.results, trace: [], session: id)
        try history.finish(session: id)
        let identity = try #require(alto.identity)
        let tenor = try #require(try history.measureChanges(of: identity, part: "tenor"))
        #expect(tenor.latest.id == ids.last && tenor.earlier.map(\.id) == Array(ids[1...5]))
        #expect(tenor.improved.map(\.measure) == ["3", "5", "10"] && tenor.slipped.map(\.measure) == ["7", "11"])
        #expect(try history.measureChanges(of: identity, part: "Alto") == nil)
    }
}
