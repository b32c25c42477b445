import ChoirPractice
import Testing

/// The HTML report's page, read as text: what a singer sees besides the colours the browser test checks.
struct HTMLReportTests {
    /// Two measures of C4: the second sung an octave up (verdict octave), the trace there at C5.
    static func report(title: String?) -> SessionReport {
        let results = (0..<4).map { index in
            NoteResult(
                note: ExpectedNote(
                    index: index, measure: String(index / 2 + 1), measureIndex: index / 2, onset: Double(index),
                    duration: 1, midi: 60, isEntrance: index == 0),
                verdict: index < 2 ? .correct : .octave, medianCents: 0, onsetError: 0, inTunePercent: 100)
        }
        let trace = stride(from: 0.0, to: 4, by: 0.05).map { TracePoint(time: $0, midi: $0 < 2 ? 60 : 72) }
        var report = SessionReport(
            score: "scores/hymn & co.musicxml", part: "Tenor 2", tempo: 80, options: NoteComparator.Options(),
            results: results, trace: trace, measureStarts: [MeasureMark(number: "1", time: 0), MeasureMark(number: "2", time: 2)])
        report.title = title
        return report
    }

    @Test func thePageIsTitledByThePieceAndSaysWhatToWorkOn() {
        let page = HTMLReport.render(Self.report(title: "Hymn <of> Praise"))
        #expect(page.contains("<title>choir: Hymn &lt;of&gt; Praise — Tenor 2</title>"))
        #expect(page.contains("<h1>Hymn &lt;of&gt; Praise — Tenor 2</h1>\n<p class=\"file\">scores/hymn &amp; co.musicxml</p>"))
        #expect(
            page.contains(
                "<h2>Work on</h2>\n<ol id=\"workon\">\n<li>m. 2: 2 mistakes, 0% — <code>loop measure 2 at 70%: "
                    + "choir practice 'scores/hymn &amp; co.musicxml' --part 'Tenor 2' --from 2 --to 2 --loop 3 --tempo 70</code></li>\n</ol>"
            ))
        // Without a title in the score, the file's name names the piece, as in every command.
        #expect(HTMLReport.render(Self.report(title: nil)).contains("<title>choir: hymn &amp; co — Tenor 2</title>"))
    }

    /// The roll reaches the sung octave, so the trace of an octave error is drawn, and names its pitches.
    @Test func anOctaveErrorsTraceIsOnTheRoll() throws {
        let page = HTMLReport.render(Self.report(title: nil))
        for name in ["C4", "E4", "G4", "C5"] { #expect(page.contains(">\(name)</text>"), "\(name)") }
        let svg = try #require(page.firstRange(of: "<svg")).lowerBound
        let height = try #require(Double(page[svg...].split(separator: "height=\"")[1].prefix { $0 != "\"" }))
        let points = page.split(separator: "points=\"").dropFirst().flatMap { $0.prefix { $0 != "\"" }.split(separator: " ") }
        let ys = points.compactMap { Double($0.split(separator: ",")[1]) }
        #expect(!ys.isEmpty && ys.allSatisfy { (0...height).contains($0) }, "trace y \(ys.min() ?? -1)…\(ys.max() ?? -1) in 0…\(height)")
        #expect(ys.count == 80)
        #expect(page.contains("<div class=\"roll\"><svg id=\"pianoroll\""))
    }

    /// The summary gives each of the singer's lines its figures, and says what was sung: key, verse, divisi.
    @Test func theSummarySaysWhatWasSungAndEachLinesFigures() {
        var report = Self.report(title: nil)
        report.results[2].note.line = "Descant"
        report.results[3].note.line = "Descant"
        for index in 0..<2 { report.results[index].note.line = "Tenor 2" }
        report.transpose = -2
        report.verse = 2
        report.divisi = SessionReport.DivisiChoice(note: .lower, chords: 1)
        let page = HTMLReport.render(report)
        #expect(
            page.contains(
                "<tr class=\"line\"><th>Tenor 2</th><td>100% (2 of 2 notes)</td></tr>\n<tr class=\"line\"><th>Descant</th><td>0% (0 of 2 notes)</td></tr>"
            ))
        #expect(page.contains("<tr><th>Key</th><td>transposed down 2 semitones</td></tr>\n<tr><th>Verse</th><td>2</td></tr>"))
        #expect(page.contains("<tr><th>Divisi</th><td>your line has 1 chord; the lower note of it was judged</td></tr>"))
        #expect(!HTMLReport.render(Self.report(title: nil)).contains("class=\"line\""), "one line: no figures per line")
    }
}
