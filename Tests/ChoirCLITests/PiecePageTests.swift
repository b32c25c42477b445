import ChoirTestSupport
import Foundation
import Testing

/// The piece's page as a singer practises on it (Playwright in headless Chromium): a loop dragged across the score,
/// the split view, learn mode.
@Suite struct PiecePageTests {
    /// Records each measure the page's status line shows, in `window.seen` (emptied by the caller when it wants).
    static let watchMeasures = """
        (() => { window.seen = [];
          new MutationObserver(() => { const m = /^m\\. ([^:]+):/.exec(document.querySelector('#where').textContent);
            if (m && window.seen[window.seen.length - 1] !== m[1]) window.seen.push(m[1]); })
            .observe(document.querySelector('#where'), { childList: true, characterData: true, subtree: true });
          return true })()
        """

    /// The printed numbers of the measures the loop's bands are behind.
    static let banded = """
        fetch('score.json').then((r) => r.json()).then((setup) => [...document.querySelectorAll('rect.loop-band:not(.preview)')]
          .map((band) => setup.measures.find((m) => m.id === band.parentNode.id).number))
        """

    /// `choir view --device none` at 200%: a drag on the score from measure 3 to measure 5 sends the engine a loop
    /// of those measures as played (3 to 5), which the status line says in the engine's words ("loop mm. 3–5"), a
    /// band shows behind the three measures (and again in a tab opened afresh), and the music then plays measures 3
    /// to 5 only, coming round from 5 to 3. By keyboard, Shift+→ and Shift+← move the loop's end a measure at a time
    /// (the status line, which a screen reader hears, saying each), "l" ends it, and without a loop Shift+→ loops the
    /// measure playing and the next.
    @Test func aLoopIsDraggedAcrossMeasuresOnTheScore() throws {
        let data = try PracticeCommandTests.dataHome()
        let viewing = try ScoreViewTests.Viewing(["view", CLI.example, "--part", "tenor", "--device", "none"], data: data)
        let browser = try Browser()
        try browser.open(viewing.address, width: 1400, height: 1000)
        #expect(
            try browser.wait("(document.querySelector('#stage').dataset.engraving || '') !== '' && !!document.querySelector('#full svg')"))
        // The view waits for Play (once its socket is open, which the first state says).
        #expect(try browser.wait("document.body.dataset.time !== undefined"))
        for _ in 0..<20 { try browser.key("+") }
        try browser.key("Space")
        #expect(try browser.wait("document.querySelector('#tempo').textContent.includes('(200%)')"))
        #expect(try browser.wait("!document.querySelector('#flags').textContent.includes('paused')"))
        _ = try browser.sent(21)

        // Where measures 3 and 5 are drawn: the middle of each one's box, on the stage.
        let places = try #require(
            try browser.eval(
                """
                fetch('score.json').then((r) => r.json()).then((setup) => ['3', '5'].map((number) => {
                  const element = document.getElementById(setup.measures.find((m) => m.number === number).id);
                  const box = element.getBoundingClientRect();
                  return [box.left + box.width / 2, box.top + box.height / 2, document.querySelector('#stage').contains(element) ? 1 : 0]; }))
                """) as? [[Double]])
        #expect(places.map { $0[2] } == [1, 1], "\(places)")
        _ = try browser.eval(Self.watchMeasures)
        try browser.drag(from: Array(places[0].prefix(2)), to: Array(places[1].prefix(2)))
        #expect(try browser.sent(1) == [#"{"command":"loop","from":3,"to":5}"#])
        #expect(try browser.wait("document.querySelector('#flags').textContent.includes('loop mm. 3–5')"))
        #expect(try browser.eval(Self.banded) as? [String] == ["3", "4", "5"])
        // From now on the music plays measures 3 to 5, round and round.
        _ = try browser.eval("window.seen = []")
        let cameRound = try browser.wait("window.seen.join(' ').includes('5 3')", timeout: 15)
        let seen = try browser.eval("window.seen") as? [String] ?? []
        #expect(cameRound, "\(seen)")
        #expect(Set(seen).isSubset(of: ["3", "4", "5"]), "\(seen)")

        // A tab opened afresh shows the loop too.
        try browser.reload()
        #expect(try browser.wait("document.querySelectorAll('rect.loop-band').length === 3"))
        #expect(try browser.eval(Self.banded) as? [String] == ["3", "4", "5"])

        // By keyboard: Shift+→ twice takes the loop on to m. 7, Shift+← three times back to m. 4; "l" ends it.
        for _ in 0..<2 { try browser.key("Shift+ArrowRight") }
        let extended = try browser.sent(2)
        #expect(extended == [#"{"command":"loop","from":3,"to":6}"#, #"{"command":"loop","from":3,"to":7}"#], "\(extended)")
        #expect(try browser.wait("document.querySelector('#flags').textContent.includes('loop mm. 3–7')"))
        for _ in 0..<3 { try browser.key("Shift+ArrowLeft") }
        #expect(try browser.sent(3).last == #"{"command":"loop","from":3,"to":4}"#)
        #expect(try browser.wait("document.querySelector('#flags').textContent.includes('loop mm. 3–4')"))
        #expect(try browser.wait("document.querySelectorAll('rect.loop-band').length === 2"))
        #expect(try browser.eval(Self.banded) as? [String] == ["3", "4"])
        #expect(try browser.eval("document.querySelector('#flags').getAttribute('aria-live')") as? String == "polite")
        try browser.key("l")
        #expect(try browser.sent(1) == [#"{"command":"loop"}"#])
        #expect(try browser.wait("!document.querySelector('#flags').textContent.includes('loop')"))
        #expect(try browser.eval("document.querySelectorAll('rect.loop-band').length") as? Int == 0)
        // Without a loop, Shift+→ loops the measure playing and the next.
        let here = try #require(
            Int(try browser.eval("/^m\\. (\\d+):/.exec(document.querySelector('#where').textContent)?.[1] ?? ''") as? String ?? ""))
        try browser.key("Shift+ArrowRight")
        let sent = try browser.sent(1)
        #expect(
            sent == [#"{"command":"loop","from":\#(here),"to":\#(here + 1)}"#]
                || sent == [#"{"command":"loop","from":\#(here + 1),"to":\#(here + 2)}"#], "\(sent) from m. \(here)")
        viewing.input.fileHandleForWriting.write(Data("\n".utf8))
        _ = viewing.finish()
    }
}
