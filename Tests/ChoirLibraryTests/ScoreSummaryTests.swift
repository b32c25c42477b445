import ChoirBase
import ChoirScore
import Foundation
import Testing

@testable import ChoirLibrary

/// What `choir info` and `choir library` say of the duet, whose facts are known by construction.
struct ScoreSummaryTests {
    static func duet() throws -> Score { try ScoreReader.read(data: Array(LibraryTests.duet.utf8), file: "duet.musicxml") }

    @Test func theSummarySaysTheKeyTimeTempoLengthAndEachLinesRange() throws {
        #expect(
            ScoreSummary(try Self.duet(), file: "duet.musicxml").text == """
                duet.musicxml
                  Title     Duet in G minor
                  Composer  A. Nonymous
                  Key       G minor
                  Time      4/4
                  Tempo     ♩ = 60
                  Measures  2
                  Duration  0:08
                  Verses    0
                  Lines
                    Soprano: C5–E♭5
                    Bass: G2–D3

                """)
    }

    /// Moved up a tone, the key and the ranges are the moved ones, and the key says so.
    @Test func aTransposedSummaryGivesTheMovedKeyAndRanges() throws {
        let summary = ScoreSummary(try Self.duet(), file: "duet.musicxml", transposed: 2)
        #expect(summary.text.contains("  Key       A minor (transposed up 2 semitones)\n"))
        #expect(summary.text.contains("    Soprano: D5–F5\n    Bass: A2–E3\n"))
        let json = summary.json.serialized()
        #expect(json.contains("\"transpose\": 2,\n  \"key\": \"A minor\","), "\(json)")
        #expect(json.contains("\"highest\": \"F5\",\n      \"lowest_midi\": 74,\n      \"highest_midi\": 77\n"), "\(json)")
    }

    @Test(arguments: [(0.4, "0:00"), (8, "0:08"), (59.6, "1:00"), (754, "12:34")])
    func durationsAreMinutesAndSeconds(seconds: Double, clock: String) {
        #expect(ScoreSummary.clock(seconds) == clock)
    }

    @Test func theListingShowsAPieceABlockAndCountsThem() throws {
        let listed = Library.Listed(entry: try LibraryTests.entry(), lastPractised: nil)
        #expect(
            Library.Listed.text([listed]) == """
                Duet in G minor — A. Nonymous
                  SB · G minor · 2 measures · 0:08
                  Soprano C5–E♭5 · Bass G2–D3
                  /scores/duet.musicxml
                1 score

                """)
        #expect(Library.Listed.text([]) == "No scores.\n")
    }

    @Test func addingSaysWhatChangedAndCountsEachKind() {
        let changes: [(path: String, change: Result<Library.Change, ScoreError>)] = [
            ("/a.xml", .success(.added)), ("/b.xml", .success(.moved(from: "/old/b.xml"))), ("/c.xml", .success(.unchanged)),
            ("/d.txt", .failure(ScoreError(file: "/d.txt", message: "not MusicXML"))),
        ]
        #expect(
            Library.added(changes, total: 3) == """
                added      /a.xml
                moved      /b.xml (was /old/b.xml)
                3 scores in the library: 1 added, 0 updated, 1 moved, 1 unchanged, 1 not scores choir can read

                """)
    }
}

extension ScoreSummaryTests {
    /// Files are summarised in the order given, a file that cannot be read in its place with why.
    @Test func filesAreSummarisedInOrderWithTheirFailures() throws {
        let folder = NSTemporaryDirectory() + "choir-summary-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try LibraryTests.duet.write(toFile: folder + "/duet.musicxml", atomically: true, encoding: .utf8)
        let results = ScoreSummary.read([folder + "/gone.musicxml", folder + "/duet.musicxml"], transposed: -1)
        #expect(results.count == 2)
        #expect(throws: ScoreError.self) { try results[0].get() }
        #expect(try results[1].get().keys.map(\.description) == ["F♯ minor"])
    }
}

extension ScoreSummaryTests {
    /// `choir info`'s listing: the summaries' texts with a blank line before each path's but the first (one that
    /// cannot be read counts), or JSON: an object for one path, an array for several, null for one that cannot be read.
    @Test func theListingSeparatesSummariesAndSaysWhatCannotBeRead() throws {
        let folder = NSTemporaryDirectory() + "choir-summary-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (duet, gone) = (folder + "/duet.musicxml", folder + "/gone.musicxml")
        try LibraryTests.duet.write(toFile: duet, atomically: true, encoding: .utf8)
        let summary = try ScoreSummary.read([duet])[0].get()
        let text = ScoreSummary.listing([duet, gone, duet], transposed: 0, json: false)
        #expect(text.output == summary.text + "\n" + summary.text)
        #expect(text.failures.map(\.file) == [gone])
        #expect(ScoreSummary.listing([gone, duet], transposed: 0, json: false).output == "\n" + summary.text)
        #expect(ScoreSummary.listing([duet], transposed: 0, json: true).output == summary.json.serialized())
        #expect(ScoreSummary.listing([duet, gone], transposed: 0, json: true).output == JSON.array([summary.json]).serialized())
        let none = ScoreSummary.listing([gone], transposed: 0, json: true)
        #expect(none.output == JSON.null.serialized() && none.failures.count == 1)
    }
}
