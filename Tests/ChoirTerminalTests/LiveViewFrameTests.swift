import ChoirPractice
import ChoirSession
import ChoirTerminal
import ChoirTestSupport
import Testing

/// A whole frame of the live screen, line by line, from a snapshot with known notes, verdicts and singing.
struct LiveViewFrameTests {
    /// The alto of ``RestingAlto`` (A♭ major) one second into its first phrase: its first note judged right, its second
    /// flat, the singer 10 cents sharp of the B♭4 sounding now, the trace rising from A♭4.
    static func snapshot() throws -> SessionSnapshot {
        var snapshot = SessionSnapshot()
        (snapshot.time, snapshot.measure, snapshot.beat, snapshot.tempo, snapshot.tempoPercent) = (10.0, "5", 2, 80, 100)
        snapshot.sung = 70.1
        snapshot.trace = [TracePoint(time: 9.2, midi: 68.0), TracePoint(time: 9.5, midi: 68.1), TracePoint(time: 9.8, midi: 69.9)]
        for (note, verdict) in [(RestingAlto.notes[0], Verdict.correct), (RestingAlto.notes[1], .flat)] {
            snapshot.apply(.judged(NoteResult(note: note, verdict: verdict, medianCents: 0, onsetError: nil, inTunePercent: 100)))
        }
        return snapshot
    }

    /// At 60 columns by 16 rows without colour: the header, the lyric sung now in brackets, the cue, the needle 10
    /// cents right of centre; the roll's eight rows centred on the notes in view (D5 to G4, named in A♭ major, C5
    /// dotted as each C is), "now" a quarter of the way in at 0.1 s a column (the roll starts at 8.7 s), the first
    /// note drawn right (=), the second wrong (x) and the three to come unjudged (-), the trace (•) over them where it
    /// was sung; the accuracy, and the keys cut at the width.
    @Test func aSnapshotIsDrawnLineByLine() throws {
        let rows = LiveViewTests.view.render(LiveView.State(try Self.snapshot()), width: 60, height: 16, colour: false)
        let expected = [
            "Test — Alto                        m. 5:2   ♩ = 80   playing",
            "  Sing [now ]Through ma-ny ",
            "  next: D♭5 C5 B♭4  Through ma-ny",
            "  target B♭4    sung B♭4    +10¢ [···········|●··········]",
            String(repeating: "─", count: 60),
            "D5                │                                         ",
            "D♭5               │                   -------               ",
            "C5   ·············│··························--------·······",
            "                  │                                         ",
            "B♭4            x•xxxxxx                              -------",
            "                  │                                         ",
            "A♭4     ==•==•=   │                                         ",
            "G4                │                                         ",
            String(repeating: "─", count: 60),
            "accuracy 50% (1 of 2 notes)",
            "space pause · ←/→ measure · l loop · +/− tempo · m mute me ·",
        ]
        #expect(rows.count == expected.count)
        for (number, (row, line)) in zip(rows, expected).enumerated() { #expect(row == line, "row \(number)") }
    }
}
