import Testing

@testable import ChoirScore

private typealias F = ScoreFixtures

/// Encoding slips that real exports carry, each on a minimal score: read as a musician reads the page, and
/// each repair named with its measure.
struct EncodingSlipTests {
    private static let start = "<tie type=\"start\"/>", stop = "<tie type=\"stop\"/>"

    /// Two parts in one document; `upper` and `lower` are each part's measures.
    private static func twoParts(_ upper: [String], _ lower: [String], time: String = "4/4") -> String {
        let beats = time.split(separator: "/")
        func part(_ id: String, _ measures: [String]) -> String {
            "<part id=\"\(id)\">"
                + measures.enumerated().map { index, content in
                    let attributes =
                        index > 0
                        ? ""
                        : "<attributes><divisions>1</divisions><time><beats>\(beats[0])</beats>"
                            + "<beat-type>\(beats[1])</beat-type></time></attributes>"
                    return "<measure number=\"\(index + 1)\">\(attributes)\(content)</measure>"
                }.joined() + "</part>"
        }
        return """
            <score-partwise version="4.0"><part-list>
            <score-part id="P1"><part-name>Upper</part-name></score-part>
            <score-part id="P2"><part-name>Lower</part-name></score-part></part-list>
            \(part("P1", upper))\(part("P2", lower))
            </score-partwise>
            """
    }

    @Test func aTieWithoutStopEndsOnTheNextNoteOfItsPitchInItsVoice() throws {
        let score = try F.read(
            F.partwise([
                F.note("C5", 4, extra: Self.start),
                F.note("C5", 2) + F.note("D5", 2, extra: Self.start),
                // The next note of the voice is another pitch: the tie ends on nothing.
                F.note("E5", 4),
            ]))
        #expect(score.firstPartNotes == [[0, 6, 72], [6, 2, 74], [8, 4, 76]])
        #expect(score.repairs == [Repair(.unendedTie, part: "Voice", measureIndex: 0)])
        #expect(score.repairLines == ["tie without an end, ended on the next note of its pitch: Voice m. 1"])
    }

    @Test func anotherVoiceDoesNotEndATieWithoutStop() throws {
        let voice2 = "<voice>2</voice>"
        let score = try F.read(
            F.partwise([
                F.note("G4", 4, extra: Self.start) + "<backup><duration>4</duration></backup>" + F.note("C4", 4, extra: voice2),
                F.note("E4", 4) + "<backup><duration>4</duration></backup>" + F.note("G4", 4, extra: voice2),
            ]))
        #expect(score.firstPartNotes == [[0, 4, 60], [0, 4, 67], [4, 4, 64], [4, 4, 67]])
        #expect(score.repairs.isEmpty)
    }

    @Test func continueTiesChainAndLetRingTiesNothing() throws {
        let tied = { (type: String) in "<notations><tied type=\"\(type)\"/></notations>" }
        let score = try F.read(
            F.partwise([
                F.note("A4", 2, extra: tied("start")) + F.note("A4", 2, extra: tied("continue")),
                F.note("A4", 2, extra: tied("stop")) + F.note("B4", 1, extra: tied("let-ring")) + F.note("B4", 1),
            ]))
        #expect(score.firstPartNotes == [[0, 6, 69], [6, 1, 71], [7, 1, 71]])
        // The ties are drawn only (`<tied>`, no `<tie>`): held as drawn, and said once for the chain.
        #expect(score.repairs == [Repair(.drawnTie, part: "Voice", measureIndex: 0)])
    }

    @Test func chordsWithTiesAndElementsBetweenTheirNotes() throws {
        let chord = "<chord/>"
        let direction = "<direction><direction-type><dynamics><p/></dynamics></direction-type></direction>"
        let harmony = "<harmony><root><root-step>C</root-step></root><kind>major</kind></harmony>"
        let score = try F.read(
            F.partwise([
                // A direction and a chord symbol between the notes of one chord; every note but E starts a tie.
                F.note("C4", 4, extra: Self.start) + direction + F.note("E4", 4, before: chord) + harmony
                    + F.note("G4", 4, extra: Self.start, before: chord),
                // The writer gave the stop to C only; G's tie still ends here.
                F.note("C4", 2, extra: Self.stop) + F.note("E4", 2, before: chord) + F.note("G4", 2, before: chord)
                    + F.rest(2),
            ]))
        #expect(score.firstPartNotes == [[0, 6, 60], [0, 4, 64], [0, 6, 67], [4, 2, 64]])
        #expect(score.repairs == [Repair(.unendedTie, part: "Voice", measureIndex: 0)])
    }

