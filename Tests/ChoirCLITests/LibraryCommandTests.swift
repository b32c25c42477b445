import Foundation
import Testing

/// `choir library` on the shared corpus (29 scores), with answers from music21's reading of the same files.
struct LibraryCommandTests {
    /// A copy of the corpus in a folder of its own, and a data home for its library.
    static func corpus() throws -> (folder: String, data: String) {
        let data = try PracticeCommandTests.dataHome()
        let folder = data + "/scores"
        try FileManager.default.createDirectory(atPath: folder + "/more", withIntermediateDirectories: true)
        let source = CLI.fixtures.appendingPathComponent("corpus").path
        for name in try FileManager.default.contentsOfDirectory(atPath: source) where name.contains(".") && !name.hasSuffix(".md") {
            // Some in a folder below, to be found recursively.
            let target = (name.hasPrefix("bach_bwv3") ? folder + "/more/" : folder + "/") + name
            try FileManager.default.copyItem(atPath: source + "/" + name, toPath: target)
        }
        return (folder, data)
    }

    static func library(_ arguments: [String], _ data: String) throws -> CLI.Result {
        try CLI.run(["library"] + arguments, environment: ["XDG_DATA_HOME": data])
    }

    static func titles(_ result: CLI.Result) throws -> [String] {
        let entries = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        return entries.compactMap { $0["title"] as? String }
    }

    static func files(_ result: CLI.Result) throws -> Set<String> {
        let entries = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        return Set(entries.compactMap { ($0["path"] as? String)?.split(separator: "/").last.map(String.init) })
    }

    /// Adding is idempotent, finds folders' scores recursively, and notices a file that changed or moved.
    @Test func addingNoticesChangesAndMoves() throws {
        let (folder, data) = try Self.corpus()
        let first = try Self.library(["add", folder], data)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.split(separator: "\n").filter { $0.hasPrefix("added ") }.count == 29)
        #expect(first.stdout.hasSuffix("29 scores in the library: 29 added, 0 updated, 0 moved, 0 unchanged\n"), "\(first.stdout)")
        let again = try Self.library(["add", folder], data)
        #expect(again.stdout == "29 scores in the library: 0 added, 0 updated, 0 moved, 29 unchanged\n", "\(again.stdout)")

