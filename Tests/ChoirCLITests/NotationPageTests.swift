import ChoirTestSupport
import Foundation
import Testing

/// The score view's notation as a singer meets it in a browser (Playwright in headless Chromium): engraved to the
/// window, the ball on the singer's own staff, their line and the verdicts told apart without colour, a roll with
/// names on it, half-page turns that cut no system, and pages that can be turned back.
@Suite struct NotationPageTests {
    /// The page's engraving, measured: its SVG's width, the notation pane's and the window's, the engraving's size
    /// as the page asked for it, and the measures in each system.
    static let engraved = """
        (() => { const svg = document.querySelector('#stage svg'), box = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
          const pane = document.querySelector('#notation').getBoundingClientRect();
          return { engraving: document.querySelector('#stage').dataset.engraving || '', width: box.width, height: box.height,
            pane: [pane.width, pane.height], window: innerWidth,
            systems: [...document.querySelectorAll('.page g.system')].map((system) => system.querySelectorAll('g.measure').length),
            asked: performance.getEntriesByType('resource').filter((entry) => entry.name.includes('engraving.json')).length }; })()
        """

    /// `choir view --device none` in a window 1,600 px wide and one 900 px wide: the engraving is as wide as the
    /// window and as high as the pane, and the wider window's systems hold more measures. A window resized in
    /// steps is engraved again once, for the size it ends at; the server takes sizes in 10 px steps, within bounds. The roll names the tenor's pitches at their lanes and
    /// numbers the measures at their barlines. In a tall window, a half-page turn shows whole systems only, and a
    /// page turned back stays until the music turns a page.
    @Test func theEngravingFillsTheWindow() throws {
        let data = try PracticeCommandTests.dataHome()
        let viewing = try ScoreViewTests.Viewing(["view", CLI.example, "--part", "tenor", "--device", "none"], data: data)
        let browser = try Browser()
        var widest: [Int: Int] = [:]
        for width in [1600, 900] {
            try browser.open(viewing.address, width: width, height: 1000)
            #expect(try browser.wait("(document.querySelector('#stage').dataset.engraving || '').startsWith('\(width)x')"))
            let page = try #require(try browser.eval(Self.engraved) as? [String: Any])
            let drawn = page["width"] as? Double ?? 0, high = page["height"] as? Double ?? 0
            let pane = page["pane"] as? [Double] ?? [0, 0]
            #expect(drawn >= 0.98 * Double(width) && drawn <= Double(width) + 0.5, "\(page)")
            #expect(high >= pane[1] - 10 && high <= pane[1] + 0.5, "\(page)")
            widest[width] = (page["systems"] as? [Int])?.max() ?? 0
            print("a window \(width) px wide: the engraving \(Int(drawn)) × \(Int(high)) px, \(page["systems"] ?? []) measures a system")
        }
        #expect(widest[1600, default: 0] > widest[900, default: 0], "\(widest)")

        // From 900 px to 1,600 in steps of 100 px, 50 ms apart: one more engraving, at the last size. The page
        // engraves a size the pane has kept for a quarter of a second, so a step that the load around the test held
        // back that long may have one of its own: the page's own clock says when the pane changed.
        _ = try browser.eval(
            "window.resizedAt = []; new ResizeObserver(() => resizedAt.push(performance.now())).observe(document.querySelector('#notation'))"
        )
        // An observer reports the size it first sees: that is not a change.
        #expect(try browser.wait("resizedAt.length > 0"))
        _ = try browser.eval("resizedAt.length = 0")
        for width in stride(from: 1000, through: 1600, by: 100) {
            try browser.resize(width: width, height: 1000)
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(try browser.wait("document.querySelector('#stage').dataset.engraving.startsWith('1600x')"))
        let resized = try #require(try browser.eval(Self.engraved) as? [String: Any])
        let changed = try browser.eval("resizedAt") as? [Double] ?? []
        let held = zip(changed, changed.dropFirst()).filter { $1 - $0 >= 250 }.count
        let asked = resized["asked"] as? Int ?? 0
        // Resizes between two of the page's frames are reported once.
        #expect((1...7).contains(changed.count) && (resized["width"] as? Double ?? 0) >= 0.98 * 1600, "\(changed), \(resized)")
        #expect(asked >= 2 && asked <= 2 + held, "\(asked) engravings, the pane changing at \(changed) ms")
        print("resized in \(changed.count) steps the pane showed, \(held) of them kept for a quarter of a second: \(asked) engravings")
        // Sizes are engraved in 10 px steps, from 300 × 200 to 4,000 × 4,000; outside them, or without one, 400.
        let stepped = try browser.eval(
            "fetch('engraving.json?width=1605&height=549').then((answer) => answer.json()).then((e) => [e.width, e.height])")
        #expect(stepped as? [Int] == [1600, 540], "\(stepped)")
        for query in ["", "?width=299&height=500", "?width=800&height=4001", "?width=wide&height=500"] {
            #expect(try ScoreViewTests.status(viewing.address + "engraving.json" + query) == 400, "\(query)")
        }
        // What a resize waits for: an engraving at a size not made yet, then the same size again, from the cache.
        let took =
            try browser.eval(
                """
                (async () => { const time = async () => { const start = performance.now();
                  await (await fetch('engraving.json?width=1230&height=610')).json(); return performance.now() - start; };
                  const made = await time(); return [made, await time()]; })()
                """) as? [Double] ?? []
        print(
            String(
                format: "an engraving at a new size: %.2f s; the same size again: %.3f s", (took.first ?? .nan) / 1000,
                (took.last ?? .nan) / 1000))

        // The roll at the start: each pitch the tenor sings named at its lane, where its notes are drawn, higher
        // pitches higher; the measures numbered from the pickup's at the cursor (30% across), 2.25 s apart (three
        // beats at ♩ = 80) on a roll showing 10 s.
        let listed = try CLI.run(["notes", CLI.example, "--part", "tenor", "--json"])
        let parts =
            try #require(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])["parts"] as? [[String: Any]]
        let notes = try #require(parts?.first?["notes"] as? [[Any]])
        let pitches = Set(notes.map { $0[2] as! Int }).sorted()
        let roll = try #require(
            try browser.eval(
                """
                (() => { const canvas = document.querySelector('#roll canvas'), area = canvas.getBoundingClientRect(), g = canvas.getContext('2d');
                  const middle = (element) => { const box = element.getBoundingClientRect(); return box.top + box.height / 2 - area.top; };
                  return { width: area.width,
                    lanes: [...document.querySelectorAll('#lanes span')].map((label) => [Number(label.dataset.midi), label.textContent, middle(label),
                      [...g.getImageData(Math.round(area.width * 0.3 + 4), Math.round(middle(label)), 1, 1).data]]),
                    bars: [...document.querySelectorAll('#bars span')].map((label) => [label.textContent, label.getBoundingClientRect().left - area.left - 3]) }; })()
                """) as? [String: Any])
        let lanes = roll["lanes"] as? [[Any]] ?? []
        #expect(lanes.map { $0[0] as? Int ?? 0 } == pitches, "\(lanes)")
        #expect(lanes.first { $0[0] as? Int == 55 }?[1] as? String == "G3", "\(lanes)")
        let heights = lanes.map { $0[2] as? Double ?? 0 }
        #expect(zip(heights, heights.dropFirst()).allSatisfy { $0 > $1 }, "\(heights)")
        // The first note (G3, at the cursor) is drawn across its lane's label, not on the white roll.
        let first = lanes.first { $0[0] as? Int == notes[0][2] as? Int }?[3] as? [Int] ?? [255, 255, 255, 255]
        #expect(first.prefix(3) != [255, 255, 255] && first[3] == 255, "\(first)")
        let bars = roll["bars"] as? [[Any]] ?? []
        let width = roll["width"] as? Double ?? 0
        #expect(bars.map { $0[0] as? String ?? "" } == bars.indices.map(String.init) && bars.count >= 4, "\(bars)")
        if bars.count >= 3 {
            let at = bars.map { $0[1] as? Double ?? 0 }
            #expect(abs(at[0] - 0.3 * width) < 1.5 && abs(at[2] - at[1] - 2.25 * width / 10) < 1.5, "\(bars) on a roll \(width) px wide")
        }

        // A window 1,300 px high with only the notation, at m. 9 (the first page's second system): the next page's
        // systems above, this one's from the cursor's down, each system wholly in sight or not at all.
        try browser.open(viewing.address, width: 1000, height: 1300)
        #expect(try browser.wait("(document.querySelector('#stage').dataset.engraving || '').startsWith('1000x')"))
        _ = try browser.eval("document.querySelectorAll('input[data-pane]').forEach((box) => box.click())")
        #expect(try browser.wait("document.querySelector('#stage').dataset.engraving.startsWith('1000x12')"))
        _ = try browser.eval(#"document.querySelector('g.measure[data-n="9"]').dispatchEvent(new MouseEvent('click', { bubbles: true }))"#)
        #expect(try browser.wait("document.querySelector('#stage').dataset.top !== document.querySelector('#stage').dataset.bottom"))
        let cut = try #require(
            try browser.eval(
                """
                [...document.querySelectorAll('.slot')].filter((slot) => !slot.hidden).flatMap((slot) => {
                  const edge = slot.getBoundingClientRect();
                  return [...slot.querySelectorAll('g.system')].map((system) => {
                    const box = system.getBoundingClientRect(), seen = Math.max(0, Math.min(box.bottom, edge.bottom) - Math.max(box.top, edge.top));
                    return [slot.id, Math.round(seen), Math.round(box.height), system.querySelectorAll('g.syl').length];
                  });
                })
                """) as? [[Any]])
        let partly = cut.filter { ($0[1] as? Int ?? 0) > 0 && ($0[1] as? Int ?? 0) < ($0[2] as? Int ?? 0) - 1 }
        #expect(cut.count >= 2 && partly.isEmpty, "systems in sight by slot (seen, height, lyrics): \(cut)")
        // During the session, a page turned back stays until the music turns a page itself (here sought to the last
        // measure, on page 2).
        let stage = "`${document.querySelector('#stage').dataset.top}/${document.querySelector('#stage').dataset.bottom}`"
        try browser.key("PageUp")
        #expect(try browser.wait("\(stage) === '1/1'"))
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try browser.eval(stage) as? String == "1/1")
        _ = try browser.eval(#"document.querySelector('g.measure[data-n="16"]').dispatchEvent(new MouseEvent('click', { bubbles: true }))"#)
        #expect(try browser.wait("\(stage) === '2/2'"))
        // A line on its input ends `choir view`.
        viewing.input.fileHandleForWriting.write(Data("\n".utf8))
        #expect(viewing.finish() == 0)
    }

