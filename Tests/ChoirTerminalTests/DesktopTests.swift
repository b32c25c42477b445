import ChoirTerminal
import Testing

/// What the terminal says of the pages it opened.
struct DesktopTests {
    @Test func theDelaySaysMedianPercentileAndMaximum() {
        #expect(
            Desktop.delay((median: 38, percentile95: 85, maximum: 140), shown: "the score view")
                == "the score view showed what was sung 38 ms after it was captured (median; 95%: 85 ms, at most 140 ms)")
        #expect(
            Desktop.delay((median: 12, percentile95: 20, maximum: 31), shown: "the view", plus: ", plus 21 ms")
                == "the view showed what was sung 12 ms after it was captured (median; 95%: 20 ms, at most 31 ms), plus 21 ms")
    }
}
