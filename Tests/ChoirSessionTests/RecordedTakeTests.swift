import ChoirSession
import Testing

/// The line a recorded live session ends with: where the take is, and the command that judges it again.
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