    /// `choir view --part LINE --device none`, played from the page: for each line of the example the ball rides
    /// the line's own notes, on its staff (the engraving's staves count down from the soprano's), never as high as
    /// the staff above it reaches, lyrics included.
    @Test(arguments: [("soprano", 1), ("alto", 2), ("tenor", 3), ("bass", 4)])
    func theBallIsOnTheSingersStaff(line: String, staff: Int) throws {
        let data = try PracticeCommandTests.dataHome()
        let viewing = try ScoreViewTests.Viewing(
            ["view", CLI.example, "--part", line, "--device", "none", "--to", "4", "--bpm", "160"], data: data)
        let browser = try Browser()
        try browser.open(viewing.address)
        try #require(try browser.wait("document.querySelectorAll('g.note.mine').length > 0"))
        try browser.key("Space")
        let sample = """
            (() => { const ball = document.querySelector('#ball'), note = ball.dataset.id && document.getElementById(ball.dataset.id);
              if (ball.hidden || !note) return null;
              const centre = ball.getBoundingClientRect().top + 9, staff = note.closest('g.staff');
              const staves = [...staff.parentNode.querySelectorAll(':scope > g.staff')], above = staves[staves.indexOf(staff) - 1];
              const inside = staves.filter((other) => { const box = other.getBoundingClientRect(); return centre >= box.top && centre <= box.bottom; });
              return { staff: Number(staff.dataset.n), inside: inside.map((other) => Number(other.dataset.n)),
                clear: above ? centre - above.getBoundingClientRect().bottom : 99 }; })()
            """
        var seen: [[String: Any]] = []
        for _ in 0..<20 {
            if let place = try browser.eval(sample) as? [String: Any] { seen.append(place) }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(seen.count >= 10, "\(seen.count) samples with the ball shown")
        let astray = seen.filter {
            $0["staff"] as? Int != staff || ($0["inside"] as? [Int]).map { !$0.isEmpty && $0 != [staff] } != false
                || ($0["clear"] as? Double ?? -1) < 8.9
        }
        #expect(astray.isEmpty, "\(line), staff \(staff): \(astray.prefix(3))")
        _ = try browser.eval(#"document.querySelector('#bar button[data-key="q"]').click()"#)
        #expect(viewing.finish() == 0)
    }

    /// The demo take judged with `--view`: the singer's staff is highlighted in a colour far from every verdict's
    /// (CIE76 ΔE over 40, and so are their notes), every judged note carries its verdict's own sign, and the legend
    /// gives each colour and sign its name. Once the session is over the last page shows, and the pages can be
    /// turned back and on with Page Up and Page Down, and with buttons named for a screen reader that the Tab key
    /// reaches and Enter presses; every button on the bar has such a name.
    @Test func aFinishedSessionsPagesCanBeTurned() throws {
        let data = try PracticeCommandTests.dataHome()
        let viewing = try ScoreViewTests.Viewing(
            ["practice", CLI.example, "--part", "tenor", "--input", PracticeCommandTests.take, "--output", "none", "--view"], data: data)
        let browser = try Browser()
        try browser.open(viewing.address, width: 900, height: 1000)
        #expect(
            try browser.wait(
                "!document.querySelector('#report').hidden && (document.querySelector('#stage').dataset.engraving || '') !== ''"))

        let colours = try #require(
            try browser.eval(
                """
                (() => { const style = (element, property) => element ? getComputedStyle(element)[property] : '';
                  return { band: style(document.querySelector('rect.mine-band'), 'fill'),
                    ink: style(document.querySelector('g.note.mine:not(.judged) .notehead use'), 'fill'),
                    verdicts: [...document.querySelectorAll('#legend .verdict')].map((item) =>
                      [item.textContent.slice(item.querySelector('i').textContent.length), item.querySelector('i').textContent, style(item.querySelector('i'), 'backgroundColor')]),
                    judged: [...document.querySelectorAll('g.note.judged')].map((note) =>
                      [note.dataset.verdict, note.querySelector(':scope > text.verdict-mark')?.textContent ?? '', style(note.querySelector('.notehead use'), 'fill')]) }; })()
                """) as? [String: Any])
        let verdicts = colours["verdicts"] as? [[String]] ?? []
        #expect(
            verdicts.map { $0[0] } == ["correct", "flat", "sharp", "wrong", "octave", "early", "late", "rushed", "dragged", "missing"],
            "\(verdicts)")
        let marks = Dictionary(verdicts.map { ($0[0], $0[1]) }) { first, _ in first }
        #expect(Set(marks.values).count == verdicts.count && !marks.values.contains(""), "\(marks)")
        let band = try #require(Self.rgb(colours["band"] as? String ?? ""), "\(colours)")
        let ink = try #require(Self.rgb(colours["ink"] as? String ?? ""), "\(colours)")
        for verdict in verdicts {
            let colour = try #require(Self.rgb(verdict[2]), "\(verdict)")
            #expect(Self.difference(band, colour) > 40 && Self.difference(ink, colour) > 40, "\(verdict) against \(band) and \(ink)")
        }
        // Every judged note: its verdict's colour and its sign.
        let judged = colours["judged"] as? [[String]] ?? []
        #expect(judged.count == 28, "\(judged.count) judged")
        let unmarked = judged.filter { note in
            note[1] != marks[note[0]] || Self.rgb(note[2]) != Self.rgb(verdicts.first { $0[0] == note[0] }?[2] ?? "")
        }
        #expect(unmarked.isEmpty, "\(unmarked.prefix(3))")
        _ = try browser.screenshot(data + "/judged.png")

