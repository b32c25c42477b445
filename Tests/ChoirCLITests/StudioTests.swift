import ChoirTestSupport
import Foundation
import Testing

/// `choir studio FOLDER`: the library in a real browser, served on loopback behind a token.
@Suite struct StudioTests {
    /// The first line `choir studio` prints, before its address.
    static let announced = "Studio: "

    /// A folder holding the example, the data's home, and the studio serving both.
    static func studio() throws -> (viewing: ScoreViewTests.Viewing, folder: String, data: String) {
        let data = try PracticeCommandTests.dataHome()
        let folder = data + "/scores here"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.root.path + "/" + CLI.example, toPath: folder + "/amazing_grace.musicxml")
        try Data("<score-partwise>".utf8).write(to: URL(fileURLWithPath: folder + "/torn.musicxml"))
        return (try ScoreViewTests.Viewing(["studio", folder], data: data, announced: announced), folder, data)
    }

    /// The studio started with `options` on a folder holding only the example, and a browser on the example's piece
    /// page with its mixer drawn; `prepare` is given the data's home before the studio starts.
    static func examplePiece(
        _ options: [String], environment: [String: String] = [:], prepare: (String) throws -> Void = { _ in }
    ) throws -> (viewing: ScoreViewTests.Viewing, browser: Browser, data: String) {
        let data = try PracticeCommandTests.dataHome()
        let folder = data + "/scores"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.root.path + "/" + CLI.example, toPath: folder + "/amazing_grace.musicxml")
        try prepare(data)
        let viewing = try ScoreViewTests.Viewing(["studio", folder] + options, data: data, announced: announced, environment: environment)
        let browser = try Browser()
        try browser.open(viewing.address)
        #expect(try browser.wait("document.querySelectorAll('#pieces li').length === 1"))
        _ = try browser.eval("document.querySelector('button[aria-label=\"Open Amazing Grace\"]').click()")
        #expect(try browser.wait("!document.querySelector('#piece').hidden && document.querySelectorAll('#mixer tbody tr').length === 4"))
        return (viewing, browser, data)
    }

    /// The titles of a `choir library search` with the studio's data.
    static func searched(_ arguments: [String], data: String) throws -> [String] {
        let result = try CLI.run(["library", "search", "--json"] + arguments, environment: ["XDG_DATA_HOME": data])
        let pieces = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], Comment(rawValue: result.stderr))
        return pieces.compactMap { $0["title"] as? String }
    }

    /// The titles the page lists once it has answered the search typed into `fields`.
    static func search(_ browser: Browser, _ fields: [String: String]) throws -> [String] {
        let before = try browser.eval("document.body.dataset.answered || '0'") as? String ?? "0"
        let set = ["text", "voicing", "part", "lowest", "highest"].map { name in
            "document.querySelector('#\(name)').value = \(Self.literal(fields[name] ?? ""));"
        }.joined()
        _ = try browser.eval("(() => { \(set) document.querySelector('#search button').click(); return true })()")
        #expect(try browser.wait("(document.body.dataset.answered || '0') !== '\(before)'"))
        return try browser.eval("[...document.querySelectorAll('#pieces h2')].map((h) => h.textContent)") as? [String] ?? []
    }

    /// How many of the controls `selector` finds have no name a screen reader says.
    static func unnamed(_ browser: Browser, _ selector: String) throws -> Int {
        try browser.eval(
            "[...document.querySelectorAll(\(literal(selector)))].filter((e) => !(e.labels?.length || e.textContent.trim() || e.getAttribute('aria-label'))).length"
        ) as? Int ?? -1
    }

    static func literal(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst().dropLast().description
    }

    /// The studio lists FOLDER's score as `choir library list` describes it (title, composer, voicing, each line's
    /// range), takes a score chosen with the file picker into FOLDER and the library, refuses a dropped file that is
    /// not a score with the reader's one-line error (and files nothing), and searches by text, voicing and a line's
    /// range exactly as `choir library search` does, a bad note said in its words. Every control has a name and is
    /// reached by Tab; the page loads nothing from elsewhere; only the token's paths answer.
    @Test func theLibraryIsListedSearchedAndAddedToFromThePage() throws {
        let (viewing, folder, data) = try Self.studio()
        let address = viewing.address
        let (host, path) = try ScoreViewTests.split(address)
        let token = path.split(separator: "/")[0]
        #expect(try ScoreViewTests.status("http://\(host)/") == 403)
        #expect(try ScoreViewTests.status("http://\(host)/library.json") == 403)
        #expect(try ScoreViewTests.status("http://\(host)/\(String(token.reversed()))/library.json") == 403)
        #expect(try ScoreViewTests.status(address + "library.json") == 200)
        #expect(try ScoreViewTests.status(address + "../history.sqlite") == 404)
        // Adding needs the page's own Origin: a bare POST is refused.
        let probe = try #require(HTTPProbe(port: try ScoreViewTests.port(host)))
        probe.send("POST \(path)library?name=x.musicxml HTTP/1.1\r\nHost: \(host)\r\nContent-Length: 1\r\n\r\nx")
        #expect(probe.response()?.status == 403)

        let browser = try Browser()
        try browser.open(address)
        #expect(try browser.wait("document.querySelectorAll('#pieces li').length === 1"))
        // From the page's request (the navigation's start) to its first paint, and to the library drawn.
        let paint = try browser.eval("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1") as? Double ?? -1
        let listed = try browser.eval("performance.getEntriesByName('listed')[0]?.startTime ?? -1") as? Double ?? -1
        let resident = try Self.residentKiB(viewing.process.processIdentifier)
        print(
            "studio: first paint \(Int(paint)) ms and the library listed \(Int(listed)) ms after the page was asked for; "
                + "the studio's resident memory \(resident / 1024) MiB")
        #expect(listed > 0)
        #expect(try browser.eval("document.querySelector('#pieces h2').textContent") as? String == "Amazing Grace")
        #expect(try browser.eval("document.querySelector('#pieces .composer').textContent") as? String == "Traditional (New Britain)")
        #expect(
            try browser.eval("document.querySelector('#pieces .facts').textContent") as? String == "SATB · G major · 17 measures · 0:36")
        #expect(
            try browser.eval("[...document.querySelectorAll('#pieces .range')].map((r) => r.textContent)") as? [String] == [
                "Soprano D4–D5", "Alto B3–G4", "Tenor F♯3–D4", "Bass G2–G3",
            ])

        // A score chosen with the file picker is filed in FOLDER and listed.
        let divisi = try String(contentsOf: CLI.fixtures.appendingPathComponent("divisi.musicxml"), encoding: .utf8)
        _ = try browser.eval(
            """
            (() => { const files = new DataTransfer(); files.items.add(new File([\(Self.literal(divisi))], "divisi.musicxml"));
              const input = document.querySelector('#files'); input.files = files.files;
              input.dispatchEvent(new Event('change', { bubbles: true })); return true })()
            """)
        #expect(try browser.wait("document.querySelectorAll('#pieces li').length === 2"))
        #expect(try browser.eval("document.querySelector('#message').textContent") as? String == "added divisi")
        #expect(try String(contentsOfFile: folder + "/divisi.musicxml", encoding: .utf8) == divisi)
        #expect(try Self.searched([], data: data) == ["Amazing Grace", "divisi"])

        // A dropped file that is not a score: the reader's one-line error, nothing filed.
        _ = try browser.eval(
            """
            (() => { const files = new DataTransfer(); files.items.add(new File(["<score-partwise><part-list>"], "broken.musicxml"));
              document.querySelector('#pieces').dispatchEvent(new DragEvent('drop', { dataTransfer: files, bubbles: true, cancelable: true }));
              return true })()
            """)
        #expect(try browser.wait("!document.querySelector('#error').hidden"))
        #expect(
            try browser.eval("document.querySelector('#error').textContent") as? String
                == "broken.musicxml:1:28: unexpected end of file: expected </part-list>")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
                "amazing_grace.musicxml", "divisi.musicxml", "torn.musicxml",
            ])
        #expect(try browser.eval("document.querySelectorAll('#pieces li').length") as? Int == 2)

        // Search: the page finds what `choir library search` finds.
        let searches: [([String: String], [String])] = [
            (["text": "grace"], ["grace"]),
            (["voicing": "S"], ["--voicing", "S"]),
            (["part": "tenor", "lowest": "D3", "highest": "D4"], ["--part", "tenor", "--lowest", "D3", "--highest", "D4"]),
            (["part": "tenor", "lowest": "D3", "highest": "C4"], ["--part", "tenor", "--lowest", "D3", "--highest", "C4"]),
            (["part": "soprano", "highest": "E5"], ["--part", "soprano", "--highest", "E5"]),
        ]
        let expected = [["Amazing Grace"], ["divisi"], ["Amazing Grace"], [], ["Amazing Grace", "divisi"]]
        for ((fields, arguments), titles) in zip(searches, expected) {
            #expect(try Self.search(browser, fields) == titles, "\(fields)")
            #expect(try Self.searched(arguments, data: data) == titles, "\(arguments)")
        }
        _ = try Self.search(browser, ["part": "tenor", "lowest": "H2"])
        #expect(
            try browser.eval("document.querySelector('#error').textContent") as? String
                == "--lowest H2: expected a note such as D3, F#4 or B♭3")

        // Every control has a name, and Tab reaches each in order.
        #expect(try Self.unnamed(browser, "input, button") == 0)
        _ = try browser.eval("(() => { document.activeElement?.blur(); window.focus(); return true })()")
        var reached: [String] = []
        for _ in 0..<7 {
            try browser.key("Tab")
            reached.append(try browser.eval("document.activeElement.id || document.activeElement.textContent") as? String ?? "")
        }
        #expect(reached == ["files", "text", "voicing", "part", "lowest", "highest", "Search"], "\(reached)")
        // Nothing from elsewhere.
        #expect(
            try browser.eval("performance.getEntriesByType('resource').every((r) => r.name.startsWith(location.origin))") as? Bool == true)

        viewing.input.fileHandleForWriting.write(Data("\n".utf8))
        #expect(viewing.finish() == 0)
        // FOLDER's torn score was said in the reader's words; the studio served the rest.
        let said = String(decoding: viewing.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said == "choir: \(folder)/torn.musicxml:1:17: unexpected end of file: expected </score-partwise>\n", "\(said)")
        let printed = viewing.rest()
        #expect(
            printed.contains("1 score in the library: 1 added, 0 updated, 0 moved, 0 unchanged, 1 not scores choir can read"), "\(printed)")
    }

    /// The root-mean-square level of the mix the piece screen's "Download the mix" gives now, decoded by the browser.
    static func mixLevel(_ browser: Browser) throws -> Double { try mix(browser)[0] }

    /// The level and the length in seconds of the mix "Download the mix" gives now.
    static func mix(_ browser: Browser) throws -> [Double] {
        try #require(
            try browser.eval(
                """
                (async () => { const bytes = await (await fetch(document.querySelector('#download').href)).arrayBuffer();
                  const audio = await new OfflineAudioContext(2, 1, 48000).decodeAudioData(bytes);
                  let sum = 0, count = 0;
                  for (let c = 0; c < audio.numberOfChannels; c++) for (const x of audio.getChannelData(c)) { sum += x * x; count++; }
                  return [Math.sqrt(sum / count), audio.duration]; })()
                """) as? [Double])
    }

    /// The score view's page in the piece screen's frame.
    static let frame = "document.querySelector('#score').contentDocument"
    /// Whether the frame shows the session its `src` names, engraved: until that page has loaded, the frame still
    /// holds the one before.
    static let engraved = """
        (() => { const score = document.querySelector('#score'), page = score.contentDocument;
          return !!page && page.location.href === score.src && !!page.querySelector('#full svg')
            && (page.querySelector('#stage').dataset.engraving || '') !== ''; })()
        """

    /// The piece screen, with `--device none`: two lines chosen as mine are the session's (highlighted on their
    /// staves, the ball's), the Tenor's volume slider moved by keyboard changes its level in the rendered mix (to
    /// silence, then to half: linear gains), Play plays silently on the music's true time and Pause holds it, and a
    /// take chosen as a file is judged live on the engraved score with the report on it, the same accuracy the history
    /// keeps, which the piece's progress then lists; a click on a measure adds a mark to my line.
    @Test func aPieceIsMixedPlayedAndATakeJudgedFromThePage() throws {
        let (viewing, browser, data) = try Self.examplePiece(["--device", "none", "--input", "hw:99"])
        let named = try browser.eval(
            "['Tenor volume', 'Tenor instrument', 'Tenor is mine', 'Mute Tenor', 'Solo Tenor'].map((n) => document.querySelectorAll(`[aria-label=\"${n}\"]`).length)"
        )
        #expect(named as? [Int] == [1, 1, 1, 1, 1])
        // Every control of the piece has a name, and Tab walks a line's row in order.
        let unnamed = try browser.eval(
            """
            [...document.querySelectorAll('#piece input, #piece select, #piece button, #piece a')]
              .filter((e) => !(e.getAttribute('aria-label') || e.labels?.length || e.textContent.trim())).map((e) => e.outerHTML)
            """)
        #expect((unnamed as? [String])?.isEmpty == true, "\(String(describing: unnamed))")
        _ = try browser.eval("document.querySelector('[aria-label=\"Tenor is mine\"]').focus()")
        var walked: [String] = []
        for _ in 0..<4 {
            try browser.key("Tab")
            walked.append(try browser.eval("document.activeElement.getAttribute('aria-label')") as? String ?? "")
        }
        #expect(walked == ["Tenor volume", "Mute Tenor", "Solo Tenor", "Tenor instrument"], "\(walked)")
        #expect(try browser.eval("document.querySelector('[aria-label=\"Tenor instrument\"]').value") as? String == "Choir Aahs")
        #expect(try browser.wait("document.querySelector('#sessions tbody').textContent === 'No sessions yet.'"))

        // The mix: the tenor alone, then its slider to the bottom and up five pages, by keyboard.
        _ = try browser.eval("document.querySelector('[aria-label=\"Solo Tenor\"]').click()")
        let full = try Self.mixLevel(browser)
        _ = try browser.eval("document.querySelector('[aria-label=\"Tenor volume\"]').focus()")
        try browser.key("Home")
        #expect(try browser.eval("document.querySelector('[aria-label=\"Tenor volume\"]').value") as? String == "0")
        let silent = try Self.mixLevel(browser)
        for _ in 0..<5 { try browser.key("PageUp") }
        #expect(try browser.eval("document.querySelector('[aria-label=\"Tenor volume\"]').value") as? String == "50")
        let half = try Self.mixLevel(browser)
        print("studio: the tenor alone at 100, 0 and 50: RMS \(full), \(silent), \(half)")
        #expect(full > 0.01)
        #expect(silent < 1e-4)
        #expect(abs(half / full - 0.5) < 0.02, "\(half / full)")
        // A count-in adds a bar of clicks: 3 beats at ♩ = 80.
        let plain = try Self.mix(browser)[1]
        _ = try browser.eval("document.querySelector('#countin').click()")
        let counted = try Self.mix(browser)[1]
        #expect(abs(counted - plain - 2.25) < 0.01, "\(plain) s, with a count-in \(counted) s")
        _ = try browser.eval("document.querySelector('#countin').click()")
        _ = try browser.eval("document.querySelector('[aria-label=\"Solo Tenor\"]').click()")

        // Tenor and Bass as mine; Play, silently on the music's true time.
        for line in ["Tenor", "Bass"] { _ = try browser.eval("document.querySelector('[aria-label=\"\(line) is mine\"]').click()") }
        // The score shown when the piece opened was held at its start; Play plays anew.
        #expect(try browser.eval("document.querySelector('#session-state').textContent") as? String == "the score, held at its start")
        _ = try browser.eval("(() => { window.before = session; document.querySelector('#play').click(); return true })()")
        #expect(
            try browser.wait(
                "session !== window.before && \(Self.frame).location.pathname.endsWith(`/session/${session}/`) && /^m\\. \\d/.test(\(Self.frame).querySelector('#where')?.textContent ?? '')"
            ))
        let staves = try #require(
            try browser.eval(
                "[1, 2, 3, 4].map((n) => \(Self.frame).querySelectorAll(`g.staff[data-n=\"${n}\"] g.note.mine`).length)") as? [Int])
        #expect(staves[0] == 0 && staves[1] == 0 && staves[2] > 20 && staves[3] > 20, "\(staves)")
        // The session's page is engraved to its pane's width, as the score view is.
        #expect(
            try browser.wait(
                "(() => { const f = \(Self.frame), svg = f.querySelector('#stage svg'), pane = f.querySelector('#notation'); return f.querySelector('#stage').dataset.engraving && svg && svg.getBoundingClientRect().width >= 0.98 * pane.getBoundingClientRect().width; })()"
            ))
        let measure = "Number(\(Self.frame).querySelector('#where').textContent.match(/m\\. (\\d+)/)[1])"
        let first = try #require(try browser.eval(measure) as? Int)
        Thread.sleep(forTimeInterval: 4.5)
        // ♩ = 80 in 3/4: a measure every 2.25 s.
        let later = try #require(try browser.eval(measure) as? Int)
        #expect((first + 1...first + 3).contains(later), "m. \(first), then m. \(later) 4.5 s later")
        _ = try browser.eval("document.querySelector('#pause').click()")
        #expect(try browser.wait("(\(Self.frame).querySelector('#flags')?.textContent ?? '').includes('paused')"))
        let held = try browser.eval("\(Self.frame).querySelector('#where').textContent") as? String
        Thread.sleep(forTimeInterval: 1)
        #expect(try browser.eval("\(Self.frame).querySelector('#where').textContent") as? String == held)

        // Transposed down a tone at half tempo: the session's tempo, its notes two semitones lower.
        let written =
            try browser.eval(
                "fetch(\(Self.frame).location.href + 'score.json').then((r) => r.json()).then((s) => s.notes.map((n) => n.midi))") as? [Int]
        _ = try browser.eval("document.querySelector('#tempo').focus()")
        for _ in 0..<10 { try browser.key("ArrowLeft") }
        #expect(try browser.eval("document.querySelector('[aria-label=\"Tempo\"]').value") as? String == "50")
        _ = try browser.eval(
            "(() => { const t = document.querySelector('[aria-label=\"Transposition\"]'); t.value = '-2'; t.dispatchEvent(new Event('input', { bubbles: true })); return true })()"
        )
        _ = try browser.eval("document.querySelector('#play').click()")
        #expect(try browser.wait("(\(Self.frame).querySelector('#tempo')?.textContent ?? '').startsWith('♩ = 40')"))
        let transposed =
            try browser.eval(
                "fetch(\(Self.frame).location.href + 'score.json').then((r) => r.json()).then((s) => s.notes.map((n) => n.midi))") as? [Int]
        #expect(written?.isEmpty == false && transposed == written?.map { $0 - 2 })
        for _ in 0..<10 { try browser.key("ArrowRight") }
        _ = try browser.eval(
            "(() => { const t = document.querySelector('[aria-label=\"Transposition\"]'); t.value = '0'; t.dispatchEvent(new Event('input', { bubbles: true })); return true })()"
        )

        // The microphone is the engine's: one that is not there is said in one line on the page.
        _ = try browser.eval("document.querySelector('#take').click()")
        #expect(try browser.wait("!document.querySelector('#piece-error').hidden"))
        let microphone = try browser.eval("document.querySelector('#piece-error').textContent") as? String ?? ""
        #expect(microphone.contains("hw:99") && !microphone.contains("\n"), "\(microphone)")

        // A take from a file, of the tenor alone: judged on the score, the report there, kept in the history.
        _ = try browser.eval("document.querySelector('[aria-label=\"Bass is mine\"]').click()")
        try browser.choose("#take-file", files: [CLI.root.path + "/Resources/DemoTakes/amazing_grace_tenor.wav"])
        _ = try browser.eval(
            "(() => { window.before = session; window.asked = performance.now(); document.querySelector('#take').click(); return true })()")
        #expect(
            try browser.wait(
                "session !== window.before && \(Self.frame).location.pathname.endsWith(`/session/${session}/`) && \(Self.frame).querySelectorAll('g.note').length > 0",
                timeout: 30))
        let drawn = try browser.eval("performance.now() - window.asked") as? Double ?? -1
        print("studio: the take's engraved score (cached) drawn \(Int(drawn)) ms after Start take, polled every 50 ms")
        #expect(try browser.wait("!(\(Self.frame).querySelector('#report')?.hidden ?? true)", timeout: 30))
        #expect(try browser.eval("\(Self.frame).querySelectorAll('g.note.judged').length") as? Int ?? 0 > 20)
        let heading = try #require(try browser.eval("\(Self.frame).querySelector('#report h2').textContent") as? String)
        let history = try CLI.run(["history"], environment: ["XDG_DATA_HOME": data])
        let sessions = history.stdout.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
        #expect(sessions.count == 1, "\(history.stdout)")
        let accuracy = try #require(sessions.first?.split(separator: " ").first { $0.hasSuffix("%") })
        #expect(heading.hasPrefix("Accuracy \(accuracy) ("), "\(heading) \(history.stdout)")

        // The session in the piece's progress, as the history lists it.
        #expect(try browser.wait("document.querySelectorAll('#sessions tbody tr[data-session]').length === 1"))
        let row = try browser.eval("document.querySelector('#sessions tbody tr[data-session]').textContent") as? String ?? ""
        #expect(row.contains("Tenor") && row.contains("♩ = 80") && row.contains(" \(accuracy)"), "\(row)")

        // A mark, by a click on measure 5 of the score: for my line, kept as `choir mark add` keeps it.
        _ = try browser.eval("document.querySelector('#marking').click()")
        #expect(try browser.wait("!document.querySelector('#mark-form').hidden"))
        _ = try browser.eval(
            """
            fetch(\(Self.frame).location.href + 'score.json').then((r) => r.json()).then((setup) => {
              const id = setup.measures.find((m) => m.number === '5').id;
              \(Self.frame).getElementById(id).dispatchEvent(new MouseEvent('click', { bubbles: true })); return true })
            """)
        #expect(try browser.wait("document.querySelector('#mark-measure').value === '5'"))
        #expect(try browser.eval("document.activeElement.getAttribute('aria-label')") as? String == "Mark text")
        _ = try browser.eval("document.querySelector('#mark-text').value = \"breathe after 'grace'\"")
        _ = try browser.eval("document.querySelector('#mark-form button[type=submit]').click()")
        #expect(try browser.wait("document.querySelectorAll('#marks li[data-mark]').length === 1"))
        #expect(
            try browser.eval("document.querySelector('#marks li span').textContent") as? String == "m. 5 (Tenor): breathe after 'grace'")
        print(
            "studio: resident memory with the example open, played and a take judged: \(try Self.residentKiB(viewing.process.processIdentifier) / 1024) MiB"
        )
        let marks = try CLI.run(["mark", "list"], environment: ["XDG_DATA_HOME": data])
        #expect(marks.stdout == "Amazing Grace\n     1  m. 5    Tenor        breathe after 'grace'\n", "\(marks.stdout)")
        // By keyboard: the measure typed; one the score does not have is said in `choir mark add`'s words.
        _ = try browser.eval("document.querySelector('#marking').focus()")
        try browser.key("Enter")
        #expect(try browser.eval("document.activeElement.getAttribute('aria-label')") as? String == "Mark measure")
        for key in ["9", "9", "Tab", "x", "Enter"] { try browser.key(key) }
        #expect(try browser.wait("!document.querySelector('#piece-error').hidden"))
        #expect(
            try browser.eval("document.querySelector('#piece-error').textContent") as? String
                == "\(data)/scores/amazing_grace.musicxml: measure 99 is not in the score: expected 0–16")

        viewing.input.fileHandleForWriting.write(Data("\n".utf8))
        #expect(viewing.finish() == 0)
    }

    /// A take sung live from the page: the studio plays the mix with a count-in into one PulseAudio null sink while
    /// take-singer, hearing it, sings the demo take into the other, whose monitor is the studio's microphone. The
    /// notes are judged on the score as they are sung, the report comes on the score, and the session is in the
    /// piece's progress; at its end the studio says how long after the microphone the page showed what was sung.
    @Test func aTakeSungLiveIsJudgedOnThePage() throws {
        let server = try RealTimeTests.server()
        let (viewing, browser, data) = try Self.examplePiece(
            ["--device", "pulse:choir_test", "--input", "pulse:choir_mic.monitor", "--period", "512"], environment: server.environment)
        for control in ["Tenor is mine", "Count-in"] {
            _ = try browser.eval(
                "[...document.querySelectorAll('#piece input')].find((e) => e.getAttribute('aria-label') === '\(control)' || e.labels?.[0]?.textContent.trim() === '\(control)').click()"
            )
        }
        let take = CLI.root.path + "/Resources/DemoTakes/amazing_grace_tenor.wav"
        let (singer, sung, singerErr) = try RealTimeTests.startSinger(take: take, data: data, server: server)
        defer { if singer.isRunning { kill(singer.processIdentifier, SIGKILL) } }
        _ = try browser.eval("document.querySelector('#take').click()")
        #expect(try browser.wait("(\(Self.frame)?.querySelectorAll('g.note.judged').length ?? 0) > 3", timeout: 30))
        #expect(try browser.wait("!(\(Self.frame).querySelector('#report')?.hidden ?? true)", timeout: 90))
        let judged = try browser.eval("\(Self.frame).querySelectorAll('g.note.judged').length") as? Int ?? 0
        let heading = try browser.eval("\(Self.frame).querySelector('#report h2').textContent") as? String ?? ""
        #expect(try browser.wait("document.querySelectorAll('#sessions tbody tr[data-session]').length === 1"))
        singer.waitUntilExit()
        let sang = String(decoding: sung.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // The singer's own underruns (a loaded machine) are the test's, not choir's: said, not held against it.
        #expect(singer.terminationStatus == 0, "\(String(decoding: singerErr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
        // The same take judged from its file, as the terminal judges it.
        let file = try CLI.run(
            [
                "practice", CLI.example, "--part", "tenor", "--no-history", "--input", take, "--output", "none", "--report",
                data + "/file.json",
            ])
        let notes = try #require((try PracticeCommandTests.json(data + "/file.json")["notes"] as? [Any])?.count, "\(file.stderr)")
        print(
            "studio: the live take on the page: \(heading), \(judged) notes coloured; from the file, \(notes) notes judged; the singer: \(sang)"
        )
        #expect(judged >= notes * 9 / 10, "\(judged) of \(notes)")
        viewing.input.fileHandleForWriting.write(Data("\n".utf8))
        #expect(viewing.finish() == 0)
        let said = String(decoding: viewing.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        print(said)
        #expect(said.contains("choir: the studio showed what was sung "), "\(said)")
    }

    /// A folder that is not there is a one-line error (66), and the studio starts nothing.
    @Test func aMissingFolderIsAOneLineError() throws {
        let data = try PracticeCommandTests.dataHome()
        let result = try CLI.run(["studio", data + "/nowhere"], environment: ["XDG_DATA_HOME": data])
        #expect(result.status == 66)
        #expect(result.stdout == "")
        #expect(result.stderr == "choir: \(data)/nowhere: no such folder: expected a folder of scores\n")
    }

    /// The resident memory of process `pid`, in KiB.
    static func residentKiB(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return Int(line.split(separator: " ")[1]) ?? -1
    }
}
