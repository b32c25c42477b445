import ChoirPractice
import ChoirScore
import Testing

/// `choir history`'s listing of sessions whose verdicts are known: a row each, and the weakest measures' trend.
struct HistoryListingTests {
    /// Three tenor sessions of four one-note measures: all right, then m. 1 wrong, then mm. 1–2 wrong; and an alto
    /// session in which nothing was sung. The header the sessions share says they sang m. 1.
    @Test func aLineListsItsSessionsAndItsWeakestMeasures() throws {
        let history = try PracticeHistory(path: PracticeHistoryTests.temporaryPath())
        let score = ScoreIdentity(hash: "0123456789abcdef", path: "/scores/hymn.musicxml")
        let right = try PracticeHistoryTests.stored(history, score: score, notes: 4)
        let one = try PracticeHistoryTests.stored(history, score: score, notes: 1, verdict: .wrong)
        let two = try PracticeHistoryTests.stored(history, score: score, notes: 2, verdict: .wrong)
        let silent = try PracticeHistoryTests.stored(history, score: score, part: "Alto", notes: 3, verdict: .missing, traced: false)
        let sessions = try history.sessions()
        let day = Dictionary(uniqueKeysWithValues: sessions.map { ($0.id, PracticeHistory.time($0.started)) })
        let listing = try history.listing(sessions, file: "hymn.musicxml")
        #expect(
            listing == """
                piece — hymn.musicxml
                  Tenor
                    #\(right)    \(day[right]!)  ♩=80          m. 1        100.0% ████████████████████
                    #\(one)    \(day[one]!)  ♩=80          m. 1          0.0%
                    #\(two)    \(day[two]!)  ♩=80          m. 1          0.0%
                    Weakest measures over the last 3 sessions:
                      m. 1    100% → 0% → 0%  (33% in all)
                      m. 2    100% → – → 0%  (50% in all)
                  Alto
                    #\(silent)    \(day[silent]!)  ♩=80          m. 1          0.0%   (nothing sung)
                1 session in which nothing was sung (#\(silent)): `choir history --prune` deletes it.

                """, "\(listing)")
    }
}
