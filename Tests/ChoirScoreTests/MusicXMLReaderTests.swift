import Testing

@testable import ChoirScore

/// The reader on small scores whose notes are known, one MusicXML feature at a time.
struct MusicXMLReaderTests {
    typealias F = ScoreFixtures

    /// A score headed by `header` (what comes before the part list).
    static func titled(_ header: String) throws -> Score {
        try F.read(F.partwise([F.note("C4", 4)]).replacingOccurrences(of: "<part-list>", with: header + "<part-list>"))
    }

    /// The title is the work title, else the movement title, else the title credit, else the largest untyped credit
    /// on the first page (MusicXML 1 has no credit types); a title that is a file's name or empty is passed over, and
    /// without any the piece is named by its file.
    @Test(
        arguments: [
            ("<work><work-title>Work</work-title></work><movement-title>Movement</movement-title>", "Work"),
            ("<work><work-title> </work-title></work><movement-title>Movement</movement-title>", "Movement"),
            ("<work><work-title>bwv14.5.mxl</work-title></work><movement-title>Hymn.MusicXML</movement-title>", nil),
            (
                "<movement-title>x.xml</movement-title><credit><credit-type>subtitle</credit-type><credit-words>Sub</credit-words></credit>"
                    + "<credit><credit-type>title</credit-type><credit-words>Credited</credit-words></credit>", "Credited"
            ),
            (
                "<credit page=\"1\"><credit-words font-size=\"6\">© someone</credit-words></credit>"
                    + "<credit><credit-words font-size=\"12\">Largest</credit-words></credit>"
                    + "<credit><credit-words font-size=\"20\">7</credit-words></credit>"
                    + "<credit page=\"2\"><credit-words font-size=\"30\">Page two</credit-words></credit>"
                    + "<credit><credit-words>No size</credit-words></credit>", "Largest"
            ),
            (
                "<credit><credit-words font-size=\"20\">Untyped</credit-words></credit>"
                    + "<credit><credit-type>title</credit-type><credit-words font-size=\"9\">Typed</credit-words></credit>", "Typed"
            ),
            ("", nil),
        ] as [(String, String?)])
    func theTitleComesFromTheWorkTheMovementOrTheCredits(header: String, title: String?) throws {
        let score = try Self.titled(header)
        #expect(score.title == title)
        #expect(score.name(file: "scores/hymn.v2.musicxml") == title ?? "hymn.v2")
    }

    @Test func metadataAndMeasures() throws {
        let xml = """
            <score-partwise version="4.0">
              <work><work-title>Hymn</work-title></work>
              <identification><creator type="lyricist">Someone</creator><creator type="composer">J. Doe
                (1900–1970)</creator></identification>
              <part-list><score-part id="P1"><part-name>Tenor\r\n1</part-name>
                <midi-instrument id="I1"><midi-program>72</midi-program></midi-instrument></score-part></part-list>
              <part id="P1">
                <measure number="0" implicit="yes"><attributes><divisions>2</divisions>
                  <key><fifths>-3</fifths><mode>minor</mode></key><time><beats>3</beats><beat-type>4</beat-type></time>
                  </attributes>\(F.note("G4", 2))</measure>
                <measure number="1">\(F.note("C5", 6))</measure>
                <measure number="2"><attributes><time><beats>6</beats><beat-type>8</beat-type></time></attributes>
                  \(F.note("C5", 6))</measure>
              </part>
            </score-partwise>
            """
        let score = try F.read(xml)
        #expect(score.title == "Hymn")
        // Names broken over lines as printed are read on one line, for one-line layouts such as `choir info`.
        #expect(score.composer == "J. Doe (1900–1970)")
        #expect(score.parts[0].name == "Tenor 1")
        #expect(score.parts[0].midiProgram == 71)
        #expect(score.measures.map(\.number) == ["0", "1", "2"])
        #expect(score.measures.map(\.isImplicit) == [true, false, false])
        #expect(score.measures.map(\.start) == [Rational(0), Rational(1), Rational(4)])
        #expect(score.measures.map(\.duration) == [Rational(1), Rational(3), Rational(3)])
        #expect(score.measures.map(\.time.description) == ["3/4", "3/4", "6/8"])
        #expect(score.measures[0].key.description == "C minor")
        #expect(score.firstPartNotes == [[0, 1, 67], [1, 3, 72], [4, 3, 72]])
    }

