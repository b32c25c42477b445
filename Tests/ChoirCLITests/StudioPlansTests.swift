import ChoirPitch
import ChoirPractice
import ChoirTestSupport
import Foundation
import Testing

/// The studio's rehearsal plans, progress by measure, starting pitch and marks on the score, driven in headless
/// Chromium with known answers, each checked against what the terminal's commands say of the same database.
@Suite struct StudioPlansTests {
    /// A folder of scores under a fresh data home, and the studio serving it (`--device none`).
    static func studio(_ files: [(from: String, name: String)], setUp: (String, String) throws -> Void = { _, _ in }) throws
        -> (viewing: ScoreViewTests.Viewing, browser: Browser, folder: String, data: String)
    {
        let data = try PracticeCommandTests.dataHome()
        let folder = data + "/scores"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for file in files { try FileManager.default.copyItem(atPath: file.from, toPath: folder + "/" + file.name) }
        try setUp(data, folder)
        let viewing = try ScoreViewTests.Viewing(
            ["studio", folder, "--device", "none", "--input", "hw:99"], data: data, announced: StudioTests.announced)
        let browser = try Browser()
        try browser.open(viewing.address)
        #expect(try browser.wait("document.querySelectorAll('#pieces li').length === \(files.count)"))
        return (viewing, browser, folder, data)
    }

    static func choir(_ arguments: [String], _ data: String) throws -> String {
        let result = try CLI.run(arguments, environment: ["XDG_DATA_HOME": data])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result.stdout
    }

    /// Clicks the button named `name`.
    static func press(_ browser: Browser, _ name: String) throws {
        let found = try browser.eval(
            "(() => { const b = document.querySelector(`button[aria-label=\(StudioTests.literal(name))]`); if (!b) return false; b.click(); return true })()"
        )
        #expect(found as? Bool == true, "no button \(name)")
    }

    /// Waits for the plans to be listed anew after `change`.
    static func changed(_ browser: Browser, _ change: () throws -> Void) throws {
        let before = try browser.eval("document.body.dataset.plans || '0'") as? String ?? "0"
        try change()
        #expect(try browser.wait("(document.body.dataset.plans || '0') !== '\(before)'"))
    }

