import ChoirScore
import Testing

@testable import ChoirScan

/// What choir's reader finds in a model's MusicXML, and how the file is marked with it.
struct ScanCheckTests {
    /// A partwise document: for each part (id, name), its measures, each a list of note durations in quarters (a
    /// quarter division); the first measure is `implicit` when asked, in 3/4.
    static func document(_ parts: [(id: String, name: String, measures: [[Int]])], implicit: Bool = false, header: String = "") -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<score-partwise version=\"4.0\">\n\(header)  <part-list>\n"
        for part in parts { out += "    <score-part id=\"\(part.id)\"><part-name>\(part.name)</part-name></score-part>\n" }
        out += "  </part-list>\n"
        for part in parts {
            out += "  <part id=\"\(part.id)\">\n"
            for (index, notes) in part.measures.enumerated() {
                out += "    <measure number=\"\(index + (implicit ? 0 : 1))\"\(index == 0 && implicit ? " implicit=\"yes\"" : "")>\n"
                if index == 0 {
                    out += "      <attributes><divisions>1</divisions><time><beats>3</beats><beat-type>4</beat-type></time></attributes>\n"
                }
                for duration in notes {
                    out += "      <note><pitch><step>C</step><octave>4</octave></pitch><duration>\(duration)</duration></note>\n"
                }
                out += "    </measure>\n"
            }
            out += "  </part>\n"
        }
        return out + "</score-partwise>\n"
    }

    static func texts(_ check: ScanCheck) -> [String] { check.problems(check.score) }

    /// The document is taken out of the words and fences around it.
    @Test func theDocumentIsFoundInTheReply() {
        let document = Self.document([("P1", "Tenor", [[3], [3]])])
        let reply = "Here is the transcription.\n\n```xml\n\(document)```\nI hope this helps."
        #expect(ScanCheck.musicXML(in: reply) == Array(document.utf8))
        #expect(ScanCheck.musicXML(in: "I cannot read these pages.").isEmpty)
        let check = ScanCheck(reply: "I cannot read these pages.", file: "piece.musicxml", part: nil)
        #expect(Self.texts(check) == ["the reply holds no MusicXML document: expected <?xml … <score-partwise> … </score-partwise>"])
        // Cut off in the middle: kept, for the reader to say where it stops.
        let cut = String(document.prefix(200))
        #expect(ScanCheck.musicXML(in: "```xml\n" + cut) == Array((cut + "\n").utf8))
    }

    /// A pickup marked implicit, and a last measure that completes it, fill their time; a measure short in every part
    /// does not, nor does an unmarked pickup, nor one part's measure short against the others.
    @Test func measuresThatDoNotFillTheirTime() {
        let good = ScanCheck(reply: Self.document([("P1", "Tenor", [[1], [3], [2]])], implicit: true), file: "a.musicxml", part: "tenor")
        #expect(good.error == nil && good.findings.isEmpty, "\(Self.texts(good))")

        let short = ScanCheck(
            reply: Self.document([("P1", "Tenor", [[3], [2], [3]]), ("P2", "Bass", [[3], [2], [3]])]), file: "a.musicxml", part: nil)
        #expect(Self.texts(short) == ["m. 2: the notes and rests add up to 2 quarter notes where 3/4 needs 3 quarter notes"])

        let unmarked = ScanCheck(reply: Self.document([("P1", "Tenor", [[1], [3]])]), file: "a.musicxml", part: nil)
        #expect(
            Self.texts(unmarked) == [
                "m. 1: the notes and rests add up to 1 quarter note where 3/4 needs 3 quarter notes; a pickup measure is marked implicit=\"yes\""
            ])

        let misfit = ScanCheck(
            reply: Self.document([("P1", "Tenor", [[3], [1, 1]]), ("P2", "Bass", [[3], [3]])]), file: "a.musicxml", part: nil)
        #expect(
            Self.texts(misfit) == ["m. 2 (Tenor): this part's notes and rests add up to 2 quarter notes where 3/4 needs 3 quarter notes"])
        #expect(misfit.findings.map(\.partID) == ["P1"])
    }

    /// An error says file, line and column, and quotes the line; a score without the singer's line says so.
    @Test func errorsAndTheSingersLine() {
        let broken = Self.document([("P1", "Tenor", [[3]])]).replacing("</pitch>", with: "</pich>")
        let check = ScanCheck(reply: broken, file: "piece.musicxml", part: nil)
        #expect(check.score == nil)
        #expect(
            Self.texts(check) == [
                "piece.musicxml:9:52: expected </pitch> but found </pich> (line 9: <note><pitch><step>C</step><octave>4</octave></pich><duration>3</duration></note>)"
            ])
        let missing = ScanCheck(reply: Self.document([("P1", "Soprano", [[3]]), ("P2", "Alto", [[3]])]), file: "a.musicxml", part: "Tenor")
        #expect(
            Self.texts(missing) == [
                "the singer's line, Tenor, is not there (unknown line 'Tenor': expected one of 1 Soprano, 2 Alto): name each sung line's part as printed"
            ])
    }

    /// Choir's notes: who made the file at the top, the model's marks rewritten as choir's, choir's findings inside
    /// their measures in their parts, and an encoding in place of the model's, after the creators; the notes are
    /// unchanged, and the notes read back.
    @Test func notesAreWrittenIntoTheFileAndReadBack() throws {
        let header = """
              <identification>
                <creator type="composer">Anon.</creator>
                <encoding><software>Model 1</software></encoding>
              </identification>

            """
        var text = Self.document([("P1", "Tenor", [[3], [3], [2]]), ("P2", "Bass", [[3], [3], [3]])], header: header)
        // In the Tenor's measure 2.
        text.replaceSubrange(
            text.firstRange(of: "<measure number=\"2\">\n")!, with: "<measure number=\"2\">\n      <!-- doubtful: the C could be a D -->\n")
        let check = ScanCheck(reply: text, file: "a.musicxml", part: nil)
        let outline = try MusicXMLOutline(utf8: check.document, file: "a.musicxml")
        let found = check.findings.map { ScanNotes.Doubt(measureIndex: $0.measureIndex, partID: $0.partID, reason: $0.text) }
        let annotated = ScanNotes.annotate(
            outline, made: "made by a model -- from p.jpg", found: found, software: "choir scan with m/x", date: "2025-06-01")
        let result = String(decoding: annotated, as: UTF8.self)
        #expect(
            result.hasPrefix(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- choir scan: made by a model – from p.jpg -->\n<score-partwise"))
        #expect(
            result.contains(
                "<creator type=\"composer\">Anon.</creator><encoding><software>choir scan with m/x</software><encoding-date>2025-06-01</encoding-date>"
            ))
        #expect(!result.contains("Model 1"))
        #expect(result.contains("<measure number=\"2\">\n      <!-- choir scan: doubtful: the model is unsure: the C could be a D -->\n"))
        #expect(
            result.contains(
                "<measure number=\"3\">\n      <!-- choir scan: doubtful: this part's notes and rests add up to 2 quarter notes where 3/4 needs 3 quarter notes -->\n"
            ))
        #expect(try ScoreReader.read(document: annotated, file: "a").parts.map(\.notes) == check.score!.parts.map(\.notes))

        let notes = try #require(ScanNotes.read(utf8: annotated, file: "a.musicxml"))
        #expect(notes.made == "made by a model – from p.jpg")
        #expect(
            notes.doubts == [
                .init(measureIndex: 1, partID: "P1", reason: "the model is unsure: the C could be a D"),
                .init(measureIndex: 2, partID: "P1", reason: found[0].reason),
            ])
        #expect(
            ScanNotes.lines(notes.doubts, in: check.score!) == [
                "m. 2 (Tenor): the model is unsure: the C could be a D", "m. 3 (Tenor): \(found[0].reason)",
            ])
        #expect(ScanNotes.read(utf8: Array(Self.document([("P1", "Tenor", [[3]])]).utf8), file: "b") == nil)
    }

    /// A document without an identification gets one before its part list, and still reads.
    @Test func anIdentificationIsAddedWhereThereIsNone() throws {
        let check = ScanCheck(reply: Self.document([("P1", "Tenor", [[3]])]), file: "a.musicxml", part: nil)
        let outline = try MusicXMLOutline(utf8: check.document, file: "a.musicxml")
        let annotated = String(decoding: ScanNotes.annotate(outline, made: "made", found: [], software: "s", date: "d"), as: UTF8.self)
        #expect(annotated.contains("<score-partwise version=\"4.0\">\n  <identification><encoding><software>s</software>"))
        #expect(annotated.contains("</identification>\n  <part-list>"))
        #expect(try ScoreReader.read(document: Array(annotated.utf8), file: "a").parts[0].notes.count == 1)
    }
}
