import Foundation
import Testing

@testable import ChoirScore

/// Bad input gives one clear line naming the file, the line and column where there is one, and what was
/// expected; it never crashes or hangs.
struct ReaderErrorTests {
    typealias F = ScoreFixtures

    static let valid = F.partwise([F.note("C4", 4)])

    @Test(arguments: [
        ("", "test.musicxml: empty file: expected a MusicXML document"),
        ("just some text", "test.musicxml:1:1: expected '<' but found text outside the root element"),
        (
            "<html><body/></html>",
            "test.musicxml:1:1: expected <score-partwise> or <score-timewise> but found <html>: not a MusicXML score"
        ),
        (
            "<score-partwise>\n  <part-list>\n    <score-part id=\"P1\">",
            "test.musicxml:3:25: unexpected end of file: expected </score-part>"
        ),
        ("<score-partwise>\n<work></title></score-partwise>", "test.musicxml:2:7: expected </work> but found </title>"),
        (
            "<score-partwise><part-list/></score-partwise>",
            "test.musicxml:1:1: expected at least one <score-part> in <part-list>"
        ),
    ])
    func malformedDocuments(xml: String, message: String) {
        #expect(F.error(xml) == message)
    }

    @Test(arguments: [
        (
            "<duration>4</duration>", "<duration>-4</duration>",
            "expected a duration of zero or more divisions but found a negative duration"
        ),
        (
            "<duration>4</duration>", "<duration>4000000000</duration>",
            "duration 4000000000 is 4000000000.0 quarter notes: expected at most 100000"
        ),
        (
            "<duration>4</duration>", "<duration>four</duration>",
            "expected a duration of zero or more divisions but found 'four'"
        ),
        ("<divisions>1</divisions>", "<divisions>0</divisions>", "expected a positive number in <divisions> but found '0'"),
        ("<octave>4</octave>", "<octave>12</octave>", "expected an <octave> from 0 to 9 but found '12'"),
        ("<step>C</step>", "<step>H</step>", "expected <pitch> with a <step> from A to G in a pitched note"),
        (
            "<octave>4</octave>", "<octave>9</octave></pitch><pitch><step>B</step><alter>2</alter><octave>9</octave>",
            "impossible pitch: B9 with alter 2.0 sounds at MIDI 133.0, expected 0 to 127"
        ),
        // A number that is not one, or out of all reason, is damage: refused, never read as a default.
        (
            "<divisions>1</divisions>", "<divisions>1</divisions><transpose><chromatic>-12x</chromatic></transpose>",
            "expected a number of semitones in <chromatic> but found '-12x'"
        ),
        (
            "<divisions>1</divisions>",
            "<divisions>1</divisions><transpose><chromatic>0</chromatic><octave-change>-1o</octave-change></transpose>",
            "expected a whole number of octaves in <octave-change> but found '-1o'"
        ),
        (
            "<divisions>1</divisions>", "<divisions>1</divisions><transpose number=\"two\"><chromatic>-2</chromatic></transpose>",
            "expected a staff number from 1 to 64 in <transpose number> but found 'two'"
        ),
        ("<duration>4</duration>", "<duration>4</duration><staff>2nd</staff>", "expected a staff number in <staff> but found '2nd'"),
        (
            "<duration>4</duration>",
            "<duration>4</duration><time-modification><actual-notes>three</actual-notes></time-modification>",
            "expected a number of notes from 1 to 1000 in <actual-notes> but found 'three'"
        ),
        (
            "<duration>4</duration>", "<duration>4</duration><time-modification><normal-notes>0</normal-notes></time-modification>",
            "expected a number of notes from 1 to 1000 in <normal-notes> but found '0'"
        ),
        (
            "<duration>4</duration>", "<type>whole</type>" + String(repeating: "<dot/>", count: 9),
            "expected at most 8 <dot> on a note without <duration>"
        ),
        (
            "<divisions>1</divisions>", "<divisions>1</divisions><staves>0</staves>",
            "expected a number of staves from 1 to 64 in <staves> but found '0'"
        ),
        ("<fifths>0</fifths>", "<fifths>G</fifths>", "expected a number of fifths from -11 to 11 in <fifths> but found 'G'"),
        ("<beats>4</beats>", "<beats>3+</beats>", "expected beats from 1 to 1000 (3, or 2+3) in <beats> but found '3+'"),
        (
            "<beat-type>4</beat-type>", "<beat-type>quarter</beat-type>",
            "expected a beat type from 1 to 1024 in <beat-type> but found 'quarter'"
        ),
        (
            "</note>", "</note><barline><repeat direction=\"backward\" times=\"twice\"/></barline>",
            "expected a number of times in <repeat times> but found 'twice'"
        ),
        ("</note>", "</note><sound tempo=\"fast\"/>", "expected a number of quarter notes a minute in <sound tempo> but found 'fast'"),
        ("</note>", "</note><sound dynamics=\"ff\"/>", "expected a percentage of forte in <sound dynamics> but found 'ff'"),
        ("<note>", "<note dynamics=\"loud\">", "expected a percentage of forte in <note dynamics> but found 'loud'"),
        (
            "<part-name>Voice</part-name>",
            "<part-name>Voice</part-name><midi-instrument id=\"I1\"><midi-program>one</midi-program></midi-instrument>",
            "expected a MIDI program from 1 to 128 in <midi-program> but found 'one'"
        ),
    ])
    func absurdValues(original: String, replacement: String, message: String) throws {
        let xml = Self.valid.replacingOccurrences(of: original, with: replacement)
        let error = try #require(F.error(xml))
        // The line and column of the damage: the line holding it.
        let line = xml.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(replacement) }! + 1
        #expect(error.hasPrefix("test.musicxml:\(line):"))
        #expect(error.hasSuffix(": " + message))
        #expect(error.split(separator: ":").count >= 4, "\(error): expected a line and a column")
    }

    @Test func errorsNameTheLineAndColumn() throws {
        let xml = Self.valid.replacingOccurrences(of: "<octave>4</octave>", with: "<octave>x</octave>")
        let line = xml.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("<octave>x") }! + 1
        let error = try #require(F.error(xml))
        #expect(error.hasPrefix("test.musicxml:\(line):"))
    }

    // MARK: - Compressed files

    @Test func mxlThatIsNotAZip() throws {
        let path = NSTemporaryDirectory() + "choir-not-zip.mxl"
        try Data("hello".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: ScoreError.self) { try ScoreReader.read(contentsOf: path) }
        #expect(error?.description == "\(path): not a zip archive: expected a compressed MusicXML (.mxl) file")
    }

    @Test func mxlWithoutRootfile() {
        let container = Array("<container><rootfiles></rootfiles></container>".utf8)
        let archive = ZipWriter.archive([("META-INF/container.xml", container)])
        let noRootfile = #expect(throws: ScoreError.self) { try ScoreReader.read(data: archive, file: "a.mxl") }
        #expect(noRootfile?.description == "a.mxl!META-INF/container.xml: no <rootfile full-path=...>: expected the score's path")
        let noContainer = ZipWriter.archive([("score.xml", Array(Self.valid.utf8))])
        let missing = #expect(throws: ScoreError.self) { try ScoreReader.read(data: noContainer, file: "b.mxl") }
        #expect(missing?.description == "b.mxl: no META-INF/container.xml: expected a compressed MusicXML (.mxl) file")
    }

    @Test func mxlReadsTheRootfile() throws {
        let container = Array(#"<container><rootfiles><rootfile full-path="s/score.xml"/></rootfiles></container>"#.utf8)
        let archive = ZipWriter.archive([("META-INF/container.xml", container), ("s/score.xml", Array(Self.valid.utf8))])
        #expect(try ScoreReader.read(data: archive, file: "c.mxl").firstPartNotes == [[0, 4, 60]])
    }

    /// 300 MB of zeros deflate to about 300 KB. Whether the archive owns up to the size or claims a small
    /// one, reading stops at 256 MB.
    @Test(arguments: [false, true])
    func zipBombIsRefused(lying: Bool) throws {
        let bomb = ZipWriter.deflatedZeros(megabytes: 300, name: "score.xml", claimedSize: lying ? 1000 : nil)
        do {
            _ = try ScoreReader.read(data: bomb, file: "bomb.mxl")
            Issue.record("a zip bomb was read")
        } catch {
            #expect(error.description == "bomb.mxl: an entry expands to more than 256 MB: refused as a zip bomb")
        }
    }

    @Test func everyFuzzerFindingIsHandled() throws {
        let folder = F.fixtures.appendingPathComponent("fuzz/crashes")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!files.isEmpty)
        for file in files {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            #expect(throws: ScoreError.self, "\(file)") { try ScoreReader.read(data: Array(data), file: file) }
        }
    }
}
