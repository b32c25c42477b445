import Testing

@testable import ChoirScore

/// Where music21's reading of a corpus file departs from the MusicXML 4.0 specification, and choir follows
/// the specification. Each departure is shown on a minimal score of its own.
enum ReferenceErrors {
    typealias Row = CorpusTests.Row

    /// Notes of chords in which only some notes are tied. music21 ties whole chords, so it splits these;
    /// choir merges each tied note on its own. Per file and part: (choir's notes, music21's notes).
    static let known: [String: [String: (ours: Set<Row>, theirs: Set<Row>)]] = [
        "beach_prayer_of_a_tired_child.musicxml": [
            "Piano": (
                ours: rows([[104, 3, 70], [104, 3, 77], [109, 4, 75], [110, 3, 63], [118, 6, 55]]),
                // music21 also drops the tied G3 of measures 30-31 altogether.
                theirs: rows([
                    [104, 2, 70], [104, 2, 77], [106, 1, 70], [106, 1, 77], [109, 3, 75], [110, 2, 63],
                    [112, 1, 63], [112, 1, 75],
                ])
            )
        ],
        "beethoven_opus18no1_movement1.mxl": [
            "Violin II": (ours: rows([[120, 4, 60]]), theirs: rows([[120, 3, 60], [123, 1, 60]]))
        ],
    ]

    private static func rows(_ values: [[Double]]) -> Set<Row> { Set(values.map(Row.init)) }

    /// Parts with an empty `<part-name>`: music21 names them after its own instrument for the MIDI program
    /// ("Choir"); choir uses the General MIDI program name ("Choir Aahs").
    static let unnamedParts = ["handel_rinaldo_Lascia_chio_pianga.mxl": "Choir"]
}

/// The departures above, each on a minimal score.
struct ReferenceErrorTests {
    /// MusicXML 4.0, `<tie>`: "The tie element indicates that a tie begins or ends with this note."
    /// Ties belong to notes, not chords: in a chord where only C4 is tied, C4 sounds on and E4 is struck again.
    @Test func tiesBelongToNotesNotChords() throws {
        let score = try ScoreFixtures.read(
            ScoreFixtures.partwise(
                [
                    ScoreFixtures.note("C4", 4, extra: "<tie type=\"start\"/>") + ScoreFixtures.note("E4", 4, before: "<chord/>"),
                    ScoreFixtures.note("C4", 1, extra: "<tie type=\"stop\"/>")
                        + ScoreFixtures.note("E4", 1, before: "<chord/>") + ScoreFixtures.rest(3),
                ], time: "4/4"))
        #expect(score.firstPartNotes == [[0, 5, 60], [0, 4, 64], [4, 1, 64]])
    }

    /// MusicXML 4.0, `<measure>` (partwise): a score-partwise document is "a series of parts, each
    /// containing a series of measures" that are the same measures in every part. The measure numbered 2 of
    /// one part starts with the measure numbered 2 of every other part, so one part's under-full measure
    /// does not delay that part for the rest of the piece, as music21's part-by-part layout does.
    @Test func measuresAreSharedByAllParts() throws {
        let xml = """
            <score-partwise version="4.0">
              <part-list><score-part id="P1"><part-name>Upper</part-name></score-part>
                <score-part id="P2"><part-name>Lower</part-name></score-part></part-list>
              <part id="P1">
                <measure number="1"><attributes><divisions>1</divisions><time><beats>3</beats><beat-type>4</beat-type></time></attributes>
                  \(ScoreFixtures.note("G4", 3))</measure>
                <measure number="2">\(ScoreFixtures.note("A4", 3))</measure>
              </part>
              <part id="P2">
                <measure number="1"><attributes><divisions>1</divisions></attributes>\(ScoreFixtures.note("C3", 2))</measure>
                <measure number="2">\(ScoreFixtures.note("D3", 3))</measure>
              </part>
            </score-partwise>
            """
        let score = try ScoreFixtures.read(xml)
        #expect(score.parts[1].notes.map(\.onset) == [Rational(0), Rational(3)])
        #expect(score.parts[1].misfitMeasures == [0: Rational(-1)])
        #expect(score.parts[0].misfitMeasures.isEmpty)
    }
}
