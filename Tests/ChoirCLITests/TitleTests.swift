import Foundation
import Testing

/// A piece is called the same in every command: its work title, else its movement title, else its credits' title,
/// else its file's name.
struct TitleTests {
    /// The example in `folder` as `file`, its work title replaced by `header`.
    static func example(_ header: String, in folder: String, as file: String) throws -> String {
        let path = folder + "/" + file
        try String(contentsOfFile: CLI.root.appendingPathComponent(CLI.example).path, encoding: .utf8)
            .replacingOccurrences(of: "<work><work-title>Amazing Grace</work-title></work>", with: header)
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(arguments: [
        ("<movement-title>New Britain</movement-title>", "New Britain"),
        ("<credit page=\"1\"><credit-words font-size=\"18\">Grace Abounding</credit-words></credit>", "Grace Abounding"),
        ("<work><work-title>hymn.musicxml</work-title></work>", "hymn"),
    ])
    func everyCommandCallsThePieceTheSame(header: String, title: String) throws {
        let data = try PracticeCommandTests.dataHome()
        let environment = ["XDG_DATA_HOME": data]
        let score = try Self.example(header, in: data, as: "hymn.musicxml")
        let info = try CLI.run(["info", score])
        #expect(info.stdout.hasPrefix("\(score)\n  Title     \(title)\n"), "\(info.stdout)")
        let json = try JSONSerialization.jsonObject(with: Data(try CLI.run(["info", score, "--json"]).stdout.utf8)) as? [String: Any]
        #expect(json?["title"] as? String == title)
        let added = try CLI.run(["library", "add", score], environment: environment)
        #expect(added.status == 0)
        #expect(try CLI.run(["library", "list"], environment: environment).stdout.hasPrefix(title + " — Traditional (New Britain)\n"))
        #expect(try CLI.run(["plan", "new", "P"], environment: environment).status == 0)
        let item = try CLI.run(["plan", "add", "P", score, "--part", "T"], environment: environment)
        #expect(item.stdout == "'P', item 1: \(title) — Tenor, whole piece\n", "\(item.stderr)")
        let html = data + "/report.html"
        let session = try CLI.run(
            ["practice", score, "--part", "T", "--input", PracticeCommandTests.take, "--output", "none", "--html", html],
            environment: environment)
        #expect(session.status == 0, "\(session.stderr)")
        // The report is headed by the piece; its commands to copy name the file.
        #expect(session.stdout.hasPrefix("\(title) — Tenor, ♩ = 80\nAccuracy: "), "\(session.stdout)")
        #expect(session.stdout.contains("choir practice \(score) --part Tenor "), "\(session.stdout)")
        #expect(try CLI.run(["report", "1"], environment: environment).stdout.hasPrefix("\(title) — Tenor, ♩ = 80\nAccuracy: "))
        #expect(try String(contentsOfFile: html, encoding: .utf8).contains("<title>choir: \(title) — Tenor</title>"))
        let coach = try CLI.run(["coach", score, "--part", "T"], environment: environment)
        #expect(coach.stdout.hasPrefix("\(title), Tenor, 1 session:\n"), "\(coach.stdout)")
    }
}