        try FileManager.default.moveItem(atPath: folder + "/bach_bwv250.mxl", toPath: folder + "/more/chorale 250.mxl")
        let changed = folder + "/demos_multiple-verses.xml"
        try (try String(contentsOfFile: changed, encoding: .utf8) + "<!-- pencilled -->\n").write(
            toFile: changed, atomically: true, encoding: .utf8)
        let noticed = try Self.library(["add", folder], data)
        #expect(
            noticed.stdout == """
                updated    \(folder)/demos_multiple-verses.xml
                moved      \(folder)/more/chorale 250.mxl (was \(folder)/bach_bwv250.mxl)
                29 scores in the library: 0 added, 1 updated, 1 moved, 27 unchanged

                """, "\(noticed.stdout)")

        let bad = data + "/bad.musicxml"
        try "<score-partwise>".write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try Self.library(["add", bad], data)
        #expect(
            refused.status == 65 && refused.stderr == "choir: \(bad):1:17: unexpected end of file: expected </score-partwise>\n",
            "\(refused.stderr)")
        #expect(refused.stdout == "29 scores in the library: 0 added, 0 updated, 0 moved, 0 unchanged, 1 not scores choir can read\n")
    }

    /// A file named twice, by the same path, another path to it, or as part of its folder, is one score added once.
    @Test func aFileNamedTwiceIsAddedOnce() throws {
        let data = try PracticeCommandTests.dataHome()
        let example = CLI.root.appendingPathComponent(CLI.example).path
        let added = try Self.library(["add", CLI.example, CLI.example, "./" + CLI.example, "Resources/ExamplePieces"], data)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(
            added.stdout == "added      \(example)\n1 score in the library: 1 added, 0 updated, 0 moved, 0 unchanged\n", "\(added.stdout)")
    }

    /// "Every piece whose tenor stays within D3–F♯4": the answer music21's notes give, score by score.
    @Test func searchByALinesRange() throws {
        let (folder, data) = try Self.corpus()
        try #require(try Self.library(["add", folder], data).status == 0)
        let reference = CLI.fixtures.appendingPathComponent("corpus/reference")
        var expected: Set<String> = []
        for name in try FileManager.default.contentsOfDirectory(atPath: reference.path) {
            let document =
                try JSONSerialization.jsonObject(with: Data(contentsOf: reference.appendingPathComponent(name))) as! [String: Any]
            let tenors = (document["parts"] as! [[String: Any]]).filter { ($0["name"] as? String ?? "").lowercased().hasPrefix("tenor") }
            let pitches = tenors.flatMap { ($0["notes"] as! [[Double]]).map { Int($0[2]) } }
            if !tenors.isEmpty, pitches.allSatisfy({ (50...66).contains($0) }) { expected.insert(document["file"] as! String) }
        }
        let found = try Self.library(["search", "--part", "tenor", "--lowest", "D3", "--highest", "F#4", "--json"], data)
        #expect(found.status == 0, "\(found.stderr)")
        #expect(try Self.files(found) == expected)
        #expect(expected.count > 5 && expected.count < 25, "\(expected.sorted())")
    }

    /// Voicing, key and words, with known answers.
    @Test func searchByVoicingKeyAndWords() throws {
        let (folder, data) = try Self.corpus()
        try #require(try Self.library(["add", folder], data).status == 0)
        #expect(try Self.titles(try Self.library(["search", "--voicing", "ssaa", "--json"], data)) == ["Prayer of a Tired Child"])
        #expect(try Self.titles(try Self.library(["search", "--voicing", "SSATB", "--json"], data)) == ["CANTO"])
        let satb = try Self.files(try Self.library(["search", "--voicing", "SATB", "--json"], data))
        #expect(satb.count == 24 && satb.allSatisfy { $0.hasPrefix("bach_") || $0.hasPrefix("johnson") }, "\(satb.sorted())")
        #expect(try Self.titles(try Self.library(["search", "lift", "voice", "--json"], data)) == ["Lift Every Voice and Sing"])
        let inG = try Self.files(try Self.library(["search", "--key", "G", "--json"], data))
        let info = try CLI.run(
            ["info", "--json"]
                + inG.sorted().map { name in
                    FileManager.default.fileExists(atPath: folder + "/" + name) ? folder + "/" + name : folder + "/more/" + name
                })
        let keys = (try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [[String: Any]] ?? []).map {
            ($0["key"] as? String ?? "").split(separator: " ").prefix(2).joined(separator: " ")
        }
        #expect(!inG.isEmpty && keys.allSatisfy { $0 == "G major" }, "\(keys)")
        let none = try Self.library(["search", "--voicing", "TTBB"], data)
        #expect(none.status == 0 && none.stdout == "No scores.\n")
        let wrong = try Self.library(["search", "--part", "tenor", "--lowest", "H2"], data)
        #expect(
            wrong.status == 64 && wrong.stderr.hasPrefix("Error: --lowest H2: expected a note such as D3, F#4 or B♭3"), "\(wrong.stderr)")
    }

    /// The list, in full, with the last practice of each piece; a title stands for its file wherever a score is
    /// taken, and a piece leaves the library by its title.
    @Test func listTitlesAndRemoval() throws {
        let data = try PracticeCommandTests.dataHome()
        let example = CLI.root.appendingPathComponent(CLI.example).path
        let chorale = CLI.fixtures.appendingPathComponent("corpus/johnson_j_r_lift_every_voice.mxl").path
        try #require(try Self.library(["add", example, chorale], data).status == 0)
        let take = CLI.root.appendingPathComponent("Resources/DemoTakes/amazing_grace_tenor.wav").path
        let practice = try CLI.run(
            ["practice", "amazing", "--part", "tenor", "--input", take, "--output", "none"], environment: ["XDG_DATA_HOME": data])
        #expect(practice.status == 0, "\(practice.stderr)")
        #expect(practice.stdout.hasPrefix("Amazing Grace — Tenor"), "\(practice.stdout)")
        let today = Date().formatted(.iso8601.year().month().day().dateSeparator(.dash))
        let list = try Self.library(["list"], data)
        #expect(
            list.stdout == """
                Amazing Grace — Traditional (New Britain)
                  SATB · G major · 17 measures · 0:36
                  Soprano D4–D5 · Alto B3–G4 · Tenor F♯3–D4 · Bass G2–G3
                  \(example)
                  last practised \(today) (Tenor, 89.3%)
                Lift Every Voice and Sing — J. Rosamond Johnson
                  SATB · A♭ major · 32 measures · 0:47
                  Soprano C4–F5 · Alto C4–A♭4 · Tenor C3–G4 · Bass A♭2–C4
                  \(chorale)
                2 scores

                """, "\(list.stdout)")
        let info = try CLI.run(["info", "Lift every"], environment: ["XDG_DATA_HOME": data])
        #expect(
            info.status == 0 && info.stdout.hasPrefix("\(chorale)\n  Title     Lift Every Voice and Sing\n"), "\(info.stdout)\(info.stderr)"
        )
        let chorales = ["bach_bwv1.6.mxl", "bach_bwv14.5.mxl", "bach_bwv12.7.mxl"].map {
            CLI.fixtures.appendingPathComponent("corpus/" + $0).path
        }
        try #require(try Self.library(["add"] + chorales, data).status == 0)
        // One titled by its credits alone (a MusicXML 1.1 file: no credit types), one whose work and movement titles
        // are its file's name (titled by its credits too), and one with no title anywhere (named by its file).
        let ambiguous = try CLI.run(["notes", "bwv 1", "--part", "tenor"], environment: ["XDG_DATA_HOME": data])
        #expect(ambiguous.status == 64, "\(ambiguous.stderr)")
        #expect(
            ambiguous.stderr
                == "choir: bwv 1: 2 titles in the library begin so: expected one of 'BWV 1.6 Wie schšn leuchtet der Morgenstern', 'BWV 14.5'\n"
        )
        let untitled = try CLI.run(["notes", "bach_bwv12", "--part", "tenor"], environment: ["XDG_DATA_HOME": data])
        #expect(untitled.status == 0 && untitled.stdout.hasPrefix("Tenor\n"), "\(untitled.stderr)")
        let removed = try Self.library(["remove", "Lift Every Voice and Sing"], data)
        #expect(removed.status == 0 && removed.stdout == "removed    \(chorale)\n")
        #expect(try Self.library(["list"], data).stdout.hasSuffix("\n4 scores\n"))
        let missing = try Self.library(["remove", "Amazing Grase"], data)
        #expect(
            missing.status == 64
                && missing.stderr
                    == "choir: Amazing Grase: no such file, and no title in the library (did you mean 'Amazing Grace'?): expected a score's "
                    + "path or a title from `choir library list`\n",
            "\(missing.stderr)")
    }
}
