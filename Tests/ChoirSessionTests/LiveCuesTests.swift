import ChoirPractice
import ChoirTestSupport
import Testing

@testable import ChoirSession

/// What the singer is told of what comes next, on a line whose rests, phrases and words are known.
struct LiveCuesTests {
    static func cues(bars: Int = 8, marks: [LiveCues.Pencil] = []) -> LiveCues {
        LiveCues(
            notes: RestingAlto.notes, lyrics: RestingAlto.lyrics,
            bars: (0..<bars).map { LiveCues.Bar(start: RestingAlto.bar * Double($0), beats: 3) }, marks: marks)
    }

    @Test func beforeMyLineEntersACountdownInBarsThenBeats() {
        let cues = Self.cues()
        #expect(cues.cue(at: 0.1) == "enters in 4 bars")
        #expect(cues.cue(at: 4.6) == "enters in 2 bars")
        #expect(cues.cue(at: 7.0) == "enters in 3 beats")
        #expect(cues.cue(at: 8.5) == "enters on the next beat")
        // The rest between the phrases is counted too.
        #expect(cues.cue(at: 10.9) == "enters in 2 beats")
    }

    @Test func nearTheEndOfAPhraseTheNextPhrasesNotesAndWords() {
        #expect(Self.cues().cue(at: 9.1) == "next: D♭5 C5 B♭4  Through ma-ny", "notes spelled in A♭ major")
        // Mid-way through the last phrase there is no next one.
        #expect(Self.cues().cue(at: 13.0) == nil)
    }

    /// A mark shows from the bar before its measure to the measure's end.
    @Test func aMarkShowsAsItsMeasureNears() {
        let bar = RestingAlto.bar
        let cues = Self.cues(
            bars: 12, marks: [LiveCues.Pencil(start: 9 * bar, end: 10 * bar, measure: "10", text: "breathe after 'grace'")])
        #expect(cues.pencil(at: 7 * bar + 1) == nil)
        #expect(cues.pencil(at: 8 * bar + 1) == "✎ m. 10: breathe after 'grace'")
        #expect(cues.pencil(at: 9 * bar + 2) == "✎ m. 10: breathe after 'grace'")
        #expect(cues.pencil(at: 10 * bar + 0.5) == nil)
    }

    /// The flags say which time round a `--loop` the music is in, before what else differs from playing on.
    @Test func theFlagsSayThePassOfALoopFirst() {
        var snapshot = SessionSnapshot()
        #expect(snapshot.flags.isEmpty)
        snapshot.pass = 2
        snapshot.passes = 3
        snapshot.paused = true
        snapshot.loop = SessionEvent.MeasureSpan(first: "4", last: "6")
        snapshot.mineMuted = true
        #expect(snapshot.flags == ["pass 2 of 3", "paused", "loop mm. 4–6", "my part muted"])
    }

    /// The running accuracy counts every verdict of every pass, in the words the terminal and the page both show
    /// (the page used to count each note's latest verdict only, so that a looped note wrong the second time read
    /// 0% on the page and 50% in the terminal).
    @Test func theAccuracyCountsEveryPass() throws {
        let resolved = try PlaybackPlan(score: SessionPublisherTests.example, part: "tenor").resolve()
        let note = try #require(ExpectedNote.notes(of: resolved.singers, in: resolved.schedule, score: resolved.score).first)
        var snapshot = SessionSnapshot()
        #expect(snapshot.accuracy == "accuracy –")
        for verdict in [Verdict.correct, .flat, .correct] {
            snapshot.apply(.judged(NoteResult(note: note, verdict: verdict, medianCents: 0, onsetError: nil, inTunePercent: 100)))
        }
        #expect(snapshot.accuracy == "accuracy 67% (2 of 3 notes)")
        #expect(snapshot.correct == 2 && snapshot.percentCorrect == 67)
        #expect(SessionSnapshot().percentCorrect == nil)
    }

    /// The verdicts the roll colours a note with are each note's latest: a note flat in the first pass and right in
    /// the second shows right, another note keeps its own.
    @Test func theVerdictsAreEachNotesLatest() throws {
        let resolved = try PlaybackPlan(score: SessionPublisherTests.example, part: "tenor").resolve()
        let notes = ExpectedNote.notes(of: resolved.singers, in: resolved.schedule, score: resolved.score)
        var snapshot = SessionSnapshot()
        #expect(snapshot.verdicts.isEmpty)
        for (note, verdict) in [(notes[0], Verdict.flat), (notes[1], .late), (notes[0], .correct)] {
            snapshot.apply(.judged(NoteResult(note: note, verdict: verdict, medianCents: 0, onsetError: nil, inTunePercent: 100)))
        }
        #expect(snapshot.verdicts == [notes[0].index: .correct, notes[1].index: .late])
    }

    /// Where the learned tracker judges (live, beside YIN's needle), the accuracy says how far the verdicts follow
    /// the needle, before the first verdict too; else it is as it was.
    @Test func theJudgesDelayIsSaidBesideTheAccuracy() throws {
        let resolved = try PlaybackPlan(score: SessionPublisherTests.example, part: "tenor").resolve()
        let note = try #require(ExpectedNote.notes(of: resolved.singers, in: resolved.schedule, score: resolved.score).first)
        var snapshot = SessionSnapshot()
        snapshot.judgeDelay = 0.176
        #expect(snapshot.accuracy == "accuracy –, judged 0.18 s behind the needle")
        for verdict in [Verdict.correct, .flat, .correct, .correct] {
            snapshot.apply(.judged(NoteResult(note: note, verdict: verdict, medianCents: 0, onsetError: nil, inTunePercent: 100)))
        }
        #expect(snapshot.accuracy == "accuracy 75% (3 of 4 notes), judged 0.18 s behind the needle")
        snapshot.judgeDelay = nil
        #expect(snapshot.accuracy == "accuracy 75% (3 of 4 notes)")
    }
}
