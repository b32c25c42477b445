import ChoirPractice
import Foundation
import Testing

@testable import ChoirLibrary

/// What the plans' store says and changes for every front end: the listing, a plan shown, an item taken out, a plan's
/// file read; and scores taken out of the library by name.
struct RehearsalPlansTests {
    static func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "choir-plans-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Two plans by name (any case first), their items counted, never run; one shown item by item; its first item
    /// taken out, a third that is not there refused with the numbers there are.
    @Test func plansAreListedShownAndTheirItemsTakenOut() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try RehearsalPlans(path: folder + "/history.sqlite")
        #expect(try store.listing() == "No plans; make one with `choir plan new NAME`.\n")
        let first = RehearsalPlan.Item(piece: "Hymn", line: "Tenor", from: "3", to: "8", tempo: 80, passes: 2)
        let second = RehearsalPlan.Item(piece: "Carol", line: "Bass", notes: "breathe after 'joy'")
        try store.save(RehearsalPlan(name: "advent", items: [first, second]), replacing: false)
        try store.save(RehearsalPlan(name: "Solo", items: [second]), replacing: false)
        #expect(try store.listing() == "advent: 2 items, never run\nSolo: 1 item, never run\n")
        #expect(
            try store.shown(named: "advent")
                == "advent\n  1. Hymn — Tenor, mm. 3–8 at 80%, 2 passes\n  2. Carol — Bass, whole piece — breathe after 'joy'\nNever run.\n"
        )
        #expect(try store.summaries(of: "advent") == "")
        let refused = #expect(throws: RehearsalPlans.Problem.self) { try store.remove(item: 3, of: "advent") }
        #expect(refused?.description == "--item 3: 'advent' has 2 items: expected 1 to 2")
        let (kept, removed) = try store.remove(item: 1, of: "advent")
        #expect(removed == first && kept.items == [second])
        #expect(try store.plan(named: "advent").items == [second])
        #expect(try store.shown(named: "Solo") == "Solo\n  1. Carol — Bass, whole piece — breathe after 'joy'\nNever run.\n")
    }

    /// A plan's file that is not there cannot be read (the file is missing); one that is not UTF-8 was read and
    /// found wanting.
    @Test func aPlansFileThatCannotBeReadIsToldFromOneThatIsWrong() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let missing = #expect(throws: RehearsalPlan.FileError.self) { try RehearsalPlan(contentsOf: folder + "/none.toml") }
        #expect(missing?.unreadable == true && missing?.description == folder + "/none.toml: cannot be read: expected a TOML file")
        try Data([0x6E, 0x61, 0xFF, 0xFE]).write(to: URL(fileURLWithPath: folder + "/latin.toml"))
        let wrong = #expect(throws: RehearsalPlan.FileError.self) { try RehearsalPlan(contentsOf: folder + "/latin.toml") }
        #expect(wrong?.unreadable == false && wrong?.description == folder + "/latin.toml: is not UTF-8 text: expected a TOML file")
        try "name = \"Advent\"\n".write(toFile: folder + "/advent.toml", atomically: true, encoding: .utf8)
        #expect(try RehearsalPlan(contentsOf: folder + "/advent.toml") == RehearsalPlan(name: "Advent"))
    }

    /// Scores are taken out by title all or none: a name that picks no score leaves every one there.
    @Test func scoresAreTakenOutByNameAllOrNone() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/duet.musicxml", other = folder + "/other.musicxml"
        try LibraryTests.duet.write(toFile: file, atomically: true, encoding: .utf8)
        try LibraryTests.duet.replacingOccurrences(of: "G minor", with: "D minor").write(toFile: other, atomically: true, encoding: .utf8)
        let library = try Library(path: folder + "/history.sqlite")
        _ = try library.add([file, other])
        #expect(throws: Library.Unclear.self) { try library.remove(named: ["Duet in D", "Trio"]) }
        #expect(try library.entries().count == 2)
        #expect(try library.remove(named: ["duet in d"]).map(\.path) == [other])
        #expect(try library.entries().map(\.path) == [file])
    }
}

extension RehearsalPlansTests {
    /// A new plan's name must say something: nothing, or nothing but spaces, is refused (a slip of the command line
    /// or of the page), and any name with a word in it is taken as it is.
    @Test func aNewPlansNameMustSaySomething() throws {
        for name in ["", " ", "\t \n"] {
            let empty = #expect(throws: RehearsalPlans.Problem.self) { try RehearsalPlans.check(name: name) }
            #expect(empty?.description == "the plan's name is empty: expected a name, e.g. \"Advent concert\"")
        }
        for name in ["Advent concert", " x ", "1"] { #expect(throws: Never.self) { try RehearsalPlans.check(name: name) } }
    }
}
