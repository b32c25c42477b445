import ChoirScore
import Testing

@testable import ChoirModel
@testable import ChoirScan

/// What `choir scan` says when it has written a file: what the file holds, who made it, what stays doubtful, and
/// what the model cost.
struct ScanSummaryTests {
    @Test func theSummarySaysTheFileItsDoubtsAndTheCost() throws {
        let document = ScanCheckTests.document([(id: "P1", name: "Tenor", measures: [[4], [2, 2]])])
        let score = try ScoreReader.read(document: Array(document.utf8), file: "hymn.musicxml")
        var usage = ModelUsage()
        usage.add(ChatReply(text: "", promptTokens: 9000, completionTokens: 800, cost: 0.0152, requestBytes: 10, seconds: 1))
        let endpoint = ModelEndpoint(base: ModelEndpoint.openRouter, model: "m/v", key: nil)
        let result = Scan.Result(
            document: Array(document.utf8), score: score,
            doubts: [ScanNotes.Doubt(measureIndex: 1, partID: "P1", reason: "a smudged flat")], repairPasses: 1, usage: usage,
            made: "made by m/v from 1 page", date: "2025-06-01")
        let scan = Scan(pages: [], part: "Tenor", file: "hymn.musicxml")
        #expect(
            scan.summary(of: result, endpoint, written: "out/hymn.musicxml") == """
                Wrote out/hymn.musicxml: hymn, 2 measures; Tenor.
                It was made by m/v from 1 page.
                Doubtful, by measure (marked in the file "choir scan: doubtful"):
                  m. 2 (Tenor): a smudged flat
                Repair passes: 1 of at most 2.
                Model: 1 request: 9,000 tokens in, 800 out; cost $0.0152 as OpenRouter reports it.

                """)
        #expect(
            scan.practice(result, written: "out/my hymn.musicxml") == "Practise it: choir practice 'out/my hymn.musicxml' --part Tenor\n")
        // The line as the score names it; none for a line it has not, or no line asked for.
        #expect(Scan(pages: [], part: "t", file: "h.musicxml").practice(result, written: "h.musicxml")?.hasSuffix("--part Tenor\n") == true)
        #expect(Scan(pages: [], part: "Bass", file: "h.musicxml").practice(result, written: "h.musicxml") == nil)
        #expect(Scan(pages: [], part: nil, file: "h.musicxml").practice(result, written: "h.musicxml") == nil)
        var clean = result
        clean.doubts = []
        clean.repairPasses = 0
        #expect(
            scan.summary(of: clean, endpoint, written: "hymn.musicxml").contains(
                "\nNothing was found doubtful; it still needs checking.\nModel: "))
    }
}

extension ScanSummaryTests {
    /// The model knows the file by its name alone; a scan's file is MusicXML by its name, in any case.
    @Test func theFileIsMusicXMLAndTheModelKnowsItsNameAlone() {
        #expect(Scan(pages: [], part: nil, writing: "/home/me/scores/hymn.musicxml").file == "hymn.musicxml")
        #expect(Scan(pages: [], part: nil, writing: nil).file == "piece.musicxml")
        #expect(ScanOutput.problem("/home/me/hymn.XML") == nil && ScanOutput.problem("hymn.musicxml") == nil)
        #expect(ScanOutput.problem("hymn.pdf") == "hymn.pdf: expected a file ending in .musicxml or .xml")
    }
}
