import ChoirPractice
import ChoirScore
import ChoirTestSupport
import Foundation
import Testing

@testable import ChoirLibrary

/// A plan as a setlist: its items moved, noted and removed, kept in the database and its TOML file with their notes,
/// and the item to sing next found from the history.
struct RehearsalPlanTests {
    static func plan() -> RehearsalPlan {
        RehearsalPlan(
            name: "Advent",
            items: [
                .init(piece: "/scores/a.musicxml", line: "Soprano"), .init(piece: "/scores/b.musicxml", line: "Bass", tempo: 80),
                .init(piece: "/scores/c.musicxml", line: "Alto", notes: "softly"),
            ])
    }

    @Test func itemsAreMovedNotedAndRemoved() throws {
        var plan = Self.plan()
        try plan.move(item: 2, to: 0)
        #expect(plan.items.map(\.piece) == ["/scores/c.musicxml", "/scores/a.musicxml", "/scores/b.musicxml"])
        try plan.move(item: 0, to: 2)
        #expect(plan.items.map(\.piece) == ["/scores/a.musicxml", "/scores/b.musicxml", "/scores/c.musicxml"])
        try plan.setNotes("  breathe at m. 4 \n", item: 1)
        try plan.setNotes(" ", item: 2)
        #expect(plan.items.map(\.notes) == [nil, "breathe at m. 4", nil])
        #expect(try plan.remove(item: 0).piece == "/scores/a.musicxml")
        #expect(plan.items.count == 2)
        #expect(throws: RehearsalPlans.Problem.self) { try plan.move(item: 2, to: 0) }
        let error = #expect(throws: RehearsalPlans.Problem.self) { try plan.setNotes("x", item: 5) }
        #expect(error?.description == "item 6: 'Advent' has 2 items: expected 1 to 2")
    }

    /// Notes travel in the database and in the TOML file; a file written before notes existed reads without them.
    @Test func notesAreKept() throws {
        let folder = NSTemporaryDirectory() + "choir-plans-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plans = try RehearsalPlans(path: folder + "/history.sqlite")
        try plans.save(Self.plan(), replacing: false)
        #expect(try plans.plan(named: "Advent") == Self.plan())
        let toml = Self.plan().toml
        #expect(toml.contains("part = \"Alto\"\npasses = 1\nnotes = \"softly\"\n"))
        #expect(try RehearsalPlan(toml: toml, file: folder + "/advent.toml") == Self.plan())
        #expect(
            try RehearsalPlan(toml: "name = \"Old\"\n[[item]]\npiece = \"/x.musicxml\"\npart = \"Tenor\"\n", file: "old.toml").items[0]
                .notes == nil)
    }

    /// The next item is the one after the item last sung (by its piece and line), round to the first after the last.
    @Test func theNextItemFollowsTheLastSung() throws {
        let folder = NSTemporaryDirectory() + "choir-plans-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = folder + "/history.sqlite"
        let duet = folder + "/duet.musicxml", other = folder + "/other.musicxml"
        try LibraryTests.duet.write(toFile: duet, atomically: true, encoding: .utf8)
        try LibraryTests.duet.replacingOccurrences(of: "G minor", with: "D minor").write(toFile: other, atomically: true, encoding: .utf8)
        let library = try Library(path: database), history = try PracticeHistory(path: database), plans = try RehearsalPlans(path: database)
        _ = try library.add([duet, other])
        // By path, by title, and a piece the library does not have, which is never the last sung.
        let plan = RehearsalPlan(
            name: "Week",
            items: [
                .init(piece: duet, line: "Soprano"), .init(piece: "Duet in D minor", line: "Bass"),
                .init(piece: "/gone.musicxml", line: "Bass"),
                .init(piece: duet, line: "bass"),
            ])
        #expect(try plans.next(in: plan, library: library, history: history) == 0)
        #expect(try plans.next(in: RehearsalPlan(name: "Empty"), library: library, history: history) == nil)
        var day = 0.0
        func sing(_ file: String, _ part: String) throws {
            let entry = try library.entry(named: file)
            var report = PlantedSession.make()
            report.part = part
            report.identity = ScoreIdentity(hash: entry.hash, path: entry.path)
            day += 1
            let id = try history.begin(report, started: Date(timeIntervalSince1970: 1_793_000_000 + day * 86_400))
            try history.record(report.results, trace: [], session: id)
            try history.finish(session: id)
        }
        try sing(duet, "Soprano")
        #expect(try plans.next(in: plan, library: library, history: history) == 1)
        try sing(other, "Bass")
        #expect(try plans.next(in: plan, library: library, history: history) == 2)
        try sing(duet, "Bass")
        #expect(try plans.next(in: plan, library: library, history: history) == 0)
        // Another line of a piece is not the item's.
        try sing(duet, "Alto")
        #expect(try plans.next(in: plan, library: library, history: history) == 0)
    }
}
