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
}
