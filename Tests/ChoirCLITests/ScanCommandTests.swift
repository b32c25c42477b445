import ChoirScore
import Foundation
import Glibc
import Testing

/// `choir scan` against a chat-completions server on loopback that answers with recorded replies: the pages of the
/// example, rendered to a PDF (Tests/Fixtures/scan), read back as the example's MusicXML.
struct ScanCommandTests {
    static let key = "sk-test-3f9a1c77-do-not-print"
    static let model = "test/vision-model"
    static let pdf = CLI.fixtures.appendingPathComponent("scan/amazing-grace.pdf").path
    static let description = CLI.fixtures.appendingPathComponent("scan/description.txt").path
    static let example = CLI.root.appendingPathComponent(CLI.example).path

    /// The example as a model writes it: after a sentence, in a Markdown fence, with one place marked doubtful (the
    /// Soprano's measure 9).
    static func good(_ replace: [(String, String)] = []) -> ChatServer.Reply {
        ChatServer.file(
            example,
            replace: replace + [
                ("<measure number=\"9\">", "<measure number=\"9\">\n      <!-- doubtful: the tie into beat 1 is faint -->")
            ],
            before: "Here is the MusicXML for the two pages.\n\n```xml\n", after: "```\n", tokens: (12_000, 15_000), cost: 0.0731)
    }

    /// The Soprano's measure 5 a beat short: its half note written as a quarter.
    static let shortMeasure = [
        (
            "<duration>4</duration>\n        <voice>1</voice>\n        <type>half</type>\n        <lyric number=\"1\"><syllabic>single</syllabic><text>saved</text>",
            "<duration>2</duration>\n        <voice>1</voice>\n        <type>quarter</type>\n        <lyric number=\"1\"><syllabic>single</syllabic><text>saved</text>"
        )
    ]

    static var describing: ChatServer.Reply { ChatServer.file(description, tokens: (9_000, 800), cost: 0.0152) }

    /// A home for one test: the model's configuration file (mode `mode`) naming `server` with the key, and a data
    /// folder for the library.
    struct Home {
        var folder: String
        var config: String
        var environment: [String: String]

        init(_ server: ChatServer?, mode: mode_t = 0o600, config extra: String = "") throws {
            folder = NSTemporaryDirectory() + "choir-scan-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: folder + "/config/choir", withIntermediateDirectories: true)
            config = folder + "/config/choir/model.toml"
            var text = extra
            if let server {
                text += "endpoint = \"\(server.base)\"\nmodel = \"\(ScanCommandTests.model)\"\napi_key = \"\(ScanCommandTests.key)\"\n"
            }
            try text.write(toFile: config, atomically: false, encoding: .utf8)
            chmod(config, mode)
            environment = [
                "HOME": folder, "XDG_CONFIG_HOME": folder + "/config", "XDG_DATA_HOME": folder + "/data", "OPENROUTER_API_KEY": "",
            ]
        }

        /// The first page of the PDF as a photograph would be: a JPEG of 2829×4000 pixels (or as large as asked).
        func photo(_ longest: Int = 4000) throws -> String {
            let (status, output) = try runTool(
                "/usr/bin/pdftoppm",
                ["-jpeg", "-f", "1", "-l", "1", "-singlefile", "-scale-to", "\(longest)", ScanCommandTests.pdf, folder + "/photo"],
                environment: [:])
            try #require(status == 0, "\(output)")
            return folder + "/photo.jpg"
        }
    }