    @Test func aMeasureEveryPartKeepsShortIsShort() throws {
        // A 3-beat measure in 4/4 before a change to 3/4; the lower part rests through it with a whole rest.
        let threeFour = "<attributes><time><beats>3</beats><beat-type>4</beat-type></time></attributes>"
        let score = try F.read(
            Self.twoParts(
                [F.note("C5", 4), F.note("D5", 3), threeFour + F.note("E5", 3)],
                [
                    F.note("C4", 4), "<note><rest measure=\"yes\"/><duration>4</duration><type>whole</type></note>",
                    threeFour + F.note("E4", 3),
                ]))
        #expect(score.measures.map(\.duration) == [4, 3, 3].map { Rational($0) })
        #expect(score.parts[1].notes.map(\.onset) == [Rational(0), Rational(7)])
        #expect(score.repairLines == ["whole-measure rest of the wrong length, read as the whole measure: Lower m. 2"])
    }

    @Test func partsThatDisagreeOnAMeasureStayInStep() throws {
        let score = try F.read(
            Self.twoParts(
                [F.note("C5", 4), F.note("D5", 4)],
                [F.note("C4", 4) + F.note("D4", 1), F.note("E4", 4)]))
        // Two parts disagree; the longer wins the tie, and the other part's notes stay where the page has them.
        #expect(score.measures.map(\.duration) == [5, 4].map { Rational($0) })
        #expect(score.parts[0].notes.map(\.onset) == [Rational(0), Rational(5)])
        #expect(score.repairLines == ["measure shorter or longer than in the other parts, later notes kept in step: Upper m. 1"])
    }

    @Test func wholeMeasureRestsLastTheMeasureWhateverTheyClaim() throws {
        let whole = "<note><rest/><duration>4</duration><type>whole</type></note>"
        let breve = "<note><rest/><duration>8</duration><type>breve</type></note>"
        // Two whole rests in one 4/4 measure of the lower part, and a breve rest in the next.
        let score = try F.read(
            Self.twoParts(
                [F.note("C5", 4), F.note("D5", 4), F.note("E5", 4)],
                [whole + whole, breve, F.note("E4", 4)]))
        #expect(score.measures.map(\.start) == [0, 4, 8].map { Rational($0) })
        #expect(score.parts[1].notes.map(\.onset) == [Rational(8)])
        #expect(
            score.repairLines == [
                "whole-measure rest of the wrong length, read as the whole measure: Lower m. 2",
                "more rests than the measure holds (two whole rests, say), read as the measure's rest: Lower m. 1",
            ])