        // The pages, turned back and on.
        let turned =
            "(() => { const stage = document.querySelector('#stage'); return `${stage.dataset.top}/${stage.dataset.bottom} ${document.querySelector('#pageno').textContent}`; })()"
        let last = try #require(try browser.eval("document.querySelectorAll('.page').length") as? Int)
        #expect(last >= 2)
        #expect(
            try browser.wait("\(turned) === '\(last)/\(last) page \(last) of \(last)'"), "\(String(describing: try? browser.eval(turned)))")
        try browser.key("PageUp")
        #expect(try browser.wait("document.querySelector('#stage').dataset.top === '\(last - 1)'"))
        for _ in 0..<last { try browser.key("PageUp") }
        #expect(try browser.wait("\(turned) === '1/1 page 1 of \(last)'"), "\(String(describing: try? browser.eval(turned)))")
        #expect(try browser.eval("document.querySelector('#full .page').dataset.page") as? String == "1")
        try browser.key("PageDown")
        #expect(try browser.wait("document.querySelector('#stage').dataset.top === '2'"))
        // The buttons, by their names, from the keyboard.
        let named = """
            ['Previous page', 'Next page'].map((name) => { const button = document.querySelector(`button[aria-label="${name}"]`);
              return button ? `tab index ${button.tabIndex}, disabled ${button.disabled}, hidden ${button.hidden}` : 'none'; })
            """
        // Every button on the bar has a name a screen reader says (the play button says Play or Pause, as it does).
        let names =
            try browser.eval("[...document.querySelectorAll('#bar button')].map((button) => button.getAttribute('aria-label') || '')")
            as? [String]
        #expect(
            names?.map { $0 == "Play" ? "Pause" : $0 } == [
                "Back a measure", "Pause", "On a measure", "Loop this phrase", "Slower", "Faster", "Mute my line", "Sound my next note",
                "End the session", "Performance mode", "Previous page", "Next page",
            ], "\(names ?? [])")
        let buttons = try browser.eval(named) as? [String]
        #expect(buttons == Array(repeating: "tab index 0, disabled false, hidden false", count: 2), "\(buttons ?? [])")
        var focused = ""
        for _ in 0..<40 where focused != "Previous page" {
            try browser.key("Tab")
            focused = try browser.eval("document.activeElement.getAttribute('aria-label') || ''") as? String ?? ""
        }
        #expect(focused == "Previous page")
        try browser.key("Enter")
        #expect(try browser.wait("document.querySelector('#stage').dataset.top === '1'"))
        _ = try browser.eval(#"document.querySelector('button[aria-label="Next page"]').click()"#)
        #expect(try browser.wait("document.querySelector('#stage').dataset.top === '2'"))
        #expect(viewing.finish() == 0)
    }

    /// "rgb(r, g, b)" as numbers.
    static func rgb(_ css: String) -> [Double]? {
        let numbers = css.split { !$0.isNumber && $0 != "." }.compactMap { Double($0) }
        return css.hasPrefix("rgb") && numbers.count >= 3 ? Array(numbers.prefix(3)) : nil
    }

    /// The CIE76 colour difference (ΔE*ab) of two sRGB colours: about 2 is just noticeable, over 40 another colour.
    static func difference(_ a: [Double], _ b: [Double]) -> Double {
        func lab(_ rgb: [Double]) -> [Double] {
            let linear = rgb.map { value -> Double in
                let c = value / 255
                return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
            }
            let x = (0.4124 * linear[0] + 0.3576 * linear[1] + 0.1805 * linear[2]) / 0.95047
            let y = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
            let z = (0.0193 * linear[0] + 0.1192 * linear[1] + 0.9505 * linear[2]) / 1.08883
            let f = { (t: Double) in t > 0.008856 ? cbrt(t) : 7.787 * t + 16 / 116 }
            return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))]
        }
        let (p, q) = (lab(a), lab(b))
        return sqrt(zip(p, q).map { ($0 - $1) * ($0 - $1) }.reduce(0, +))
    }
}