    /// The width and height in a PNG's header or a JPEG's frame header.
    static func imageSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), bytes.count >= 24 {
            func u32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
            return (u32(16), u32(20))
        }
        var at = 2
        while at + 9 < bytes.count, bytes[at] == 0xFF {
            let marker = bytes[at + 1]
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            if (0xC0...0xC2).contains(marker) {
                return (Int(bytes[at + 7]) << 8 | Int(bytes[at + 8]), Int(bytes[at + 5]) << 8 | Int(bytes[at + 6]))
            }
            at += 2 + length
        }
        return nil
    }

    /// The messages of a logged request: role and content (a string, or parts).
    static func messages(_ body: [String: Any]) -> [(role: String, content: Any)] {
        (body["messages"] as? [[String: Any]] ?? []).map { ($0["role"] as? String ?? "", $0["content"] as Any) }
    }

    /// The text of a message's content.
    static func text(_ content: Any) -> String {
        if let text = content as? String { return text }
        return (content as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }.joined(separator: "\n")
    }

    /// The images of a message's content, decoded from their data URLs.
    static func images(_ content: Any) throws -> [[UInt8]] {
        try (content as? [[String: Any]] ?? []).filter { $0["type"] as? String == "image_url" }.map { part in
            let url = try #require((part["image_url"] as? [String: Any])?["url"] as? String)
            let prefix = try #require(
                ["data:image/jpeg;base64,", "data:image/png;base64,"].first { url.hasPrefix($0) }, "\(url.prefix(40))")
            return Array(try #require(Data(base64Encoded: String(url.dropFirst(prefix.count)))))
        }
    }

    /// Nothing choir printed or wrote holds the key (or another `secret`).
    static func expectNoKey(_ texts: [String], files: [String], secret: String = key) throws {
        for text in texts { #expect(!text.contains(secret), "\(text)") }
        for file in files where FileManager.default.fileExists(atPath: file) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(file) holds \(secret)")
        }
    }

    /// Page `number` of the PDF rendered alone by pdftoppm, grey, `longest` pixels high, as choir renders its pages.
    static func pageAlone(_ number: Int, longest: Int = 2048, in folder: String) throws -> String {
        let (status, output) = try runTool(
            "/usr/bin/pdftoppm",
            [
                "-gray", "-png", "-f", "\(number)", "-l", "\(number)", "-singlefile", "-scale-to", "\(longest)", pdf,
                folder + "/page\(number)",
            ],
            environment: [:])
        try #require(status == 0, "\(output)")
        return folder + "/page\(number).png"
    }

    /// A photograph and a two-page PDF go as three images, in order, with the model and both prompts; the good score
    /// is written with its doubtful place marked, reads as the example, plays as it does, joins the library with its
    /// pages, and `choir info` shows the doubt. The key reaches the server and nothing else.
    @Test func goodScoreFromAPhotographAndATwoPagePDF() throws {
        let server = try ChatServer([Self.describing, Self.good()])
        let home = try Home(server)
        let photo = try home.photo()
        let output = home.folder + "/grace.musicxml"
        let scan = try CLI.run(["scan", photo, Self.pdf, "--part", "tenor", "-o", output], environment: home.environment)
        #expect(scan.status == 0, "\(scan.stderr)")

        let requests = try server.requests()
        try #require(requests.count == 2)
        for request in requests {
            #expect(request.path == "/v1/chat/completions")
            #expect(request.headers["authorization"] == "Bearer \(Self.key)")
            #expect(request.body["model"] as? String == Self.model)
        }
        // Pass 1: the system prompt, then the pages with what to describe.
        let first = Self.messages(requests[0].body)
        try #require(first.count == 2)
        #expect(first[0].role == "system" && Self.text(first[0].content).hasPrefix("You transcribe printed vocal and choral sheet music"))
        #expect(first[1].role == "user")
        let extract = Self.text(first[1].content)
        #expect(extract.hasPrefix("These 3 images are the pages, in order, of one piece."))
        #expect(extract.contains("Mark every place you cannot read with certainty with UNCLEAR"))
        #expect(extract.contains("The singer this is for sings the tenor line"))
        let images = try Self.images(first[1].content)
        let sizes = images.map(Self.imageSize)
        // The photograph (2829×4000) and both PDF pages (A4), each 2048 pixels high.
        #expect(sizes.count == 3)
        #expect(sizes[0]! == (1448, 2048))
        for size in sizes.dropFirst() {
            #expect(size!.height == 2048 && abs(Double(size!.width) / 2048 - 210 / 297) < 0.005, "\(size!)")
        }
        #expect(images[1] != images[2], "the PDF's two pages are different images")
        // Pass 2: the same pages, the model's description, and what to write.
        let second = Self.messages(requests[1].body)
        try #require(second.count == 4)
        #expect(try Self.images(second[1].content) == images)
        let described = try String(contentsOfFile: Self.description, encoding: .utf8)
        #expect(second[2].role == "assistant" && Self.text(second[2].content) == described)
        #expect(
            second[3].role == "user" && Self.text(second[3].content).hasPrefix("Now write the whole piece as one MusicXML 4.0 document"))

        // The file reads as the example, with choir's notes in it.
        let written = try ScoreReader.read(contentsOf: output)
        let original = try ScoreReader.read(contentsOf: Self.example)
        #expect(written.parts.map(\.notes) == original.parts.map(\.notes))
        #expect(written.parts.map(\.lyrics) == original.parts.map(\.lyrics))
        let file = try String(contentsOfFile: output, encoding: .utf8)
        #expect(
            file.hasPrefix(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- choir scan: made by a vision model (\(Self.model) at 127.0.0.1) from photo.jpg and amazing-grace.pdf (2 pages) on "
            ))
        #expect(
            file.contains("<measure number=\"9\">\n      <!-- choir scan: doubtful: the model is unsure: the tie into beat 1 is faint -->"))
        #expect(file.contains("<rights>Public domain</rights><encoding><software>choir 0.1.0 scan with \(Self.model)</software>"))
        #expect(!file.contains("```"))

        let date = try #require(file.firstRange(of: " on 20").map { String(file[$0.upperBound...].prefix(8)) }).map { "20" + $0 }
        #expect(
            scan.stdout == """
                Wrote \(output): Amazing Grace, 17 measures; Soprano, Alto, Tenor, Bass.
                It was made by a vision model (\(Self.model) at 127.0.0.1) from photo.jpg and amazing-grace.pdf (2 pages) on \(date!); it needs checking against the pages.
                Doubtful, by measure (marked in the file "choir scan: doubtful"):
                  m. 9 (Soprano): the model is unsure: the tie into beat 1 is faint
                Model: 2 requests: 21,000 tokens in, 15,800 out; cost $0.0883 as the server reports it.
                Added to the library, with its pages as its source.
                Practise it: choir practice \(output) --part Tenor

                """)
        #expect(scan.stderr.contains("Pass 1 of 2, describing 3 pages: asking \(Self.model)…\n"))
        #expect(scan.stderr.contains("Pass 2 of 2, writing MusicXML: asking \(Self.model)…\n"))

        let info = try CLI.run(["info", output], environment: home.environment)
        #expect(info.status == 0)
        #expect(
            info.stdout.contains(
                "  Scanned   made by a vision model (\(Self.model) at 127.0.0.1) from photo.jpg and amazing-grace.pdf (2 pages)"))
        #expect(info.stdout.contains("  Doubtful  m. 9 (Soprano): the model is unsure: the tie into beat 1 is faint\n"))

        let library = try CLI.run(["library", "list", "--json"], environment: home.environment)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(library.stdout.utf8)) as? [[String: Any]])
        let source = try #require(entries.first?["source"] as? [String: Any])
        #expect(source["pages"] as? [String] == [photo, Self.pdf])
        #expect(source["made"] as? String == "by \(Self.model) at 127.0.0.1 on \(date!)")
        // The source stays with the score when it is edited, and when it moves.
        try (file + "<!-- edited -->\n").write(toFile: output, atomically: true, encoding: .utf8)
        let moved = home.folder + "/Amazing Grace.musicxml"
        #expect(try CLI.run(["library", "add", output], environment: home.environment).stdout.hasPrefix("updated    \(output)\n"))
        try FileManager.default.moveItem(atPath: output, toPath: moved)
        #expect(
            try CLI.run(["library", "add", moved], environment: home.environment).stdout.hasPrefix("moved      \(moved) (was \(output))\n"))
        let listed = try CLI.run(["library", "list"], environment: home.environment).stdout
        #expect(
            listed.contains("  \(moved)\n  scanned by \(Self.model) at 127.0.0.1 on \(date!) from \(photo), \(Self.pdf)\n"), "\(listed)")
        try FileManager.default.moveItem(atPath: moved, toPath: output)

        // It plays: rendered, it is the example's mix to the sample.
        let mine = home.folder + "/scanned.wav", theirs = home.folder + "/example.wav"
        #expect(try CLI.run(["render", output, "-o", mine], environment: home.environment).status == 0)
        #expect(try CLI.run(["render", Self.example, "-o", theirs], environment: home.environment).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: mine)) == Data(contentsOf: URL(fileURLWithPath: theirs)))

        try Self.expectNoKey(
            [scan.stdout, scan.stderr, info.stdout, library.stdout], files: [output, home.folder + "/data/choir/history.sqlite"])
    }

    /// A measure a beat short goes back to the model with what is wrong, and the repaired score is written without
    /// the doubt; one that stays short is sent back twice, no more, and is then listed and marked in the file.
    @Test func aShortMeasureIsRepairedAtMostTwice() throws {
        let problem = "m. 5 (Soprano): this part's notes and rests add up to 2 quarter notes where 3/4 needs 3 quarter notes"
        let server = try ChatServer([Self.describing, Self.good(Self.shortMeasure), Self.good()])
        let home = try Home(server)
        let output = home.folder + "/grace.musicxml"
        let repaired = try CLI.run(["scan", Self.pdf, "-o", output], environment: home.environment)
        #expect(repaired.status == 0, "\(repaired.stderr)")
        var requests = try server.requests()
        try #require(requests.count == 3)
        var repair = Self.messages(requests[2].body)
        try #require(repair.count == 6)
        #expect(
            repair[4].role == "assistant"
                && Self.text(repair[4].content).contains(
                    "<type>quarter</type>\n        <lyric number=\"1\"><syllabic>single</syllabic><text>saved</text>")
        )
        #expect(Self.text(repair[5].content).hasPrefix("choir's MusicXML reader found these problems in your MusicXML:\n- \(problem)\n"))
        #expect(repaired.stderr.contains("Repair 1 of at most 2, 1 problem (\(problem)): asking \(Self.model)…\n"))
        #expect(!repaired.stdout.contains("m. 5") && repaired.stdout.contains("Repair passes: 1 of at most 2.\n"))
        #expect(
            try ScoreReader.read(contentsOf: output).parts.map(\.notes)
                == (try ScoreReader.read(contentsOf: Self.example)).parts.map(\.notes))

        let stubborn = try ChatServer([Self.describing] + Array(repeating: Self.good(Self.shortMeasure), count: 3))
        let again = try Home(stubborn)
        let kept = try CLI.run(["scan", Self.pdf, "-o", output], environment: again.environment)
        #expect(kept.status == 0, "\(kept.stderr)")
        requests = try stubborn.requests()
        #expect(requests.count == 4)
        repair = Self.messages(requests[3].body)
        #expect(repair.count == 8 && Self.text(repair[7].content).contains("- \(problem)\n"))
        #expect(
            kept.stdout.contains(
                "Doubtful, by measure (marked in the file \"choir scan: doubtful\"):\n  \(problem)\n  m. 9 (Soprano): the model is unsure"))
        #expect(kept.stdout.contains("Repair passes: 2 of at most 2.\n"))
        let file = try String(contentsOfFile: output, encoding: .utf8)
        #expect(
            file.contains(
                "<measure number=\"5\">\n      <!-- choir scan: doubtful: this part's notes and rests add up to 2 quarter notes where 3/4 needs 3 quarter notes -->\n      <note>"
            ))
        let info = try CLI.run(["info", output], environment: again.environment)
        #expect(
            info.stdout.contains("  Doubtful  \(problem)\n            m. 9 (Soprano): the model is unsure: the tie into beat 1 is faint\n"))
    }

    /// MusicXML that does not read goes back with the reader's error (file:line:column and the line), and the repaired
    /// score is written; a reply that never reads ends the scan with that error, status 65, and is kept beside the
    /// output, which is not written.
    @Test func invalidXMLGoesBackWithItsError() throws {
        let broken = [("</pitch>", "</pich>")]
        let line =
            try String(contentsOfFile: Self.example, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.contains("</pitch>") }! + 1
        let error = "grace.musicxml:\(line):48: expected </pitch> but found </pich>"
        let server = try ChatServer([Self.describing, Self.good(broken), Self.good()])
        let home = try Home(server)
        let output = home.folder + "/grace.musicxml"
        let repaired = try CLI.run(["scan", Self.pdf, "-o", output], environment: home.environment, directory: home.folder)
        #expect(repaired.status == 0, "\(repaired.stderr)")
        let requests = try server.requests()
        try #require(requests.count == 3)
        let repair = Self.text(Self.messages(requests[2].body)[5].content)
        #expect(repair.contains("- \(error) (line \(line): <pitch><step>D</step><octave>4</octave></pich>)\n"), "\(repair)")
        #expect(
            try ScoreReader.read(contentsOf: output).parts.map(\.notes)
                == (try ScoreReader.read(contentsOf: Self.example)).parts.map(\.notes))

        let never = try ChatServer([Self.describing] + Array(repeating: Self.good(broken), count: 3))
        let again = try Home(never)
        try FileManager.default.removeItem(atPath: output)
        let failed = try CLI.run(["scan", Self.pdf, "-o", "grace.musicxml"], environment: again.environment, directory: home.folder)
        #expect(failed.status == 65)
        #expect(try never.requests().count == 4)
        #expect(
            failed.stderr.hasSuffix(
                "choir: the model's MusicXML does not read after 2 repair passes: \(error) (line \(line): <pitch><step>D</step><octave>4</octave></pich>); "
                    + "its last reply is kept in grace.musicxml.rejected\n"))
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try String(contentsOfFile: output + ".rejected", encoding: .utf8).contains("</pich>"))
    }

    /// A server too busy (429) is asked again after the pause it asks for, and the scan goes on.
    @Test func aBusyServerIsAskedAgain() throws {
        let server = try ChatServer([
            ChatServer.error(429, "Rate limit exceeded", headers: ["Retry-After": "1"]), Self.describing, Self.good(),
        ])
        let home = try Home(server)
        let output = home.folder + "/grace.musicxml"
        let scan = try CLI.run(["scan", Self.pdf, "-o", output], environment: home.environment)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(try server.requests().count == 3)
        #expect(scan.stderr.contains("choir: \(server.base) answered 429 Too Many Requests: trying again in 1 s (1 of 3)\n"))
        #expect(scan.stdout.contains("Model: 2 requests: 21,000 tokens in, 15,800 out; cost $0.0883 as the server reports it.\n"))
    }

    /// Refusals (401, 402, 404) end the scan at once, and a server still failing after three retries (5xx) ends it
    /// then, with one line that says what to do and a status scripts can tell apart; nothing is written, and the key
    /// is not in the line even when the server quotes it.
    @Test func refusalsAreOneLineErrors() throws {
        let failing = ChatServer.error(503, "Provider overloaded", headers: ["Retry-After": "0"])
        let cases: [([ChatServer.Reply], Int32, (ChatServer, Home) -> String)] = [
            (
                [ChatServer.error(401, "Invalid key \(Self.key)")], 77,
                { server, home in "choir: \(server.base) refused the key (401 Unauthorized): check \(home.config)\n" }
            ),
            (
                [ChatServer.error(402, "Insufficient credits")], 77,
                { server, _ in
                    "choir: \(server.base) has no credit left for this request (402 Payment Required): the server says \"Insufficient credits\": "
                        + "check the account's credit\n"
                }
            ),
            (
                [ChatServer.error(404, "No endpoints found for \(Self.model)")], 64,
                { server, _ in
                    "choir: \(server.base) has no model '\(Self.model)' or no chat-completions API at \(server.base)/chat/completions (404 Not Found): "
                        + "the server says \"No endpoints found for \(Self.model)\": check --model, and --endpoint, the API's base ending in /v1 or /api/v1\n"
                }
            ),
            (
                // OpenRouter's way of saying a refusal after the headers went: 200, with the status in the body.
                [["status": 200, "body": ["error": ["message": "User not found.", "code": 401]]]], 77,
                { server, home in "choir: \(server.base) refused the key (401 Unauthorized): check \(home.config)\n" }
            ),
            (
                Array(repeating: failing, count: 4), 75,
                { server, _ in
                    "choir: \(server.base) failed (503 Service Unavailable) after 3 retries: the server says \"Provider overloaded\": try again later, "
                        + "or another --model\n"
                }
            ),
        ]
        for (replies, status, message) in cases {
            let server = try ChatServer(replies)
            let home = try Home(server)
            let output = home.folder + "/grace.musicxml"
            let scan = try CLI.run(["scan", Self.pdf, "-o", output], environment: home.environment)
            #expect(scan.status == status)
            // After the lines saying the first pass started, and any retries.
            #expect(scan.stderr.split(separator: "\n").last.map { $0 + "\n" } == message(server, home), "\(scan.stderr)")
            #expect(try server.requests().count == replies.count)
            #expect(!FileManager.default.fileExists(atPath: output))
            try Self.expectNoKey([scan.stdout, scan.stderr], files: [])
        }
    }

    /// A server that does not answer within --timeout ends the scan after that long, without asking again (it may
    /// still be writing, and charging).
    @Test func aSilentServerTimesOut() throws {
        let server = try ChatServer([["sleep": 6, "text": "too late"]])
        let home = try Home(server)
        // A small page, quick to prepare, so that the time taken is the wait.
        let page = try home.photo(300)
        let started = Date()
        let scan = try CLI.run(["scan", page, "-o", home.folder + "/grace.musicxml", "--timeout", "1"], environment: home.environment)
        let took = Date().timeIntervalSince(started)
        #expect(scan.status == 75)
        #expect(scan.stderr.hasSuffix("…\nchoir: no answer from \(server.base) within 1 s: try again, or a longer --timeout\n"))
        #expect(try server.requests().count == 1)
        // Neither the score nor a file half-made for it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.folder).sorted() == ["config", "photo.jpg"])
        // Well before the server's answer at 6 s.
        #expect(took < 4, "\(took) s")
    }

    /// Pages whose names are not UTF-8 (Latin-1's â and é), a PDF (so named to pdftoppm too) and a photograph, are read
    /// under exactly those names and shown by them.
    @Test func pagesNamedInLatin1AreRead() throws {
        let server = try ChatServer([])
        let home = try Home(server)
        let pdf = Array((home.folder + "/p").utf8) + [0xE2] + Array("ges.pdf".utf8)
        let photo = Array((home.folder + "/ph").utf8) + [0xE9] + Array("to.jpg".utf8)
        try PracticeCommandTests.copy(URL(fileURLWithPath: Self.pdf), to: pdf)
        try PracticeCommandTests.copy(URL(fileURLWithPath: try home.photo(1000)), to: photo)
        let dry = try PracticeCommandTests.run([Array("scan".utf8), pdf, photo, Array("--dry-run".utf8)], environment: home.environment)
        #expect(dry.status == 0, "\(String(decoding: dry.stderr, as: UTF8.self))")
        for shown in [
            Array("p".utf8) + [0xE2] + Array("ges.pdf page 1, 1448×2048 PNG".utf8),
            Array("p".utf8) + [0xE2] + Array("ges.pdf page 2, ".utf8),
            Array("ph".utf8) + [0xE9] + Array("to.jpg, 707×1000 ".utf8),
        ] {
            #expect(dry.stdout.firstRange(of: Array("  [image: ".utf8) + shown) != nil, "\(String(decoding: dry.stdout, as: UTF8.self))")
        }
        #expect(try server.requests().isEmpty)
    }

    /// --dry-run shows the requests, the key named but not shown, and sends nothing; the options and the configuration
    /// are checked before anything is sent.
    @Test func dryRunAndRefusalsBeforeSending() throws {
        let server = try ChatServer([])
        let home = try Home(server)
        let dry = try CLI.run(["scan", Self.pdf, "--part", "alto", "--dry-run"], environment: home.environment)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(
            dry.stdout.hasPrefix(
                """
                Pass 1, describing the pages:
                POST \(server.base)/chat/completions
                Authorization: Bearer <the key from \(home.config), not shown>
                """))
        #expect(dry.stdout.contains("model: \(Self.model)\nsystem:\n  You transcribe printed vocal"))
        #expect(dry.stdout.contains("  [image: amazing-grace.pdf page 1, 1448×2048 PNG; a data URL of "))
        #expect(dry.stdout.contains("  [image: amazing-grace.pdf page 2, 1448×2048 PNG; a data URL of "))
        #expect(dry.stdout.contains("  The singer this is for sings the alto line: take particular care with it.\n"))
        #expect(
            dry.stdout.contains("Pass 2 sends the conversation so far, the model's description, and:\nuser:\n  Now write the whole piece"))
        #expect(dry.stdout.hasSuffix("Nothing was sent (--dry-run).\n"))

        // OpenRouter's key from the environment, named and not shown.
        var openRouter = try Home(nil)
        openRouter.environment["OPENROUTER_API_KEY"] = Self.key
        let toOpenRouter = try CLI.run(["scan", Self.pdf, "--dry-run"], environment: openRouter.environment)
        #expect(
            toOpenRouter.stdout.contains(
                "POST https://openrouter.ai/api/v1/chat/completions\nAuthorization: Bearer <the key from OPENROUTER_API_KEY, not shown>\n"))
        #expect(toOpenRouter.stdout.contains("model: google/gemini-2.5-pro\n"))

        let keyless = try Home(nil)
        let plain = try Home(nil, config: "endpoint = \"http://example.com/v1\"\napi_key = \"\(Self.key)\"\n")
        let refusals: [([String], [String: String], Int32, String)] = [
            (
                ["scan", home.folder + "/missing.jpg", "-o", "x.musicxml"], home.environment, 66,
                "choir: \(home.folder)/missing.jpg: no such file: expected a photograph (JPEG, PNG) or a PDF of the pages\n"
            ),
            (
                ["scan", Self.description, "-o", "x.musicxml"], home.environment, 65,
                "choir: \(Self.description): not a JPEG, PNG or PDF: expected a photograph or a PDF of the pages\n"
            ),
            (
                ["scan", Self.pdf, "-o", "x.musicxml"], keyless.environment, 78,
                "choir: no key for OpenRouter: set OPENROUTER_API_KEY, or api_key in \(keyless.config) (mode 0600); or name another server "
                    + "with --endpoint\n"
            ),
            (
                ["scan", Self.pdf, "-o", "x.musicxml"], plain.environment, 78,
                "choir: http://example.com/v1: a key is not sent over plain HTTP to another machine: expected an https:// address\n"
            ),
            (["scan", Self.pdf, "-o", "x.mxl"], home.environment, 64, "Error: -o x.mxl: expected a file ending in .musicxml or .xml\n"),
            (
                ["scan", Self.pdf, "-o", "/nonexistent/x.musicxml"], home.environment, 73,
                "choir: /nonexistent/x.musicxml: cannot be written (No such file or directory): expected a writable path\n"
            ),
        ]
        for (arguments, environment, status, message) in refusals {
            let run = try CLI.run(arguments, environment: environment, directory: home.folder)
            #expect(run.status == status, "\(arguments)")
            #expect(run.stderr.hasPrefix(message), "\(run.stderr)")
        }
        let unsafe = try Home(server, mode: 0o644)
        let refused = try CLI.run(["scan", Self.pdf, "-o", unsafe.folder + "/x.musicxml"], environment: unsafe.environment)
        #expect(refused.status == 78)
        #expect(
            refused.stderr
                == "choir: \(unsafe.config) may be read by others (mode 0644): it holds a key, so it must be mode 0600 (chmod 600 \(unsafe.config))\n"
        )
        #expect(try server.requests().isEmpty)
        try Self.expectNoKey([dry.stdout, dry.stderr, toOpenRouter.stdout, toOpenRouter.stderr, refused.stderr], files: [])
    }

    /// A user and password in the address (`http://user:password@host/v1`, in model.toml or given with --endpoint) go
    /// with the request, as HTTP's basic authentication, and nowhere else: every message shows them as "***", a
    /// server's message that quotes them has them blanked, and the file and the library keep the host alone.
    @Test func aPasswordInTheAddressIsNeverShown() throws {
        let password = "pw-7d1e-not-to-print"
        func address(_ port: Int, host: String = "127.0.0.1") -> String { "http://usr-41c9:\(password)@\(host):\(port)/v1" }
        func shown(_ port: Int, host: String = "127.0.0.1") -> String { "http://***@\(host):\(port)/v1" }

        let server = try ChatServer([
            ChatServer.error(503, "Provider overloaded", headers: ["Retry-After": "0"]), Self.describing, Self.good(),
        ])
        let home = try Home(nil, config: "endpoint = \"\(address(server.port))\"\nmodel = \"\(Self.model)\"\n")
        let output = home.folder + "/grace.musicxml"
        let scan = try CLI.run(["scan", Self.pdf, "-o", output], environment: home.environment)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.stderr.contains("choir: \(shown(server.port)) answered 503 Service Unavailable: trying again in 0 s (1 of 3)\n"))
        #expect(scan.stdout.contains("It was made by a vision model (\(Self.model) at 127.0.0.1) from amazing-grace.pdf (2 pages) on "))
        let requests = try server.requests()
        #expect(requests.count == 3)
        let basic = "Basic " + Data("usr-41c9:\(password)".utf8).base64EncodedString()
        #expect(requests.allSatisfy { $0.path == "/v1/chat/completions" && $0.headers["authorization"] == basic })
        let library = try CLI.run(["library", "list"], environment: home.environment)
        #expect(library.stdout.contains("  scanned by \(Self.model) at 127.0.0.1 on "), "\(library.stdout)")
        let dry = try CLI.run(["scan", Self.pdf, "--dry-run"], environment: home.environment)
        #expect(
            dry.stdout.hasPrefix(
                "Pass 1, describing the pages:\nPOST \(shown(server.port))/chat/completions\nAuthorization: (none: no key for this server)\n"
            ))
        var printed = [scan.stdout, scan.stderr, library.stdout, dry.stdout, dry.stderr]

        // No such model (the server's message quoting the user and password), nothing listening, an address that is
        // not one, a key over plain HTTP to another machine.
        let missing = try ChatServer([ChatServer.error(404, "No endpoints found for \(Self.model) (user usr-41c9:\(password))")])
        let plain = try Home(nil, config: "endpoint = \"\(address(8080, host: "example.com"))\"\napi_key = \"\(Self.key)\"\n")
        let failures: [(arguments: [String], environment: [String: String], status: Int32, line: String)] = [
            (
                ["--endpoint", address(missing.port)], home.environment, 64,
                "choir: \(shown(missing.port)) has no model '\(Self.model)' or no chat-completions API at \(shown(missing.port))/chat/completions "
                    + "(404 Not Found): the server says \"No endpoints found for \(Self.model) (user ***)\": check --model, and --endpoint, the "
                    + "API's base ending in /v1 or /api/v1\n"
            ),
            (["--endpoint", address(9)], home.environment, 69, "choir: cannot reach \(shown(9)): "),
            (
                ["--endpoint", "ftp://usr-41c9:\(password)@127.0.0.1/v1"], home.environment, 78,
                "choir: --endpoint ftp://***@127.0.0.1/v1: expected the API's base address, http(s)://…/v1\n"
            ),
            (
                [], plain.environment, 78,
                "choir: \(shown(8080, host: "example.com")): a key is not sent over plain HTTP to another machine: expected an https:// address\n"
            ),
        ]
        for failure in failures {
            let run = try CLI.run(
                ["scan", Self.pdf, "-o", home.folder + "/x.musicxml"] + failure.arguments, environment: failure.environment)
            #expect(run.status == failure.status, "\(failure.arguments)")
            let last = run.stderr.split(separator: "\n").last.map { $0 + "\n" } ?? ""
            #expect(failure.line.hasSuffix("\n") ? last == failure.line : last.hasPrefix(failure.line), "\(run.stderr)")
            printed += [run.stdout, run.stderr]
        }
        #expect(try missing.requests().count == 1)
        let history = home.folder + "/data/choir/history.sqlite"
        try Self.expectNoKey(printed, files: [output, history, history + "-wal"], secret: password)
        try Self.expectNoKey(printed, files: [output, history, history + "-wal"], secret: "usr-41c9")
    }

    /// A server failing (500, then 502) without saying when to come back is asked again after 1 s, then 2 s, and the
    /// scan goes on.
    @Test func aFailingServerIsAskedAgainAfterLongerPauses() throws {
        let server = try ChatServer([
            ChatServer.error(500, "Internal error"), ChatServer.error(502, "Upstream error"), Self.describing, Self.good(),
        ])
        let home = try Home(server)
        let started = Date()
        let scan = try CLI.run(["scan", Self.pdf, "-o", home.folder + "/grace.musicxml"], environment: home.environment)
        let took = Date().timeIntervalSince(started)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(try server.requests().count == 4)
        #expect(
            scan.stderr.contains(
                "choir: \(server.base) answered 500 Internal Server Error: trying again in 1 s (1 of 3)\n"
                    + "choir: \(server.base) answered 502 Bad Gateway: trying again in 2 s (2 of 3)\n"), "\(scan.stderr)")
        #expect(took >= 3, "the pauses were \(took) s in all")
    }

    /// A server that asks for a longer pause than choir waits (Retry-After over 60 s: a quota spent for the hour) is
    /// not waited for or asked again: the scan ends at once, saying how long the server asked for, with status 75.
    @Test func aLongRetryAfterEndsTheScan() throws {
        let server = try ChatServer([
            ChatServer.error(429, "Rate limit exceeded: free-models-per-day", headers: ["Retry-After": "3600"]), Self.describing,
        ])
        let home = try Home(server)
        let output = home.folder + "/grace.musicxml"
        let started = Date()
        let scan = try CLI.run(["scan", Self.pdf, "-o", output], environment: home.environment)
        let took = Date().timeIntervalSince(started)
        #expect(scan.status == 75)
        #expect(
            scan.stderr.split(separator: "\n").last.map { $0 + "\n" }
                == "choir: \(server.base) answered 429 Too Many Requests and asks for a pause of 3600 s before the next request "
                + "(Retry-After), longer than choir waits (60 s): the server says \"Rate limit exceeded: free-models-per-day\": try again then\n",
            "\(scan.stderr)")
        #expect(try server.requests().count == 1)
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(took < 10, "\(took) s")
    }

    /// A connection that breaks before the answer is made again after 1 s, and the scan goes on.
    @Test func aDroppedConnectionIsMadeAgain() throws {
        let server = try ChatServer([ChatServer.dropped, Self.describing, Self.good()])
        let home = try Home(server)
        let scan = try CLI.run(["scan", Self.pdf, "-o", home.folder + "/grace.musicxml"], environment: home.environment)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(try server.requests().count == 3)
        #expect(scan.stderr.contains("choir: \(server.base) dropped the connection: trying again in 1 s (1 of 3)\n"), "\(scan.stderr)")
    }

    /// MusicXML cut off at the model's output limit (finish_reason "length") is not sent back for repair: the scan
    /// ends with one line that says what to do, status 65, and the reply's MusicXML is kept beside the output, which
    /// is not written.
    @Test func aCutOffReplyEndsTheScanAndIsKept() throws {
        let example = try String(contentsOfFile: Self.example, encoding: .utf8)
        let cut = String(example.prefix(example.count / 2))
        let server = try ChatServer([
            Self.describing, ChatServer.text("Here is the MusicXML.\n\n```xml\n" + cut, tokens: (12_000, 8_192), finish: "length"),
        ])
        let home = try Home(server)
        let output = home.folder + "/grace.musicxml"
        let scan = try CLI.run(["scan", Self.pdf, "-o", output], environment: home.environment)
        #expect(scan.status == 65)
        #expect(scan.stderr.contains(", 12,000 tokens in, 8,192 out, stopped at the model's output limit\n"), "\(scan.stderr)")
        #expect(
            scan.stderr.split(separator: "\n").last.map { $0 + "\n" }
                == "choir: the model stopped at its output limit before its MusicXML ended: give a higher --max-tokens if the model "
                + "allows it, or scan fewer pages at a time; its last reply is kept in \(output).rejected\n", "\(scan.stderr)")
        #expect(try server.requests().count == 2)
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try String(contentsOfFile: output + ".rejected", encoding: .utf8) == cut + "\n")
    }

    /// --endpoint and --model on the command line win over the configuration file's: the requests go to that base's
    /// /chat/completions (a trailing slash or not) with that model and --max-tokens, and no key goes with them, neither
    /// OPENROUTER_API_KEY nor the key the file gives for its own server.
    @Test func theCommandLineNamesTheServerAndTheModel() throws {
        let server = try ChatServer([Self.describing, Self.good()])
        let configured = try ChatServer([])
        var home = try Home(configured)
        home.environment["OPENROUTER_API_KEY"] = Self.key
        let output = home.folder + "/grace.musicxml"
        let scan = try CLI.run(
            ["scan", Self.pdf, "-o", output, "--endpoint", server.base + "/", "--model", "local/vision", "--max-tokens", "32000"],
            environment: home.environment)
        #expect(scan.status == 0, "\(scan.stderr)")
        let requests = try server.requests()
        #expect(requests.count == 2)
        for request in requests {
            #expect(request.path == "/v1/chat/completions")
            #expect(request.body["model"] as? String == "local/vision" && request.body["max_tokens"] as? Int == 32000)
            #expect(request.headers["authorization"] == nil)
        }
        #expect(try configured.requests().isEmpty)
        #expect(scan.stdout.contains("It was made by a vision model (local/vision at 127.0.0.1) from amazing-grace.pdf (2 pages) on "))
    }

    /// A PDF's pages go in order: the first image sent is page 1 as pdftoppm renders it alone, the second page 2 (each
    /// page rendered alone goes too, after the PDF and in the other order, to compare with).
    @Test func aPDFsPagesGoInOrder() throws {
        let server = try ChatServer([ChatServer.error(401, "Invalid key")])
        let home = try Home(server)
        let alone = [try Self.pageAlone(2, in: home.folder), try Self.pageAlone(1, in: home.folder)]
        let scan = try CLI.run(["scan", Self.pdf] + alone + ["-o", home.folder + "/grace.musicxml"], environment: home.environment)
        #expect(scan.status == 77, "\(scan.stderr)")
        let requests = try server.requests()
        try #require(requests.count == 1)
        let images = try Self.images(try #require(Self.messages(requests[0].body).last).content)
        try #require(images.count == 4)
        // Compared as one Bool each: a failing comparison of two images would have the test library diff their bytes.
        let (differ, first, second) = (images[0] != images[1], images[0] == images[3], images[1] == images[2])
        #expect(differ, "the PDF's pages are different images")
        #expect(first, "the PDF's first image is its page 1")
        #expect(second, "the PDF's second image is its page 2")
    }

    /// With a server and keys configured, `info`, `notes`, `render`, `practice --input` and the rule-based `coach`
    /// send nothing; `coach --model` then asks that server, which was there to be asked all along.
    @Test func nothingIsSentUnlessAsked() throws {
        let server = try ChatServer([ChatServer.text("Keep the held notes up.")])
        var home = try Home(server)
        home.environment["OPENROUTER_API_KEY"] = Self.key
        let runs: [[String]] = [
            ["info", CLI.example], ["notes", CLI.example, "--part", "tenor"], ["render", CLI.example, "-o", home.folder + "/mix.wav"],
            ["practice", CLI.example, "--part", "tenor", "--input", PracticeCommandTests.take, "--output", "none"],
            ["coach", CLI.example, "--part", "tenor"],
        ]
        for arguments in runs {
            let run = try CLI.run(arguments, environment: home.environment)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(try server.requests().isEmpty, "\(arguments[0]) sent a request")
        }
        let asked = try CLI.run(["coach", CLI.example, "--part", "tenor", "--model", Self.model], environment: home.environment)
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(asked.stdout.contains("1 session, in the words of \(Self.model) (from the figures alone):\n  Keep the held notes up.\n"))
        #expect(try server.requests().count == 1)
    }
}
