import Foundation
import Testing

/// A history written by choir 0.1.0, which kept sessions and marks by the score's file name
/// (`Tests/Fixtures/history/README.md` says how it was made), brought up to date: every session and mark is kept, each
/// now belongs to its score's content, and the two `hymn.musicxml` files it holds no longer mix.
struct HistoryMigrationTests {
    /// A folder holding the fixture's scores where it had them (`a/hymn.musicxml`, and `b/hymn.musicxml` titled
    /// apart; `gone/psalm.musicxml` is gone), and a data home holding its history.
    static func folder() throws -> (folder: String, data: String) {
        let data = try PracticeCommandTests.dataHome()
        let folder = data + "/scores"
        for sub in ["a", "b", "c"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(atPath: data + "/choir", withIntermediateDirectories: true)
        let example = try String(contentsOfFile: CLI.root.appendingPathComponent(CLI.example).path, encoding: .utf8)
        try example.write(toFile: folder + "/a/hymn.musicxml", atomically: true, encoding: .utf8)
        try example.replacingOccurrences(
            of: "<work-title>Amazing Grace</work-title>", with: "<work-title>Amazing Grace (second setting)</work-title>"
        ).write(toFile: folder + "/b/hymn.musicxml", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(
            atPath: CLI.fixtures.appendingPathComponent("history/written-by-0.1.0.sqlite").path, toPath: data + "/choir/history.sqlite")
        return (folder, data)
    }

    /// The marks `choir mark list` gives of the fixture's history, each by its score.
    static let marks = """
        Amazing Grace
             1  m. 3    Tenor        breathe after grace
        Amazing Grace (second setting)
             2  m. 5    every line   softer
        Psalm
             3  m. 2    every line   psalm mark

        """

    static func choir(_ arguments: [String], _ place: (folder: String, data: String)) throws -> CLI.Result {
        try CLI.run(arguments, environment: ["XDG_DATA_HOME": place.data], directory: place.folder)
    }

    @Test func sessionsAndMarksFollowTheirScore() throws {
        // The fixture's session #6 was run by absolute path, in a folder that only the machine that wrote it had.
        try #require(!FileManager.default.fileExists(atPath: "/tmp/fx29"), "the fixture's own folder must not exist here")
        let place = try Self.folder()
        let history = try Self.choir(["history"], place)
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout == (try CLI.golden("history-migrated.txt", history.stdout)))

        // Each file's marks, the psalm's by the library's hash of it.
        let marks = try Self.choir(["mark", "list"], place)
        #expect(marks.stdout == Self.marks, "\(marks.stdout)")
        let library = try Self.choir(["library", "list"], place)
        #expect(
            library.stdout.hasPrefix("Psalm — Traditional (New Britain)\n")
                && library.stdout.contains("  last practised 2026-11-25 (Bass, 0.0%)\n"))

        // Renamed and moved, the first hymn keeps its sessions and its mark; the second keeps its own.
        try FileManager.default.moveItem(atPath: place.folder + "/a/hymn.musicxml", toPath: place.folder + "/c/renamed.musicxml")
        let session = try Self.choir(
            ["practice", "c/renamed.musicxml", "--part", "T", "--input", CLI.root.appendingPathComponent(PracticeCommandTests.take).path],
            place)
        #expect(
            session.status == 0 && session.stdout.contains("Your marks:\n  m. 3: breathe after grace\n"),
            "\(session.stdout)\(session.stderr)")
        let renamed = try Self.choir(["history", "c/renamed.musicxml"], place)
        let dated = try Regex(#"#7    \d{4}-\d{2}-\d{2} \d{2}:\d{2}"#)
        #expect(
            renamed.stdout.replacing(dated, with: "#7    DATE") == """
                Amazing Grace — c/renamed.musicxml
                  Tenor
                    #1    2026-11-25 14:00  ♩=80    file  mm. 0–16     89.3% ██████████████████
                    #4    2026-11-25 14:00  ♩=80    file  mm. 0–16      0.0%   (interrupted, nothing sung)
                    #7    DATE  ♩=80    file  mm. 0–16     89.3% ██████████████████
                    Weakest measures over the last 2 sessions:
                      m. 7    0% → 0%  (0% in all)
                      m. 6    50% → 50%  (50% in all)
                      m. 12   50% → 50%  (50% in all)
                  Alto
                    #3    2026-11-25 14:00  ♩=80    file  mm. 0–16      3.6% █
                1 session in which nothing was sung (#4): `choir history --prune` deletes it.

                """, "\(renamed.stdout)")
        let second = try Self.choir(["history", "b/hymn.musicxml"], place)
        #expect(
            second.stdout.hasPrefix("Amazing Grace (second setting) — b/hymn.musicxml\n  Tenor\n    #2 ") && !second.stdout.contains("#1 "))
        #expect(try Self.choir(["report", "1"], place).stdout.contains("Your marks:\n  m. 3: breathe after grace\n"))

        // What was never sung goes; any session goes by its number; the rest stays.
        let pruned = try Self.choir(["history", "--prune"], place)
        #expect(pruned.stdout == "Deleted 1 session in which nothing was sung: #4\n")
        #expect(try Self.choir(["history", "--prune"], place).stdout == "No session without singing to delete.\n")
        let deleted = try Self.choir(["history", "--delete", "2"], place)
        #expect(deleted.stdout == "Deleted #2: Amazing Grace (second setting), Tenor, 2026-11-25 14:00\n")
        let again = try Self.choir(["history", "--delete", "2"], place)
        #expect(again.status == 64 && again.stderr.hasSuffix(": no session 2: expected the number of a stored session (`choir history`)\n"))
        let left = try Self.choir(["history"], place).stdout
        #expect(["#1 ", "#3 ", "#5 ", "#6 ", "#7 "].allSatisfy(left.contains) && !left.contains("#2 ") && !left.contains("#4 "), "\(left)")
    }

    /// The same history damaged before this choir first opened it (random bytes over a page of its pitch trace): it
    /// is set aside unmigrated, and `choir history --recover` keys what it copies back as the migration would have,
    /// each session and mark by its score's content where the file (or the library's entry of it, recovered too) is
    /// found: the same listing and marks as the history migrated whole.
    @Test func aDamagedHistoryFromBeforeContentKeysIsRecoveredByContent() throws {
        let place = try Self.folder()
        let path = place.data + "/choir/history.sqlite"
        let damage = try runTool(
            "/usr/bin/env",
            [
                "python3", "-c",
                """
                import sqlite3, random, sys
                db = sqlite3.connect(sys.argv[1])
                size = db.execute('PRAGMA page_size').fetchone()[0]
                pages = [p for (p,) in db.execute("SELECT pageno FROM dbstat WHERE name = 'trace' AND pagetype = 'leaf' ORDER BY pageno")]
                db.close()
                random.seed(29)
                with open(sys.argv[1], 'r+b') as f:
                    f.seek((pages[len(pages) // 2] - 1) * size); f.write(bytes(random.randrange(256) for _ in range(size)))
                """,
                path,
            ], environment: ProcessInfo.processInfo.environment)
        try #require(damage.status == 0, "\(damage.output)")
        let opened = try Self.choir(["history"], place)
        #expect(
            opened.status == 0 && opened.stdout == "No sessions yet: `choir practice SCORE --part LINE` sings one.\n", "\(opened.stdout)")
        let moved = try #require(try PracticeCommandTests.damaged(in: place.data))
        #expect(opened.stderr.hasPrefix("choir: \(path) is damaged ("), "\(opened.stderr)")

        let recovered = try Self.choir(["history", "--recover", moved], place)
        #expect(recovered.status == 0, "\(recovered.stderr)")
        #expect(
            recovered.stdout.hasPrefix("Recovered from \(moved): 6 sessions (")
                && recovered.stdout.contains("trace points), 3 marks, 1 library entry, 1 plan and 1 plan run.\n"),
            "\(recovered.stdout)")
        let history = try Self.choir(["history"], place)
        #expect(history.stdout == (try CLI.golden("history-migrated.txt", history.stdout)), "\(history.stdout)")
        #expect(try Self.choir(["mark", "list"], place).stdout == Self.marks)
        // Keyed by content: renamed and moved, the first hymn keeps its sessions (listed where they were sung).
        try FileManager.default.moveItem(atPath: place.folder + "/a/hymn.musicxml", toPath: place.folder + "/c/renamed.musicxml")
        let renamed = try Self.choir(["history", "c/renamed.musicxml"], place).stdout
        #expect(
            renamed.hasPrefix("Amazing Grace — a/hymn.musicxml (not found)\n  Tenor\n    #1 ") && renamed.contains("\n    #4 "),
            "\(renamed)")
    }

    /// A history written by the release before the library, the plans and the history shared one migrator (3fd8bb2:
    /// each registered its own steps on the same file; `Tests/Fixtures/history/README.md` says how it was made):
    /// opened by this choir, every session, note, mark, library entry, plan and run reads as that release printed
    /// it (`written-by-3fd8bb2.txt`, its own output, never rewritten by a golden update).
    @Test func aHistoryWrittenBeforeOneMigratorKeepsEverything() throws {
        let data = try PracticeCommandTests.dataHome()
        let folder = data + "/scores"
        try FileManager.default.createDirectory(atPath: folder + "/a", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: data + "/choir", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: CLI.root.appendingPathComponent(CLI.example).path, toPath: folder + "/a/hymn.musicxml")
        try FileManager.default.copyItem(
            atPath: CLI.fixtures.appendingPathComponent("history/written-by-3fd8bb2.sqlite").path,
            toPath: data + "/choir/history.sqlite")
        var printed = ""
        for command in ["history", "mark list", "library list", "plan show Sunday", "report 1", "report 3"] {
            let result = try Self.choir(command.split(separator: " ").map(String.init), (folder, data))
            #expect(result.status == 0, "\(command): \(result.stderr)")
            printed += "== \(command)\n" + result.stdout + result.stderr
        }
        let expected = try String(
            contentsOf: CLI.fixtures.appendingPathComponent("history/written-by-3fd8bb2.txt"), encoding: .utf8)
        #expect(printed == expected, "\(printed)")
    }
}
