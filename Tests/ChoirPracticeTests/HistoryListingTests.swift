import Foundation
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

    /// The marks just kept are said a line each: number, measure, the line (none for every line) and words.
    @Test func keptMarksAreSaidALineEach() {
        let hymn = ScoreIdentity(hash: "0123456789abcdef", path: "/scores/hymn.musicxml")
        let marks = [
            PracticeMark(id: 3, score: "hymn.musicxml", identity: hymn, line: "Tenor", measure: "12", text: "breathe after 'grace'"),
            PracticeMark(id: 4, score: "hymn.musicxml", identity: hymn, line: nil, measure: "3a", text: "softly"),
        ]
        #expect(PracticeMark.kept(marks) == "mark 3: m. 12 (Tenor): breathe after 'grace'\nmark 4: m. 3a: softly\n")
        #expect(PracticeMark.kept([]) == "")
    }

    /// Marks are listed by piece, a row a mark: its number, measure, line (or every line) and words.
    @Test func marksAreListedByPiece() throws {
        let history = try PracticeHistory(path: PracticeHistoryTests.temporaryPath())
        #expect(try history.marksListing(of: nil) == "No marks: `choir mark add SCORE --measure M \"breathe here\"` makes one.\n")
        let hymn = ScoreIdentity(hash: "0123456789abcdef", path: "/scores/hymn.musicxml")
        _ = try history.add(PracticeMark(score: "/scores/hymn.musicxml", identity: hymn, line: "Tenor", measure: "12", text: "breathe"))
        _ = try history.add(PracticeMark(score: "/scores/hymn.musicxml", identity: hymn, line: nil, measure: "3", text: "softly"))
        #expect(
            try history.marksListing(of: hymn) == """
                hymn
                     1  m. 12   Tenor        breathe
                     2  m. 3    every line   softly

                """)
    }
}

extension HistoryListingTests {
    /// No sessions: said of the score by its name (its file's, where it cannot be read), or of the whole history with
    /// how to sing one.
    @Test func noSessionsAreSaidSo() throws {
        let history = try PracticeHistory(path: PracticeHistoryTests.temporaryPath())
        #expect(try history.listing([], file: "/scores/hymn.musicxml") == "No sessions of hymn yet.\n")
        #expect(try history.listing([], file: nil) == "No sessions yet: `choir practice SCORE --part LINE` sings one.\n")
    }
}

extension HistoryListingTests {
    /// The progress page draws the sessions that count in the trend; a score never practised, or whose every session
    /// was too short to count (here, nothing sung), has none to draw, and says so as a missing input.
    @Test func theProgressPageDrawsTheSessionsThatCount() throws {
        let history = try PracticeHistory(path: PracticeHistoryTests.temporaryPath())
        let score = ScoreIdentity(hash: "0123456789abcdef", path: "/scores/hymn.musicxml")
        func failure(_ sessions: [PracticeHistory.Session]) -> PracticeHistory.Failure? {
            do {
                _ = try history.progressPage(score: "hymn.musicxml", sessions)
                return nil
            } catch { return error }
        }
        #expect(failure([])?.description == "hymn.musicxml: no sessions to draw: expected a score practised at least once")
        #expect(failure([])?.kind == .missing)
        _ = try PracticeHistoryTests.stored(history, score: score, notes: 3, verdict: .missing, traced: false)
        #expect(failure(try history.sessions())?.description == "hymn.musicxml: no sessions to draw: every session was too short to count")
        _ = try PracticeHistoryTests.stored(history, score: score, notes: 4)
        let page = try history.progressPage(score: "hymn.musicxml", try history.sessions())
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.contains("<title>choir: piece — progress</title>"))
        // The silent session is left out: one session drawn, the sung one.
        #expect(page.contains("<p>1 session from "))
    }
}

extension HistoryListingTests {
    /// Coaching a line the score does not have is refused in the selector's words, said of the score's file.
    @Test func coachingALineTheScoreHasNot() throws {
        let history = try PracticeHistory(path: PracticeHistoryTests.temporaryPath())
        let score = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Resources/ExamplePieces/amazing_grace.musicxml").path
        let failure = #expect(throws: LineSelector.Failure.self) { try history.coaching(file: score, lines: ["baritone"]) }
        #expect(failure?.description == "\(score): unknown line 'baritone': expected one of 1 Soprano, 2 Alto, 3 Tenor, 4 Bass")
        #expect(try history.coaching(file: score, lines: ["tenor"]).part == "Tenor")
    }
}
