import ChoirBase
import Foundation
import Testing

@testable import ChoirScore

/// `choir notes`' listing of a score whose notes, beats, times and words are known by construction.
struct NoteListingTests {
    /// A pickup quarter (beat 4), then a measure repeated once; no tempo marked (♩ = 120, half a second a beat). In C,
    /// where E♭ is spelled D♯; the one verse's words are sung again on the repeat.
    static let score = ScoreFixtures.partwise([
        ScoreFixtures.note("G3", 1, extra: "<lyric><syllabic>begin</syllabic><text>A</text></lyric>"),
        "<barline location=\"left\"><repeat direction=\"forward\"/></barline>"
            + ScoreFixtures.note("C4", 2, extra: "<lyric><syllabic>end</syllabic><text>men</text></lyric>")
            + ScoreFixtures.note("Eb4", 2) + "<barline location=\"right\"><repeat direction=\"backward\"/></barline>",
    ]).replacingOccurrences(of: "<measure number=\"1\">", with: "<measure number=\"0\" implicit=\"yes\">")

    static func listing(unfolded: Bool) throws -> NoteListing {
        let score = try ScoreFixtures.read(score)
        return NoteListing(score: score, lines: score.lines, chosen: [0], timeline: Timeline(score, unfolded: unfolded))
    }

    @Test func theTextListsEachNoteAsPlayedWithItsBeatTimeAndSyllable() throws {
        let text = try Self.listing(unfolded: true).text
        #expect(
            text == """
                Voice
                  measure  beat   onset  length  note  midi    time  lyric
                        0     4       0       1    G3    55   0.000  A-
                        2     1       1       2    C4    60   0.500  men
                        2     3       3       2   D♯4    63   1.500
                        2     1       5       2    C4    60   2.500  men
                        2     3       7       2   D♯4    63   3.500

                """, "\(text)")
    }

    @Test func theJSONSaysTheOrderAndEachNotesRow() throws {
        let json = try Self.listing(unfolded: false).json.serialized()
        #expect(json.contains("\"order\": \"written\""), "\(json)")
        #expect(
            json.contains("[1.0, 2.0, 60.0, 0.5, \"2\", \"1\", \"Voice\"],\n        [3.0, 2.0, 63.0, 1.5, \"2\", \"1\", \"Voice\"]\n"),
            "\(json)")
        #expect(try Self.listing(unfolded: true).json.serialized().contains("\"order\": \"playback\""))
    }

    /// A listing of a file: the same as of the score read; a verse it has not, a line it has not, and a file that does
    /// not read are each told apart, the slips without the file (the front end names it as the singer did).
    @Test func aFilesListingIsTheScoresOrWhyNot() throws {
        let path = NSTemporaryDirectory() + "choir-listing-\(UUID().uuidString).musicxml"
        try Self.score.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try NoteListing(file: path, lines: []).text == (try Self.listing(unfolded: true).text))
        #expect(try NoteListing(file: path, lines: ["1"], unfolded: false).text == (try Self.listing(unfolded: false).text))
        func failure(_ make: () throws(NoteListing.Failure) -> NoteListing) -> String {
            do {
                _ = try make()
                return "none"
            } catch {
                switch error {
                case .request(let problem): return "request: " + problem
                case .unreadable: return "unreadable"
                }
            }
        }
        #expect(
            failure { () throws(NoteListing.Failure) in try NoteListing(file: path, lines: [], verse: 2) }.hasPrefix("request: verse 2: "))
        #expect(failure { () throws(NoteListing.Failure) in try NoteListing(file: path, lines: ["tenor"]) }.hasPrefix("request: "))
        #expect(failure { () throws(NoteListing.Failure) in try NoteListing(file: path + ".gone", lines: []) } == "unreadable")
    }

    /// A score's identity holds the piece when the file reads, and is its bytes' alone when it does not.
    @Test func aFilesIdentityHoldsThePieceWhenItReads() throws {
        let path = NSTemporaryDirectory() + "choir-identity-\(UUID().uuidString).musicxml"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.score.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try ScoreReader.identity(ofFile: path).piece != nil)
        try "not a score".write(toFile: path, atomically: true, encoding: .utf8)
        let unread = try ScoreReader.identity(ofFile: path)
        #expect(unread.piece == nil)
        #expect(unread == (try ScoreIdentity(contentsOf: path)))
        #expect(throws: ScoreError.self) { try ScoreReader.identity(ofFile: path + ".gone") }
    }
}
