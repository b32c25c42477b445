import Foundation
import Testing

/// `choir mark`: pencil marks by measure, in every report at their measure.
struct MarkCommandTests {
    static func mark(_ arguments: [String], _ data: String) throws -> CLI.Result {
        try CLI.run(["mark"] + arguments, environment: ["XDG_DATA_HOME": data])
    }

    /// A mark at m. 12 appears in the terminal report, the JSON, the HTML (its list and the roll), and the rebuilt
    /// report; a mark for another line, or on a measure not practised, does not.
    @Test func aMarkAppearsInEveryReportAtItsMeasure() throws {
        let data = try PracticeCommandTests.dataHome()
        #expect(try Self.mark(["list"], data).stdout == "No marks: `choir mark add SCORE --measure M \"breathe here\"` makes one.\n")
        #expect(
            try Self.mark(["add", CLI.example, "--part", "tenor", "--measure", "12", "breathe after 'grace'"], data).stdout
                == "mark 1: m. 12 (Tenor): breathe after 'grace'\n")
        #expect(
            try Self.mark(["add", CLI.example, "--part", "alto", "--measure", "12", "the alto's"], data).stdout
                == "mark 2: m. 12 (Alto): the alto's\n")
        #expect(
            try Self.mark(["add", CLI.example, "--measure", "2", "everyone: softer"], data).stdout == "mark 3: m. 2: everyone: softer\n")
        let list = try Self.mark(["list"], data)
        #expect(
            list.stdout == """
                Amazing Grace
                     1  m. 12   Tenor        breathe after 'grace'
                     2  m. 12   Alto         the alto's
                     3  m. 2    every line   everyone: softer

                """, "\(list.stdout)")

        let take = CLI.root.appendingPathComponent("Resources/DemoTakes/amazing_grace_tenor.wav").path
        let practice = try CLI.run(
            [
                "practice", CLI.example, "--part", "tenor", "--input", take, "--output", "none", "--report", data + "/r.json", "--html",
                data + "/r.html",
            ],
            environment: ["XDG_DATA_HOME": data])
        #expect(practice.status == 0, "\(practice.stderr)")
        #expect(
            practice.stdout.contains("Your marks:\n  m. 2: everyone: softer\n  m. 12: breathe after 'grace'\nWork on:"),
            "\(practice.stdout)")
        let marks = try PracticeCommandTests.json(data + "/r.json")["marks"] as? [[String: Any]] ?? []
        #expect(
            marks.map { $0["measure"] as? String } == ["2", "12"]
                && marks.map { $0["text"] as? String } == ["everyone: softer", "breathe after 'grace'"])
        let html = try String(contentsOfFile: data + "/r.html", encoding: .utf8)
        #expect(html.contains("<ul id=\"marks\">\n<li>m. 2: everyone: softer</li>\n<li>m. 12: breathe after 'grace'</li>\n</ul>"))
        #expect(html.components(separatedBy: "<g class=\"mark\"><title>m. 12: breathe after").count == 2)
        let rebuilt = try CLI.run(["report", "1"], environment: ["XDG_DATA_HOME": data])
        #expect(rebuilt.stdout == practice.stdout, "\(rebuilt.stdout)")

        // Outside the range practised, a mark is not shown.
        let range = try CLI.run(
            ["practice", CLI.example, "--part", "tenor", "--input", take, "--output", "none", "--to", "8"],
            environment: ["XDG_DATA_HOME": data])
        #expect(range.stdout.contains("Your marks:\n  m. 2: everyone: softer\n") && !range.stdout.contains("grace'"), "\(range.stdout)")

        #expect(try Self.mark(["remove", "1"], data).stdout == "mark 1 rubbed out\n")
        let gone = try Self.mark(["remove", "1"], data)
        #expect(gone.status == 64 && gone.stderr == "choir: no mark 1: expected a number from `choir mark list`\n")
        let bad = try Self.mark(["add", CLI.example, "--measure", "99", "x"], data)
        #expect(bad.status == 64 && bad.stderr == "choir: \(CLI.example): measure 99 is not in the score: expected 0–16\n")
    }
}
