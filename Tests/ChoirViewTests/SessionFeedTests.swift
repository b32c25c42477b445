import ChoirSession
import Foundation
import Testing

@testable import ChoirView

/// How the score view's feed dates a tab's paint, from which it measures the page's delay.
struct SessionFeedTests {
    /// A tab's paint, said on the wall clock, lands on the session's monotonic clock where it happened: 30 ms before
    /// now is 30 ms before now, not when the report came; a moment still to come (a clock set back), one over ten
    /// seconds ago, one that is no number, and a report that names none, are now.
    @Test func aPaintIsDatedWhenTheTabSaysItPainted() {
        let before = PracticeSession.clock()
        let painted = SessionFeed.moment(painted: Date().timeIntervalSince1970 * 1000 - 30)
        let after = PracticeSession.clock()
        #expect(painted >= before - 31_000_000 && painted <= after - 29_000_000, "\((after - painted) / 1_000_000) ms ago")
        let wall = Date().timeIntervalSince1970 * 1000
        for said in [wall + 5000, wall - 20_000, -1e300, 1e300, .infinity, .nan, nil] as [Double?] {
            let start = PracticeSession.clock()
            let moment = SessionFeed.moment(painted: said)
            #expect(moment >= start && moment <= PracticeSession.clock(), "\(String(describing: said))")
        }
    }
}
