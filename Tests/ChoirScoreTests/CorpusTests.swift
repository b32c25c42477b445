import Foundation
import Testing

@testable import ChoirScore

/// Every shared corpus file against music21's reading of it (`Fixtures/corpus/reference`).
struct CorpusTests {
    struct Reference: Decodable {
        struct Part: Decodable {
            var id: String
            var name: String
            var notes: [[Double]]
            var lyrics: [LyricRow]
        }
        struct LyricRow: Decodable, Hashable {
            var onset: Double
            var text: String
            var syllabic: String
            var verse: Int
            init(from decoder: Decoder) throws {
                var row = try decoder.unkeyedContainer()
                onset = try row.decode(Double.self)
                text = try row.decode(String.self)
                syllabic = try row.decode(String.self)
                verse = try row.decode(Int.self)
            }
            init(onset: Double, text: String, syllabic: String, verse: Int) {
                (self.onset, self.text, self.syllabic, self.verse) = (onset, text, syllabic, verse)
            }
        }
        var file: String
        var measures: Int
        var first_tempo_qpm: Double?
        var parts: [Part]
    }

    static let corpus = ScoreFixtures.fixtures.appendingPathComponent("corpus")
    static let files: [String] =
        (try? FileManager.default.contentsOfDirectory(atPath: corpus.path))?
        .filter { $0.hasSuffix(".mxl") || $0.hasSuffix(".xml") || $0.hasSuffix(".musicxml") }.sorted() ?? []

    struct Row: Hashable, CustomStringConvertible {
        var onset: Double, duration: Double, pitch: Double
        init(_ values: [Double]) {
            // Rounded to a microsecond of a quarter note: music21 writes floats.
            onset = (values[0] * 1e6).rounded() / 1e6
            duration = (values[1] * 1e6).rounded() / 1e6
            pitch = values[2]
        }
        var description: String { "[\(onset), \(duration), \(pitch)]" }
    }

    static func reference(_ file: String) throws -> Reference {
        let data = try Data(contentsOf: corpus.appendingPathComponent("reference/\(file).json"))
        return try JSONDecoder().decode(Reference.self, from: data)
    }

    @Test func corpusIsPresent() {
        #expect(Self.files.count == 29)
    }

    @Test(arguments: files)
    func agreesWithReference(file: String) throws {
        let reference = try Self.reference(file)
        let score = try ScoreReader.read(contentsOf: Self.corpus.appendingPathComponent(file).path)
        #expect(score.measures.count == reference.measures)
        #expect(score.tempos.first?.quarterNotesPerMinute == reference.first_tempo_qpm)
        try #require(score.parts.count == reference.parts.count)
        for (part, expected) in zip(score.parts, reference.parts) {
            if ReferenceErrors.unnamedParts[file] != expected.name { #expect(part.name == expected.name) }
            // music21 lays each part's measures end to end by that part's own content; see ReferenceErrors.
            let shift = { (measureIndex: Int) in
                part.misfitMeasures.filter { $0.key < measureIndex }.values.reduce(Rational.zero, +).doubleValue
            }
            let ours = part.notes.map {
                Row([$0.onset.doubleValue + shift($0.measureIndex), $0.duration.doubleValue, $0.pitch])
            }
            let theirs = expected.notes.map(Row.init)
            var oursOnly = Set(ours).subtracting(theirs)
            var theirsOnly = Set(theirs).subtracting(ours)
            if let known = ReferenceErrors.known[file]?[expected.name] {
                #expect(oursOnly == known.ours, "\(file) \(expected.name): our notes the reference lacks")
                #expect(theirsOnly == known.theirs, "\(file) \(expected.name): reference notes we lack")
                oursOnly.subtract(known.ours)
                theirsOnly.subtract(known.theirs)
            } else {
                #expect(ours.count == theirs.count, "\(file) \(expected.name)")
            }
            #expect(
                oursOnly.isEmpty && theirsOnly.isEmpty,
                "\(file) \(expected.name): ours only \(oursOnly.sorted { $0.onset < $1.onset }.prefix(5)), reference only \(theirsOnly.sorted { $0.onset < $1.onset }.prefix(5))"
            )

            let lyrics = part.lyrics.map {
                Reference.LyricRow(
                    onset: $0.onset.doubleValue + shift($0.measureIndex), text: $0.text, syllabic: $0.syllabic.rawValue, verse: $0.verse)
            }
            #expect(lyrics.count == expected.lyrics.count, "\(file) \(expected.name) lyrics")
            #expect(Set(lyrics) == Set(expected.lyrics), "\(file) \(expected.name) lyrics")
        }
    }
}