    @Test func divisionsMayChangeMidPart() throws {
        let score = try F.read(
            F.partwise([
                F.note("C4", 1) + F.note("D4", 3),
                "<attributes><divisions>3</divisions></attributes>" + F.note("E4", 1) + F.note("F4", 2) + F.note("G4", 9),
            ]))
        #expect(score.parts[0].notes.map(\.onset) == [Rational(0), Rational(1), Rational(4), Rational(13, 3), Rational(5)])
        #expect(score.parts[0].notes[2].duration == Rational(1, 3))
    }

    @Test func backupForwardChordsVoicesAndStaves() throws {
        let score = try F.read(
            F.partwise(
                [
                    "<attributes><staves>2</staves></attributes>" + F.note("E4", 2, extra: "<voice>1</voice>")
                        + F.note("G4", 2, extra: "<voice>1</voice>", before: "<chord/>")
                        + F.note("F4", 2, extra: "<voice>1</voice>")
                        + "<backup><duration>4</duration></backup>"
                        + "<forward><duration>1</duration><voice>2</voice></forward>"
                        + F.note("C4", 3, extra: "<voice>2</voice><staff>2</staff>")
                ], divisions: 1))
        let notes = score.parts[0].notes
        #expect(score.firstPartNotes == [[0, 2, 64], [0, 2, 67], [1, 3, 60], [2, 2, 65]])
        #expect(notes.map(\.voice) == ["1", "1", "2", "1"])
        #expect(notes.map(\.staff) == [1, 1, 2, 1])
        #expect(score.measures[0].duration == Rational(4))
        #expect(score.repairs.isEmpty)
    }

    @Test func graceNotesTakeNoTimeAndCueNotesAreSilent() throws {
        let score = try F.read(
            F.partwise([
                "<note><grace/><pitch><step>D</step><octave>4</octave></pitch><type>eighth</type></note>"
                    + F.note("C4", 1) + F.note("A4", 1, before: "<cue/>") + F.note("E4", 2)
            ]))
        #expect(score.firstPartNotes == [[0, 1, 60], [2, 2, 64]])
    }

    @Test func wholeMeasureRestsAndMeasuresWithoutTimeSignature() throws {
        let xml = """
            <score-partwise version="4.0">
              <part-list><score-part id="P1"><part-name>A</part-name></score-part></part-list>
              <part id="P1">
                <measure number="1"><attributes><divisions>4</divisions></attributes>
                  <note><rest measure="yes"/><duration>16</duration></note></measure>
                <measure number="2">\(F.note("A4", 16))</measure>
                <measure number="3"/>
                <measure number="4">\(F.note("B4", 4))</measure>
              </part>
            </score-partwise>
            """
        let score = try F.read(xml)
        #expect(score.measures.map(\.time) == Array(repeating: .common, count: 4))
        // An empty measure still lasts a bar of the time in force.
        #expect(score.firstPartNotes == [[4, 4, 69], [12, 1, 71]])
    }

    @Test func transpositionIsApplied() throws {
        // A B-flat clarinet: written D5 sounds C5; an octave-change moves it a further octave.
        let score = try F.read(
            F.partwise(
                [
                    "<attributes><transpose><diatonic>-1</diatonic><chromatic>-2</chromatic></transpose></attributes>"
                        + F.note("D5", 1),
                    "<attributes><transpose><diatonic>-1</diatonic><chromatic>-2</chromatic><octave-change>-1</octave-change></transpose></attributes>"
                        + F.note("D5", 1),
                ], time: "1/4"))
        #expect(score.firstPartNotes == [[0, 1, 72], [1, 1, 60]])
    }

