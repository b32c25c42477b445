import Foundation
import Testing

struct NotesCommandTests {
    @Test func tenorOfTheExampleInText() throws {
        let result = try CLI.run(["notes", CLI.example, "--part", "T"])
        #expect(result.status == 0)
        #expect(result.stdout == (try CLI.golden("notes-amazing-grace-tenor.txt", result.stdout)))
    }

    /// The JSON has the shape of the shared references; its first three fields per note are theirs.
    @Test func jsonMatchesTheReferenceShape() throws {
        let result = try CLI.run(["notes", "--json", "--no-repeats", "Tests/Fixtures/corpus/bach_bwv1.6.mxl"])
        #expect(result.status == 0)
        let ours = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let referenceData = try Data(
            contentsOf: CLI.fixtures.appendingPathComponent("corpus/reference/bach_bwv1.6.mxl.json"))
        let reference = try JSONSerialization.jsonObject(with: referenceData) as? [String: Any]
        let ourParts = ours?["parts"] as? [[String: Any]] ?? []
        let theirParts = reference?["parts"] as? [[String: Any]] ?? []
        #expect(ourParts.map { $0["name"] as? String } == theirParts.map { $0["name"] as? String })
        for (our, their) in zip(ourParts, theirParts) {
            let ourNotes = (our["notes"] as? [[Any]] ?? []).map { Array($0.prefix(3)).map { $0 as? Double } }
            let theirNotes = (their["notes"] as? [[Double]] ?? []).map { $0.map(Optional.some) }
            #expect(ourNotes == theirNotes)
        }
        let first = (ourParts.first?["notes"] as? [[Any]])?.first
        #expect(first?[3] as? Double == 0)
        #expect(first?[4] as? String == "0")
        #expect(first?[5] as? String == "1")
        #expect(first?[6] as? String == "Horn 2")
    }

    @Test func repeatsUnfoldUnlessAskedNotTo() throws {
        let file = "Tests/Fixtures/corpus/bach_bwv14.5.mxl"
        let played = try CLI.run(["notes", "--json", file, "--part", "S"])
        let written = try CLI.run(["notes", "--json", "--no-repeats", file, "--part", "S"])
        func notes(_ text: String) throws -> [[Any]] {
            let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            return ((json?["parts"] as? [[String: Any]])?.first?["notes"] as? [[Any]]) ?? []
        }
        let writtenCount = try notes(written.stdout).count
        #expect(writtenCount == 51)
        #expect(try notes(played.stdout).count > writtenCount)
        #expect(played.stdout.contains("\"order\": \"playback\""))
        #expect(written.stdout.contains("\"order\": \"written\""))
    }

    @Test func unknownLineListsTheChoices() throws {
        let result = try CLI.run(["notes", CLI.example, "--part", "viola"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr == """
                choir: Resources/ExamplePieces/amazing_grace.musicxml: unknown line 'viola': expected one of \
                1 Soprano, 2 Alto, 3 Tenor, 4 Bass

                """)
    }
}
