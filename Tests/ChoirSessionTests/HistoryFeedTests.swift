import ChoirPractice
import Testing

@testable import ChoirSession

/// A run saves the judge's whole results and trace every quarter second; the history gets each verdict and trace
/// point once, in order. (The history keeps one verdict per note and pass, so a verdict given twice would not
/// show: a trace point given twice would.)
struct HistoryFeedTests {
    @Test func eachVerdictAndPointReachesTheHistoryOnce() throws {
        let path = SessionRecorderTests.history()
        let recorder = SessionRecorder(path: path, header: SessionRecorderTests.header)
        var feed = HistoryFeed(recorder)
        let results = [
            SessionRecorderTests.result(0, .correct), SessionRecorderTests.result(1, .flat), SessionRecorderTests.result(2, .sharp),
        ]
        let trace = [TracePoint(time: 0.1, midi: 60), TracePoint(time: 1.1, midi: 59.6)]
        feed.save(results: Array(results[..<1]), trace: Array(trace[..<1]))
        feed.save(results: Array(results[..<2]), trace: trace)
        feed.save(results: Array(results[..<2]), trace: trace)
        feed.save(results: results, trace: trace)
        recorder.finish(audio: nil)
        let report = try PracticeHistory(path: path).report(session: try #require(recorder.stored))
        #expect(report.results.map(\.note.index) == [0, 1, 2])
        #expect(report.results.map(\.verdict) == [.correct, .flat, .sharp])
        #expect(report.trace == trace)
    }
}