    @Test func microtonesKeepTheirCents() throws {
        let score = try F.read(
            F.partwise(
                [
                    "<note><pitch><step>A</step><alter>-0.5</alter><octave>4</octave></pitch><duration>1</duration></note>"
                        + "<note><pitch><step>C</step><alter>1.25</alter><octave>4</octave></pitch><duration>1</duration></note>"
                ], time: "2/4"))
        let notes = score.parts[0].notes
        #expect(notes.map(\.midi) == [69, 61])
        #expect(notes.map(\.cents) == [-50, 25])
        #expect(notes.map(\.pitch) == [68.5, 61.25])
    }

    @Test func tiesMergeAcrossMeasuresAndChains() throws {
        let start = "<tie type=\"start\"/>", stop = "<tie type=\"stop\"/>"
        let score = try F.read(
            F.partwise([
                F.note("C4", 2) + F.note("G4", 2, extra: start),
                F.note("G4", 4, extra: stop + start),
                F.note("G4", 1, extra: stop) + F.note("G4", 3),
            ]))
        #expect(score.firstPartNotes == [[0, 2, 60], [2, 7, 67], [9, 3, 67]])
    }

    @Test func tiedNotationAloneAlsoTies() throws {
        let score = try F.read(
            F.partwise([
                F.note("E4", 4, extra: "<notations><tied type=\"start\"/></notations>"),
                F.note("E4", 4, extra: "<notations><tied type=\"stop\"/></notations>"),
            ]))
        #expect(score.firstPartNotes == [[0, 8, 64]])
    }

    @Test func dynamicsSetVelocity() throws {
        let score = try F.read(
            F.partwise([
                F.note("C4", 1)
                    + "<direction><direction-type><dynamics><pp/></dynamics></direction-type></direction>"
                    + F.note("D4", 1)
                    + "<direction><direction-type><dynamics><f/></dynamics></direction-type><sound dynamics=\"50\"/></direction>"
                    + F.note("E4", 1)
                    + "<note dynamics=\"120\"><pitch><step>F</step><octave>4</octave></pitch><duration>1</duration></note>"
            ]))
        // Default mezzo-forte, pp, then <sound dynamics> (50% of forte's 90) over the printed f, then the note's own.
        #expect(score.parts[0].notes.map(\.velocity) == [80, 36, 45, 108])
    }

    @Test func lyricsKeepSyllablesVersesElisionsAndExtenders() throws {
        let score = try F.read(
            F.partwise([
                F.note(
                    "C4", 1,
                    extra: """
                        <lyric number="1"><syllabic>begin</syllabic><text>A</text></lyric>\
                        <lyric number="2"><syllabic>single</syllabic><text>Twas</text></lyric>
                        """)
                    + F.note(
                        "D4", 1,
                        extra: """
                            <lyric number="1"><syllabic>end</syllabic><text>men</text><extend/></lyric>\
                            <lyric number="2"><syllabic>single</syllabic><text>grace</text><elision>‿</elision><syllabic>single</syllabic><text>and</text></lyric>
                            """)
                    + F.note("E4", 2, extra: "<lyric number=\"1\"><extend type=\"stop\"/></lyric>")
            ]))
        let lyrics = score.parts[0].lyrics
        #expect(lyrics.map(\.text) == ["A", "Twas", "men", "grace‿and"])
        #expect(lyrics.map(\.syllabic) == [.begin, .single, .end, .composite])
        #expect(lyrics.map(\.verse) == [1, 2, 1, 2])
        #expect(lyrics.map(\.extends) == [false, false, true, false])
        #expect(score.verseCount == 2)
    }

