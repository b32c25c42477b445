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
            /// Where each measure starts, in quarter notes: rests are not among the notes, so a part of rests is
            /// held to its measures.
            var measureStarts: [Double]

            enum CodingKeys: String, CodingKey {
                case name, notes
                case measureStarts = "measure_starts"
            }
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
        // Files of rests alone (their notes are empty) are held to their measures' starts.
        let restsOnly = references.filter { $0.parts.allSatisfy(\.notes.isEmpty) }
        #expect(restsOnly.count == 20)
        #expect(restsOnly.allSatisfy { $0.parts.allSatisfy { !$0.measureStarts.isEmpty } })
    }

    /// Every file is read (none refused, none hangs) and gives its reference's parts, by name, their notes:
    /// (onset, duration, sounding pitch) with ties merged, in written order, and the measures' starts, so that a
    /// rest or a measure of the wrong length shows where there are no notes.
    @Test(.timeLimit(.minutes(1)), arguments: files)
    func agreesWithItsReference(file: String) throws {
        let reference = try Self.reference(file)
        let score = try ScoreReader.read(contentsOf: Self.suite.appendingPathComponent(file).path)
        try #require(score.parts.count == reference.parts.count, "\(file): parts")
        // music21 leaves a part without a <part-name> unnamed; choir names it by its place, as `choir info` shows.
        let names = reference.parts.enumerated().map { $1.name.isEmpty ? "Part \($0 + 1)" : $1.name }
        #expect(score.parts.map(\.name) == names, "\(file): part names")
        let starts = score.measures.map(\.start.doubleValue)
        for (index, expected) in reference.parts.enumerated() {
            let same =
                starts.count == expected.measureStarts.count
                && zip(starts, expected.measureStarts).allSatisfy { abs($0 - $1) < 1e-6 }
            #expect(same, "\(file), part \(index + 1): measures start at \(starts), expected \(expected.measureStarts)")
        }
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
