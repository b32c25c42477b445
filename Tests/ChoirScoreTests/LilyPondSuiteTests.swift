import Foundation
import Testing

@testable import ChoirScore

/// The LilyPond MusicXML test suite (`Fixtures/lilypond`), each file against the notes a musician reads on its
/// page (`Fixtures/lilypond/reference`): music21's reading where it reads the page right, a list checked by hand
/// where it does not, with the reason beside it (and in `ReferenceErrors.swift`).
struct LilyPondSuiteTests {
    struct Reference: Decodable {
        struct Part: Decodable {
            var name: String
            var notes: [[Double]]
        }
        var file: String
        var source: String
        var reason: String?
        var parts: [Part]
    }

    static let suite = ScoreFixtures.fixtures.appendingPathComponent("lilypond")
    static let files: [String] =
        (try? FileManager.default.contentsOfDirectory(atPath: suite.path))?
        .filter { $0.hasSuffix(".xml") || $0.hasSuffix(".mxl") }.sorted() ?? []

    /// The files whose page music21 misreads; each reference says why.
    static let checkedByHand = [
        "02e-Rests-NoType.xml", "03e-Rhythm-No-Divisions.xml", "03f-Rhythm-Forward.xml",
        "11h-TimeSignatures-SenzaMisura.xml", "21b-Chords-TwoNotes.xml", "21f-Chord-ElementInBetween.xml",
        "33i-Ties-NotEnded.xml", "33k-Tie-Types.xml", "34b-Colors.xml", "41h-TooManyParts.xml",
    ]

    static func reference(_ file: String) throws -> Reference {
        let data = try Data(contentsOf: suite.appendingPathComponent("reference/\(file).json"))
        return try JSONDecoder().decode(Reference.self, from: data)
    }

    @Test func theWholeSuiteHasItsReferences() throws {
        #expect(Self.files.count == 166)
        let references = try Self.files.map(Self.reference)
        #expect(references.map(\.file) == Self.files)
        let byHand = references.filter { $0.reason != nil }
        #expect(byHand.map(\.file) == Self.checkedByHand)
        #expect(byHand.allSatisfy { $0.source == "checked by hand" && $0.reason!.count > 40 })
        #expect(references.filter { $0.reason == nil }.allSatisfy { $0.source.hasPrefix("music21 ") })
    }

    /// Every file is read (none refused, none hangs) and gives its reference's parts and notes: (onset,
    /// duration, sounding pitch) with ties merged, in written order.
    @Test(.timeLimit(.minutes(1)), arguments: files)
    func agreesWithItsReference(file: String) throws {
        let reference = try Self.reference(file)
        let score = try ScoreReader.read(contentsOf: Self.suite.appendingPathComponent(file).path)
        try #require(score.parts.count == reference.parts.count, "\(file): parts")
        for (index, (part, expected)) in zip(score.parts, reference.parts).enumerated() {
            let ours = part.notes.map { CorpusTests.Row([$0.onset.doubleValue, $0.duration.doubleValue, $0.pitch]) }
            let theirs = expected.notes.map(CorpusTests.Row.init)
            let order = { (a: CorpusTests.Row, b: CorpusTests.Row) in
                (a.onset, a.pitch, a.duration) < (b.onset, b.pitch, b.duration)
            }
            #expect(ours.sorted(by: order) == theirs.sorted(by: order), "\(file), part \(index + 1) (\(part.name))")
        }
    }
}