    @Test func tempoFromSoundAndMetronome() throws {
        let score = try F.read(
            F.partwise([
                "<direction><direction-type><metronome><beat-unit>quarter</beat-unit><beat-unit-dot/>"
                    + "<per-minute>60</per-minute></metronome></direction-type></direction>" + F.note("C4", 4),
                F.note("C4", 2) + "<direction><sound tempo=\"100\"/></direction>" + F.note("C4", 2),
                "<direction><direction-type><metronome><beat-unit>half</beat-unit><per-minute>c. 40</per-minute>"
                    + "</metronome></direction-type><sound tempo=\"84\"/></direction>" + F.note("C4", 4),
            ]))
        #expect(score.tempos.map(\.position) == [Rational(0), Rational(6), Rational(8)])
        #expect(score.tempos.map(\.quarterNotesPerMinute) == [90, 100, 84])
        let timeline = Timeline(score)
        // 6 quarters at 90, 2 at 100, 4 at 84.
        #expect(abs(timeline.seconds - (6 * 60 / 90.0 + 2 * 60 / 100.0 + 4 * 60 / 84.0)) < 1e-9)
    }

    @Test func timewiseScoresReadLikePartwise() throws {
        let xml = """
            <score-timewise version="4.0">
              <part-list><score-part id="P1"><part-name>S</part-name></score-part>
                <score-part id="P2"><part-name>B</part-name></score-part></part-list>
              <measure number="1">
                <part id="P1"><attributes><divisions>1</divisions></attributes>\(F.note("C5", 4))</part>
                <part id="P2"><attributes><divisions>2</divisions></attributes>\(F.note("C3", 4))\(F.note("G2", 4))</part>
              </measure>
              <measure number="2">
                <part id="P1">\(F.note("D5", 4, extra: "<tie type=\"start\"/>"))</part>
                <part id="P2">\(F.note("B2", 8))</part>
              </measure>
            </score-timewise>
            """
        let score = try F.read(xml)
        #expect(score.parts.map(\.name) == ["S", "B"])
        #expect(score.firstPartNotes == [[0, 4, 72], [4, 4, 74]])
        #expect(score.parts[1].notes.map(\.onset) == [Rational(0), Rational(2), Rational(4)])
    }

    @Test func encodingsUTF16AndLatin1() throws {
        let xml = F.partwise([F.note("C4", 4)], partName: "Ténor")
        var le: [UInt8] = [0xFF, 0xFE], be: [UInt8] = [0xFE, 0xFF]
        for unit in xml.utf16 {
            le += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            be += [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        }
        #expect(try ScoreReader.read(document: le, file: "le.xml").parts[0].name == "Ténor")
        #expect(try ScoreReader.read(document: be, file: "be.xml").parts[0].name == "Ténor")
        #expect(try ScoreReader.read(document: Array(le.dropFirst(2)), file: "le.xml").parts[0].name == "Ténor")
        let latin1 = xml.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"ISO-8859-1\"")
            .unicodeScalars.map { UInt8($0.value) }
        #expect(try ScoreReader.read(document: latin1, file: "latin1.xml").parts[0].name == "Ténor")
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(xml.utf8)
        #expect(try ScoreReader.read(document: bom, file: "bom.xml").parts[0].name == "Ténor")
    }

    @Test func entitiesAreNeverExpandedNorFetched() throws {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE score-partwise [
              <!ENTITY secret SYSTEM "file:///etc/passwd">
              <!ENTITY lol "lollollollollol">
              <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
            ]>
            <score-partwise version="4.0">
              <work><work-title>&secret;&lol2; &amp; &#x263A;&#65;</work-title></work>
              <part-list><score-part id="P1"><part-name>&lol;</part-name></score-part></part-list>
              <part id="P1"><measure number="1"><attributes><divisions>1</divisions></attributes>\(F.note("C4", 4))</measure></part>
            </score-partwise>
            """
        let score = try F.read(xml)
        #expect(score.title == "&secret;&lol2; & ☺A")
        #expect(score.parts[0].name == "&lol;")
        #expect(!(score.title ?? "").contains("root:"))
    }

    @Test func compressedMusicXMLUsesTheContainersRootfile() throws {
        let score = try ScoreReader.read(
            contentsOf: ScoreFixtures.fixtures.appendingPathComponent("corpus/bach_bwv1.6.mxl").path)
        #expect(score.parts.map(\.name) == ["Horn 2", "Soprano", "Alto", "Tenor", "Bass"])
    }
}