    /// The pitches (MIDI) choir's detector hears from 0.1 s to 0.6 s into the mix "Download the mix" gives now: the
    /// first beat of a count-in, between its first two clicks.
    static func countInPitches(_ browser: Browser) throws -> [Double] {
        let samples = try #require(
            try browser.eval(
                """
                (async () => { const bytes = await (await fetch(document.querySelector('#download').href)).arrayBuffer();
                  const audio = await new OfflineAudioContext(1, 1, 48000).decodeAudioData(bytes);
                  return Array.from(audio.getChannelData(0).slice(0, 33600)); })()
                """) as? [Double])
        let frames = try PitchTrackers.track(signal: samples.map(Float.init), configuration: .init(sampleRate: 48000))
        return frames.filter { $0.isVoiced && $0.time > 0.1 && $0.time < 0.6 }.map { 69 + 12 * log2($0.frequency / 440) }
    }

    static func items(_ browser: Browser, _ plan: String) throws -> [String] {
        try browser.eval(
            "[...document.querySelectorAll(`#plan-list li[data-plan=\(StudioTests.literal(plan))] .items > li`)].map((li) => li.querySelector('.summary').textContent + (li.querySelector('.shown-notes')?.textContent ?? ''))"
        ) as? [String] ?? []
    }

    /// A plan made on the library page from the library's pieces: items added (the line as the score names it),
    /// moved, noted and removed, each change what `choir plan show` and `plan export` then say; a name taken is the
    /// engine's one-line error; every control is named. The next piece opens with the item's line as mine; once a
    /// take of it is judged, the next is the item after it. The plan removed is gone from `choir plan list`.
    @Test func aPlanIsASetlistOfTheLibrarysPieces() throws {
        let (viewing, browser, folder, data) = try Self.studio([
            (CLI.root.path + "/" + CLI.example, "amazing_grace.musicxml"),
            (CLI.fixtures.appendingPathComponent("divisi.musicxml").path, "divisi.musicxml"),
        ])
        #expect(try browser.wait("document.querySelector('#plan-list').textContent === 'No plans yet.'"))
        try Self.changed(browser) {
            _ = try browser.eval("document.querySelector('#plan-name').value = 'Advent'")
            _ = try browser.eval("document.querySelector('#new-plan button[type=submit]').click()")
        }
        #expect(try browser.eval("document.querySelector('#plan-list li[data-plan=\"Advent\"] h3').textContent") as? String == "Advent")
        #expect(try browser.eval("document.activeElement.getAttribute('aria-label')") as? String == "Piece to add to Advent")
        for (piece, line) in [("amazing_grace", "Tenor"), ("divisi", "Soprano"), ("amazing_grace", "Bass")] {
            try Self.changed(browser) {
                _ = try browser.eval(
                    """
                    (() => { const plan = document.querySelector('#plan-list li[data-plan="Advent"]');
                      const piece = plan.querySelector('.plan-piece'); piece.value = \(StudioTests.literal(folder + "/" + piece + ".musicxml"));
                      piece.dispatchEvent(new Event('change')); plan.querySelector('.plan-line').value = '\(line)'; return true })()
                    """)
                try Self.press(browser, "Add to Advent")
            }
        }
        #expect(
            try Self.items(browser, "Advent") == [
                "▶ next: Amazing Grace — Tenor, whole piece", "divisi — Soprano, whole piece", "Amazing Grace — Bass, whole piece",
            ])
        // By keyboard: the item moved up keeps the focus on its button.
        try Self.changed(browser) {
            _ = try browser.eval("document.querySelector('[aria-label=\"Move item 3 of Advent up\"]').focus()")
            try browser.key("Enter")
        }
        #expect(try browser.eval("document.activeElement.getAttribute('aria-label')") as? String == "Move item 2 of Advent up")
        try Self.changed(browser) {
            _ = try browser.eval("document.querySelector('[aria-label=\"Notes for item 2 of Advent\"]').value = 'watch the fermata'")
            try Self.press(browser, "Save the notes for item 2 of Advent")
        }
        #expect(
            try Self.items(browser, "Advent") == [
                "▶ next: Amazing Grace — Tenor, whole piece", "Amazing Grace — Bass, whole piece — watch the fermata",
                "divisi — Soprano, whole piece",
            ])
        #expect(
            try Self.choir(["plan", "show", "Advent"], data)
                == "Advent\n  1. Amazing Grace — Tenor, whole piece\n  2. Amazing Grace — Bass, whole piece — watch the fermata\n  3. divisi — Soprano, whole piece\nNever run.\n"
        )
        #expect(
            try Self.choir(["plan", "export", "Advent"], data).contains("part = \"Bass\"\npasses = 1\nnotes = \"watch the fermata\"\n"))
        try Self.changed(browser) { try Self.press(browser, "Remove item 3 of Advent") }
        #expect(try Self.items(browser, "Advent").count == 2)
        // The first item cannot move up, the last down.
        #expect(
            try browser.eval(
                "['Move item 1 of Advent up', 'Move item 2 of Advent down', 'Move item 1 of Advent down'].map((n) => document.querySelector(`[aria-label=\"${n}\"]`).disabled)"
            ) as? [Bool] == [true, true, false])
        // A name taken: the engine's words.
        _ = try browser.eval("document.querySelector('#plan-name').value = 'Advent'")
        _ = try browser.eval("document.querySelector('#new-plan button[type=submit]').click()")
        #expect(try browser.wait("!document.querySelector('#plans-error').hidden"))
        #expect(
            try browser.eval("document.querySelector('#plans-error').textContent") as? String
                == "a plan named 'Advent' exists: expected a new name, or --replace to replace it")
        #expect(try StudioTests.unnamed(browser, "#plans input, #plans button, #plans select") == 0)
        // By keyboard: the name, then Create plan.
        _ = try browser.eval("document.querySelector('#plan-name').focus()")
        try browser.key("Tab")
        #expect(try browser.eval("document.activeElement.textContent") as? String == "Create plan")

        // The next piece opens with the item's line as mine; a take of it judged, the next is the Bass.
        try Self.press(browser, "Open the next piece of Advent")
        #expect(try browser.wait("!document.querySelector('#piece').hidden && document.querySelectorAll('#mixer tbody tr').length === 4"))
        #expect(
            try browser.eval("[...document.querySelectorAll('#mixer .mine')].map((m) => m.checked)") as? [Bool] == [
                false, false, true, false,
            ])
        #expect(
            try browser.eval("document.querySelector('#plan-item').textContent") as? String
                == "Advent, item 1: Amazing Grace — Tenor, whole piece")
        try browser.choose("#take-file", files: [CLI.root.path + "/Resources/DemoTakes/amazing_grace_tenor.wav"])
        _ = try browser.eval("document.querySelector('#take').click()")
        #expect(try browser.wait("document.querySelectorAll('#sessions tbody tr[data-session]').length === 1", timeout: 60))
        _ = try browser.eval("document.querySelector('#back').click()")
        #expect(
            try browser.wait(
                "document.querySelector('[aria-label=\"Open the next piece of Advent\"]')?.textContent === 'Open next: Amazing Grace (Bass)'"
            ))
        #expect(try Self.items(browser, "Advent")[1] == "▶ next: Amazing Grace — Bass, whole piece — watch the fermata")

        try Self.changed(browser) { try Self.press(browser, "Remove the plan Advent") }
        #expect(try browser.eval("document.querySelector('#plan-list').textContent") as? String == "No plans yet.")
        #expect(try Self.choir(["plan", "list"], data) == "No plans; make one with `choir plan new NAME`.\n")
        viewing.input.fileHandleForWriting.write(Data("\n".utf8))
        #expect(viewing.finish() == 0)
    }

    /// The progress of a piece with seven tenor sessions (``PlantedSession/changing()``) and one alto session: the
    /// tenor's latest against the five before it lists mm. 3, 5 and 10 as improved and mm. 7 and 11 as slipped, with
    /// their figures and a sign beside the colour; the alto's one session has nothing to compare with.
    @Test func theProgressListsTheMeasuresThatImprovedOrSlipped() throws {
        let piece = NSTemporaryDirectory() + "choir-piece-\(UUID().uuidString).musicxml"
        try PlantedSession.musicXML.write(toFile: piece, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: piece) }
        let (viewing, browser, _, _) = try Self.studio([(piece, "piece.musicxml")]) { data, _ in
            let history = try PracticeHistory(path: data + "/choir/history.sqlite")
            var reports = PlantedSession.changing()
            var alto = PlantedSession.make()
            alto.part = "Alto"
            reports.append(alto)
            for (day, report) in reports.enumerated() {
                let id = try history.begin(report, started: Date(timeIntervalSince1970: 1_793_000_000 + Double(day) * 86_400))
                try history.record(report.results, trace: [], session: id)
                try history.finish(session: id)
            }
        }
        _ = try browser.eval("document.querySelector('button[aria-label=\"Open Piece\"]').click()")
        #expect(try browser.wait("document.querySelectorAll('#changes section').length === 1"))
        #expect(try browser.eval("document.querySelectorAll('#sessions tbody tr[data-session]').length") as? Int == 8)
        let heading = try browser.eval("document.querySelector('#changes section[data-line=\"Tenor\"] h4').textContent") as? String ?? ""
        #expect(heading.hasPrefix("Tenor: session #7 (2026-") && heading.hasSuffix(") against the 5 sessions before it"), "\(heading)")
        func listed(_ kind: String) throws -> [String] {
            try browser.eval("[...document.querySelectorAll('#changes ul[aria-label=\"Tenor: \(kind)\"] li')].map((li) => li.textContent)")
                as? [String] ?? []
        }
        #expect(
            try listed("improved") == [
                "▲ m. 3: 0% → 100% (+100 points, against 5 sessions)", "▲ m. 5: 80% → 100% (+20 points, against 5 sessions)",
                "▲ m. 10: 80% → 100% (+20 points, against 5 sessions)",
            ])
        #expect(
            try listed("slipped") == [
                "▼ m. 7: 100% → 0% (-100 points, against 5 sessions)", "▼ m. 11: 60% → 0% (-60 points, against 5 sessions)",
            ])
        viewing.input.fileHandleForWriting.write(Data("\n".utf8))
        #expect(viewing.finish() == 0)
    }

    /// Marks on the score as soon as the piece opens (its mix held at its start): one made with `choir mark add` is
    /// drawn on the engraved score at its measure; one added by clicking measure 9 is kept for each of my lines, as
    /// `choir mark add` keeps it, each drawn there (one above the other) and listed by `choir mark list`; all are drawn
    /// again when a narrower window lays the score out anew; one rubbed out by keyboard is gone from both. The
    /// count-in's first note is heard in the mix the page renders, and not with its option off. The starting pitch,
    /// by keyboard: with Tenor and Bass as mine, the button named "Starting pitch" sounds the tenor's G3, then the
    /// bass's G2, through the engine's synthesizer (a session on true time with `--device none`), then the score comes
    /// back with its marks.
    @Test func marksAreOnTheScoreAndTheStartingPitchSounds() throws {
        let (viewing, browser, folder, data) = try Self.studio([(CLI.root.path + "/" + CLI.example, "amazing_grace.musicxml")])
        let score = folder + "/amazing_grace.musicxml"
        _ = try Self.choir(["mark", "add", score, "--part", "tenor", "--measure", "5", "breathe after 'grace'"], data)
        _ = try browser.eval("document.querySelector('button[aria-label=\"Open Amazing Grace\"]').click()")
        #expect(try browser.wait("document.querySelectorAll('#mixer tbody tr').length === 4"))
        for line in ["Tenor", "Bass"] { _ = try browser.eval("document.querySelector('[aria-label=\"\(line) is mine\"]').click()") }

        let frame = StudioTests.frame
        let marksAt = """
            fetch(\(frame).location.href + 'score.json').then((r) => r.json()).then((setup) => [...\(frame).querySelectorAll('g.practice-mark')]
              .map((g) => setup.measures.find((m) => m.id === g.closest('g.measure').id).number + ': ' + g.textContent).sort())
            """
        #expect(try browser.wait("(\(frame)?.querySelectorAll('g.practice-mark').length ?? 0) === 1", timeout: 20))
        #expect(try browser.eval("document.querySelector('#session-state').textContent") as? String == "the score, held at its start")
        #expect(try browser.eval(marksAt) as? [String] == ["5: Mark at m. 5 (Tenor): breathe after 'grace'✎ breathe after 'grace'"])
        _ = try browser.eval("document.querySelector('#marking').click()")
        _ = try browser.eval(
            """
            fetch(\(frame).location.href + 'score.json').then((r) => r.json()).then((setup) => {
              \(frame).getElementById(setup.measures.find((m) => m.number === '9').id).dispatchEvent(new MouseEvent('click', { bubbles: true }));
              return true })
            """)
        #expect(try browser.wait("document.querySelector('#mark-measure').value === '9'"))
        _ = try browser.eval("document.querySelector('#mark-text').value = 'louder'")
        _ = try browser.eval("document.querySelector('#mark-form button[type=submit]').click()")
        #expect(try browser.wait("(\(frame)?.querySelectorAll('g.practice-mark').length ?? 0) === 3"))
        let all = [
            "5: Mark at m. 5 (Tenor): breathe after 'grace'✎ breathe after 'grace'", "9: Mark at m. 9 (Bass): louder✎ louder",
            "9: Mark at m. 9 (Tenor): louder✎ louder",
        ]
        #expect(try browser.eval(marksAt) as? [String] == all)
        #expect(
            try Self.choir(["mark", "list"], data)
                == "Amazing Grace\n     1  m. 5    Tenor        breathe after 'grace'\n     2  m. 9    Tenor        louder\n     3  m. 9    Bass         louder\n"
        )
        // Laid out anew for a narrower window: drawn again.
        let engraving = try browser.eval("\(frame).querySelector('#stage').dataset.engraving") as? String ?? ""
        try browser.resize(width: 900, height: 1000)
        #expect(try browser.wait("\(frame).querySelector('#stage').dataset.engraving !== '\(engraving)'", timeout: 20))
        #expect(try browser.wait("\(frame).querySelectorAll('g.practice-mark').length === 3"))
        #expect(try browser.eval(marksAt) as? [String] == all)
        // Rubbed out by keyboard, as `choir mark remove` does: gone from the score and the database.
        _ = try browser.eval("document.querySelector('[aria-label=\"Remove the mark m. 5 (Tenor): breathe after \\'grace\\'\"]').focus()")
        try browser.key("Enter")
        #expect(try browser.wait("\(frame).querySelectorAll('g.practice-mark').length === 2"))
        #expect(try browser.eval(marksAt) as? [String] == Array(all.dropFirst()))
        #expect(
            try Self.choir(["mark", "list"], data)
                == "Amazing Grace\n     2  m. 9    Tenor        louder\n     3  m. 9    Bass         louder\n")

        #expect(
            try browser.eval("document.querySelector('#countin-pitch').labels[0].textContent.trim()") as? String
                == "Count-in gives my first notes")
        // The count-in's first note in the mix the page renders, the tenor alone mine: its G3 under the first click
        // (tracked by choir's own detector), or the clicks alone with the option off.
        for control in ["[aria-label=\"Bass is mine\"]", "#countin"] {
            _ = try browser.eval("document.querySelector('\(control)').click()")
        }
        let cued = try Self.countInPitches(browser)
        _ = try browser.eval("document.querySelector('#countin-pitch').click()")
        #expect(try browser.eval("new URL(document.querySelector('#download').href).searchParams.get('countinpitch')") as? String == "0")
        let bare = try Self.countInPitches(browser)
        let median = cued.sorted()[cued.count / 2]
        print(
            "studio: the count-in's first beat, tracked: \(cued.count) voiced frames, median MIDI \(median), with the first note; "
                + "\(bare.count) voiced frames (\(bare.count { abs($0 - 55) < 1 }) near G3) without")
        #expect(cued.count > 20 && abs(median - 55) < 0.3, "\(cued)")
        #expect(bare.count { abs($0 - 55) < 1 } < cued.count / 4, "\(bare)")
        _ = try browser.eval("document.querySelector('#countin-pitch').click()")
        for control in ["[aria-label=\"Bass is mine\"]", "#countin"] {
            _ = try browser.eval("document.querySelector('\(control)').click()")
        }
        _ = try browser.eval("document.querySelector('#take').focus()")
        var reached = ""
        for _ in 0..<12 where reached != "Starting pitch" {
            try browser.key("Shift+Tab")
            reached = try browser.eval("document.activeElement.textContent") as? String ?? ""
        }
        #expect(reached == "Starting pitch")
        _ = try browser.eval("window.before = session")
        try browser.key("Enter")
        #expect(try browser.wait("document.querySelector('#session-state').textContent.startsWith('Starting pitch')"))
        #expect(
            try browser.eval("document.querySelector('#session-state').textContent") as? String == "Starting pitch: Tenor G3, then Bass G2")
        let sounding = try #require(try browser.eval("session") as? Int)
        // Then the score again, with its marks.
        #expect(
            try browser.wait(
                "session > \(sounding) && \(frame).location.pathname.endsWith(`/session/${session}/`) && \(frame).querySelectorAll('g.practice-mark').length === 2",
                timeout: 15))
        viewing.input.fileHandleForWriting.write(Data("\n".utf8))
        #expect(viewing.finish() == 0)
    }
}
