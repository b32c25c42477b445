import ChoirPractice
import Testing

@testable import ChoirSession

/// What a session says as it ends: where its recording is and the command that judges it again, and the failures.
struct RecordedTakeTests {
    /// The command that judges a live session's recording again is the session's own, with the recording as its
    /// input, the latency it was judged with, and no device or recording of its own; it runs when pasted.
    @Test func aRecordingSaysHowToJudgeItAgain() {
        let take = RecordedTake(path: "my take.flac", seconds: 36.25, latency: 0.0424, failure: nil)
        let arguments = [
            "practice", "score.musicxml", "--part", "Tenor 2", "--input", "pulse", "--record=my take.flac", "--output",
            "pulse", "--latency", "-12", "--count-in",
        ]
        #expect(
            take.notice(arguments: arguments) == "recorded 36.2 s to my take.flac; judge it again with: "
                + "choir practice score.musicxml --part 'Tenor 2' --count-in --input 'my take.flac' --latency=42.4 --output none --no-align"
        )
        let stopped = RecordedTake(
            path: "t.flac", seconds: 3, latency: 0, failure: "t.flac: cannot be written (disk full): expected a writable path")
        #expect(
            stopped.notice(arguments: ["practice", "s.xml"]).hasPrefix(
                "recorded 3.0 s to t.flac; it stopped early: t.flac: cannot be written (disk full): expected a writable path; judge")
        )
    }
}

extension RecordedTakeTests {
    /// Once a session has ended, a front end says, in order, a history failure it did not say as the session began,
    /// the failure that ended the session, and where the recording is; nothing for a session that ended well.
    @Test func whatIsLeftToSayOnceASessionHasEnded() {
        let report = SessionRecorderTests.header
        let take = RecordedTake(path: "t.flac", seconds: 3, latency: 0, failure: nil)
        var outcome = PracticeSession.Outcome(report: report, ending: .completed, historyFailure: nil, recording: nil)
        #expect(outcome.notices(known: nil, arguments: []).isEmpty)
        outcome.historyFailure = "h.sqlite: disk full"
        outcome.ending = .failed(SessionError(.audio, "pulse: the device stopped"))
        outcome.recording = take
        #expect(
            outcome.notices(known: nil, arguments: ["practice", "s.xml"]) == [
                "h.sqlite: disk full; the history stops here", "pulse: the device stopped; the session ends here",
                take.notice(arguments: ["practice", "s.xml"]),
            ])
        // Said as the session began, the history's failure is not said again.
        #expect(outcome.notices(known: "h.sqlite: disk full", arguments: []).count == 2)
    }
}