        // Alone in the score, a breve rest in 4/4 still lasts one 4/4 measure.
        let alone = try F.read(F.partwise([breve, F.note("G4", 4)]))
        #expect(alone.firstPartNotes == [[4, 4, 67]])
        #expect(alone.repairLines == ["whole-measure rest of the wrong length, read as the whole measure: Voice m. 1"])
    }

    /// Two whole rests one after the other in one voice (no `<backup>`) are the measure's rest as a musician
    /// reads it: the part stays in step with the others, and `choir info` says so, with the part and measures.
    @Test func twoWholeRestsInOneMeasureAreOneMeasureRest() throws {
        let whole = "<note><rest/><duration>4</duration><voice>1</voice><type>whole</type></note>"
        let score = try F.read(
            Self.twoParts(
                [F.note("C5", 4), F.note("D5", 4), F.note("E5", 4), F.note("F5", 4)],
                [whole + whole, F.note("D4", 4), whole + whole, F.note("F4", 4)]))
        #expect(score.measures.map(\.duration) == [4, 4, 4, 4].map { Rational($0) })
        #expect(score.parts[1].notes.map(\.onset) == [Rational(4), Rational(12)])
        #expect(score.parts[1].misfitMeasures.isEmpty)
        #expect(
            score.repairs == [Repair(.extraRests, part: "Lower", measureIndex: 0), Repair(.extraRests, part: "Lower", measureIndex: 2)])
        #expect(
            score.repairLines == ["more rests than the measure holds (two whole rests, say), read as the measure's rest: Lower mm. 1, 3"])

        // Rests that fall short of the measure leave it short in that part only: the measure keeps its length.
        let short = try F.read(Self.twoParts([F.note("C5", 4), F.note("D5", 4)], [F.rest(1) + F.rest(2), F.note("D4", 4)]))
        #expect(short.parts[1].notes.map(\.onset) == [Rational(4)])
        #expect(short.repairLines == ["measure shorter or longer than in the other parts, later notes kept in step: Lower m. 1"])
    }

    @Test func jumpsWithTheirSoundAreNoRepair() throws {
        let direction = { (text: String, sound: String) in
            "<direction><direction-type><words>\(text)</words></direction-type><sound \(sound)/></direction>"
        }
        let score = try F.read(
            F.partwise([
                F.note("C4", 4) + direction("Fine", "fine=\"yes\""), direction("D.C. al Fine", "dacapo=\"yes\"") + F.note("D4", 4),
            ]))
        #expect(score.measures.map(\.daCapo) == [false, true])
        #expect(score.measures.map(\.fine) == [true, false])
        #expect(score.repairs.isEmpty)

        // A segno printed without <sound>, which no D.S. uses, changes nothing and is no repair.
        let segno = "<direction><direction-type><segno/></direction-type></direction>"
        #expect(try F.read(F.partwise([segno + F.note("C4", 4)])).repairs.isEmpty)
    }

    /// Every kind of repair is announced by `choir info`, with its part and measures; each on a minimal score.
    @Test(arguments: Repair.Kind.allCases)
    func everyRepairIsAnnounced(kind: Repair.Kind) throws {
        let (xml, notes, line) = Self.example(of: kind)
        let score = try F.read(xml)
        #expect(Set(score.repairs.map(\.kind)) == [kind])
        #expect(score.repairLines == [line])
        if let notes { #expect(score.firstPartNotes == notes) }
    }

    /// A minimal score with one slip of `kind`, its first part's notes as read (nil where another test shows
    /// them), and the line `choir info` gives. The switch has no default, so a new kind needs its example.
    private static func example(of kind: Repair.Kind) -> (xml: String, notes: [[Double]]?, line: String) {
        let summary = kind.summary
        let divisions = "<attributes><divisions>1</divisions></attributes>"
        switch kind {
        case .undeclaredPart:
            return (
                """
                <score-partwise><part-list><score-part id="P1"><part-name>Soprano</part-name></score-part></part-list>
                <part id="P1"><measure number="1">\(divisions)\(F.note("C5", 4))</measure></part>
                <part id="P2"><measure number="1">\(divisions)\(F.note("C4", 4))</measure></part></score-partwise>
                """, [[0, 4, 72]], "\(summary): Part 2"
            )
        case .partWithoutID:
            return (
                """
                <score-partwise><part-list><score-part id="P1"><part-name>Alto</part-name></score-part></part-list>
                <part><measure number="1">\(divisions)\(F.note("A4", 4))</measure></part></score-partwise>
                """, [[0, 4, 69]], "\(summary): Alto"
            )
        case .repeatedPartID:
            return (
                """
                <score-partwise><part-list><score-part id="P1"><part-name>Soprano</part-name></score-part>
                <score-part id="P2"><part-name>Alto</part-name></score-part></part-list>
                <part id="P1"><measure number="1">\(divisions)\(F.note("C5", 4))</measure></part>
                <part id="P1"><measure number="1">\(divisions)\(F.note("E4", 4))</measure></part></score-partwise>
                """, [[0, 4, 72]], "\(summary): Alto"
            )
        case .midiProgram:
            let program = "<midi-instrument id=\"P1-I1\"><midi-program>0</midi-program></midi-instrument>"
            return (F.partwise([F.note("C4", 4)], partList: program), [[0, 4, 60]], "\(summary): Voice")
        case .noDivisions:
            return (
                """
                <score-partwise><part-list><score-part id="P1"><part-name>Tenor</part-name></score-part></part-list>
                <part id="P1"><measure number="1">\(F.note("C4", 4))</measure></part></score-partwise>
                """, [[0, 4, 60]], "\(summary): Tenor m. 1"
            )
        case .noDuration:
            let dottedHalf = "<note><pitch><step>E</step><octave>4</octave></pitch><type>half</type><dot/></note>"
            return (
                F.partwise([F.note("C4", 1) + dottedHalf, F.note("G4", 4)]), [[0, 1, 60], [1, 3, 64], [4, 4, 67]], "\(summary): Voice m. 1"
            )
        case .staffPastStaves:
            return (F.partwise([F.note("C4", 4, extra: "<staff>7</staff>")]), [[0, 4, 60]], "\(summary): Voice m. 1")
        case .backupPastStart:
            let backup = "<backup><duration>6</duration></backup>"
            return (
                F.partwise([F.note("C5", 4), F.note("D5", 4) + backup + F.note("G3", 4, extra: "<voice>2</voice>")]),
                [[0, 4, 72], [4, 4, 55], [4, 4, 74]], "\(summary): Voice m. 2"
            )
        case .drawnTie:
            let tied = { (type: String) in "<notations><tied type=\"\(type)\"/></notations>" }
            return (
                F.partwise([F.note("F4", 2) + F.note("A4", 2, extra: tied("start")), F.note("A4", 2, extra: tied("stop")) + F.rest(2)]),
                [[0, 2, 65], [2, 4, 69]], "\(summary): Voice m. 1"
            )
        case .unendedTie:
            return (F.partwise([F.note("B4", 4, extra: Self.start), F.note("B4", 4)]), [[0, 8, 71]], "\(summary): Voice m. 1")
        case .tieIntoSyllable:
            let lyric = "<lyric><text>men</text></lyric>"
            return (
                F.partwise([F.note("B4", 4, extra: Self.start), F.note("B4", 4, extra: lyric)]), [[0, 4, 71], [4, 4, 71]],
                "\(summary): Voice m. 1"
            )
        case .measureRest:
            let wholeRest = "<note><rest measure=\"yes\"/><duration>4</duration></note>"
            return (
                F.partwise([F.note("C4", 3), wholeRest, F.note("D4", 3)], time: "3/4"), [[0, 3, 60], [6, 3, 62]], "\(summary): Voice m. 2"
            )
        case .extraRests:
            return (F.partwise([F.rest(4) + F.rest(4), F.note("D4", 4)]), [[4, 4, 62]], "\(summary): Voice m. 1")
        case .measureLength:
            return (Self.twoParts([F.note("C5", 4), F.note("D5", 4)], [F.note("C4", 3), F.note("D4", 4)]), nil, "\(summary): Lower m. 1")
        case .repeatTimes:
            let repeatMany = "<barline location=\"right\"><repeat direction=\"backward\" times=\"500\"/></barline>"
            return (F.partwise([F.note("C4", 4), F.note("D4", 4) + repeatMany]), [[0, 4, 60], [4, 4, 62]], "\(summary): Voice m. 2")
        case .tempoOutOfRange:
            return (
                F.partwise([F.note("C4", 4), "<sound tempo=\"0\"/>" + F.note("D4", 4)]), [[0, 4, 60], [4, 4, 62]],
                "\(summary): Voice m. 2"
            )
        case .negativeDynamics:
            // As some exports of Clara Schumann's polonaises in music21's corpus write it.
            return (
                F.partwise([F.note("C4", 4), "<sound dynamics=\"-1.11\"/>" + F.note("D4", 4)]), [[0, 4, 60], [4, 4, 62]],
                "\(summary): Voice m. 2"
            )
        case .printedJump:
            let words = { (text: String) in "<direction><direction-type><words>\(text)</words></direction-type></direction>" }
            return (
                F.partwise([F.note("C4", 4) + words("Fine"), words("D.C. al Fine") + F.note("D4", 4)]),
                [[0, 4, 60], [4, 4, 62]], "\(summary): Voice mm. 1, 2"
            )
        }
    }

    /// A `<staff>` the part does not have (staff 3 of a piano part, staff 0) is read on its nearest staff, where the
    /// note can only be printed, and said; so is its lyric.
    @Test func aStaffThePartDoesNotHaveIsItsNearest() throws {
        let onStaff = { (pitch: String, staff: Int) in
            F.note(pitch, 1, extra: "<staff>\(staff)</staff><lyric><text>\(pitch)</text></lyric>")
        }
        let score = try F.read(
            F.partwise([
                "<attributes><staves>2</staves></attributes>" + onStaff("C5", 1) + onStaff("E4", 2) + onStaff("D4", 3)
                    + onStaff("G4", 0),
                onStaff("A4", 2) + F.rest(3),
            ]))
        #expect(score.parts[0].notes.map(\.staff) == [1, 2, 2, 1, 2])
        #expect(score.parts[0].lyrics.map(\.staff) == [1, 2, 2, 1, 2])
        #expect(score.repairs == [Repair(.staffPastStaves, part: "Voice", measureIndex: 0)])
    }

    /// A backward repeat to be played no times, or a thousand, is held to 1 to 100 times, and said; one that says
    /// nothing of its times is played twice, as printed, with nothing to say.
    @Test func aRepeatPlayedOutOfAllReasonIsHeldToTheRange() throws {
        let repeatTimes = { (times: String) in
            "<barline location=\"right\"><repeat direction=\"backward\"\(times)/></barline>"
        }
        let score = try F.read(
            F.partwise([
                F.note("C4", 4) + repeatTimes(" times=\"0\""), F.note("D4", 4) + repeatTimes(" times=\"1000\""),
                F.note("E4", 4) + repeatTimes(" times=\"3\""), F.note("F4", 4) + repeatTimes(""),
            ]))
        #expect(score.measures.map(\.repeatTimes) == [1, 100, 3, nil])
        #expect(
            score.repairs == [Repair(.repeatTimes, part: "Voice", measureIndex: 0), Repair(.repeatTimes, part: "Voice", measureIndex: 1)])
    }

    /// A tempo of 0, or faster than 2000 quarter notes a minute, by `<sound>` or by a metronome mark, is left out and
    /// said: the tempo before goes on. A `<midi-program>` past General MIDI's 128 is left out and said: the part
    /// sounds as if it had none (a voice for a sung part).
    @Test func aTempoOrProgramOutOfAllReasonIsLeftOut() throws {
        let metronome = { (perMinute: String) in
            "<direction><direction-type><metronome><beat-unit>quarter</beat-unit><per-minute>\(perMinute)</per-minute>"
                + "</metronome></direction-type></direction>"
        }
        let program = "<midi-instrument id=\"P1-I1\"><midi-program>129</midi-program></midi-instrument>"
        let score = try F.read(
            F.partwise(
                [
                    "<sound tempo=\"90\"/>" + F.note("C4", 4), "<sound tempo=\"0\"/>" + F.note("D4", 4),
                    metronome("5000") + F.note("E4", 4), metronome("60") + F.note("F4", 4),
                ], partName: "Soprano", partList: program))
        #expect(score.tempos.map(\.quarterNotesPerMinute) == [90, 60])
        #expect(score.tempos.map(\.measureIndex) == [0, 3])
        #expect(score.parts[0].midiProgram == nil)
        #expect(
            score.repairs == [
                Repair(.midiProgram, part: "Soprano"), Repair(.tempoOutOfRange, part: "Soprano", measureIndex: 1),
                Repair(.tempoOutOfRange, part: "Soprano", measureIndex: 2),
            ])
    }

    /// Dynamics below 0, by `<sound>` or on a note, are left out and said: the dynamics before go on.
    @Test func dynamicsBelowNothingAreLeftOut() throws {
        let score = try F.read(
            F.partwise([
                "<sound dynamics=\"50\"/>" + F.note("C4", 2) + "<sound dynamics=\"-1.11\"/>" + F.note("D4", 2),
                "<note dynamics=\"-20\"><pitch><step>E</step><octave>4</octave></pitch><duration>4</duration></note>",
            ]))
        #expect(score.parts[0].notes.map(\.velocity) == [45, 45, 45])
        #expect(
            score.repairs == [
                Repair(.negativeDynamics, part: "Voice", measureIndex: 0), Repair(.negativeDynamics, part: "Voice", measureIndex: 1),
            ])
    }

    /// 41h-TooManyParts of the LilyPond suite has two such parts; their staves are on the page, so choir reads
    /// them, where music21 drops them.
    @Test func aPartTheListNeverDeclaredIsReadAndNamed() throws {
        let xml = """
            <score-partwise version="4.0">
              <part-list><score-part id="P1"><part-name>Soprano</part-name></score-part></part-list>
              <part id="P1"><measure number="1"><attributes><divisions>1</divisions></attributes>\(F.note("C5", 4))</measure></part>
              <part id="P7"><measure number="1"><attributes><divisions>1</divisions></attributes>\(F.note("C4", 4))</measure></part>
            </score-partwise>
            """
        let score = try F.read(xml)
        #expect(score.parts.map(\.name) == ["Soprano", "Part 2"])
        #expect(score.parts[1].notes.map(\.midi) == [60])
        #expect(score.repairLines == ["part missing from the part list, read all the same: Part 2"])
    }

    @Test func aPartWithoutIDIsTheDeclaredPartItMustBe() throws {
        let body = "<measure number=\"1\"><attributes><divisions>1</divisions></attributes>\(F.note("A4", 4))</measure>"
        let score = try F.read(
            """
            <score-partwise><part-list><score-part id="P1"><part-name>Alto</part-name></score-part></part-list>
            <part>\(body)</part></score-partwise>
            """)
        #expect(score.parts.map(\.name) == ["Alto"])
        #expect(score.firstPartNotes == [[0, 4, 69]])
        #expect(score.repairLines == ["part without an id, read as the declared part it must be: Alto"])

        // With every declared part already read, a part without an id is damage, and refused.
        let damaged = """
            <score-partwise><part-list><score-part id="P1"><part-name>Alto</part-name></score-part></part-list>
            <part id="P1">\(body)</part>
            <part>\(body)</part></score-partwise>
            """
        #expect(F.error(damaged) == "test.musicxml:3:1: expected an id attribute on <part>")
    }

    @Test func aPartWithAnotherPartsIDIsTheDeclaredPartItMustBe() throws {
        let body = { (pitch: String) in
            "<measure number=\"1\"><attributes><divisions>1</divisions></attributes>\(F.note(pitch, 4))</measure>"
        }
        let score = try F.read(
            """
            <score-partwise><part-list><score-part id="P1"><part-name>Soprano</part-name></score-part>
            <score-part id="P2"><part-name>Alto</part-name></score-part></part-list>
            <part id="P1">\(body("C5"))</part><part id="P1">\(body("E4"))</part></score-partwise>
            """)
        #expect(score.parts.map { $0.notes.map(\.midi) } == [[72], [64]])
        #expect(score.repairLines == ["part with another part's id, read as the declared part it must be: Alto"])

        // With every declared part already read, a repeated id is damage, and refused.
        let damaged = """
            <score-partwise><part-list><score-part id="P1"><part-name>Alto</part-name></score-part></part-list>
            <part id="P1">\(body("A4"))</part>
            <part id="P1">\(body("A4"))</part></score-partwise>
            """
        #expect(F.error(damaged) == "test.musicxml:3:1: <part id=\"P1\"> appears twice: expected one <part> per part")
    }

    @Test func aScoreWithoutDivisionsCountsInQuarterNotes() throws {
        let score = try F.read(
            """
            <score-partwise><part-list><score-part id="P1"><part-name>Tenor</part-name></score-part></part-list>
            <part id="P1"><measure number="1">\(F.note("C4", 2) + F.note("D4", 2))</measure>
            <measure number="2">\(F.note("E4", 4))</measure></part></score-partwise>
            """)
        #expect(score.firstPartNotes == [[0, 2, 60], [2, 2, 62], [4, 4, 64]])
        #expect(score.repairLines == ["no <divisions>, durations read in quarter notes: Tenor m. 1"])
    }

    @Test func aFivePartExportWithMissingTieStopsAndDoubleWholeRests() throws {
        let path = F.fixtures.appendingPathComponent("slips/five_voices_dolet.musicxml").path
        let score = try ScoreReader.read(contentsOf: path)
        #expect(score.parts.map(\.name) == ["Canto", "Quinto", "Alto", "Tenore", "Basso"])
        // The 3-beat measure in 4/4 before 3/4 is short in every part; the resting Quinto's rests claim more.
        #expect(score.measures.map(\.start) == [0, 4, 8, 11, 14, 17].map { Rational($0) })
        func notes(_ part: Int) -> [[Double]] {
            score.parts[part].notes.map { [$0.onset.doubleValue, $0.duration.doubleValue, $0.pitch] }
        }
        #expect(notes(0) == [[0, 4, 72], [4, 4, 74], [8, 6, 72], [17, 3, 77]])
        #expect(notes(1) == [[11, 1, 72], [12, 1, 74], [13, 1, 76], [14, 3, 77], [17, 3, 72]])
        #expect(notes(3) == [[0, 6, 57], [6, 2, 58], [8, 3, 55], [11, 3, 57], [14, 3, 60], [17, 3, 60]])
        #expect(
            score.repairLines == [
                "tie without an end, ended on the next note of its pitch: Canto mm. 1, 3; Tenore m. 1",
                "whole-measure rest of the wrong length, read as the whole measure: Canto m. 5; Quinto m. 3",
                "more rests than the measure holds (two whole rests, say), read as the measure's rest: Quinto mm. 1, 2",
            ])
    }
}
