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
        return (try ScoreViewTests.Viewing(["studio", folder], data: data, announced: announced), folder, data)
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
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["amazing_grace.musicxml", "divisi.musicxml"])
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
        let unnamed = try browser.eval(
            "[...document.querySelectorAll('input, button')].filter((e) => !(e.labels?.length || e.textContent.trim() || e.getAttribute('aria-label'))).length"
        )
        #expect(unnamed as? Int == 0)
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
