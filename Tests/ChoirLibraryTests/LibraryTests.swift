import ChoirScore
import Foundation
import Testing

@testable import ChoirLibrary

/// The library on a score written here, whose title, voicing, key, length and ranges are known by construction.
struct LibraryTests {
    /// Soprano C5–E5 and bass G2–D3 in G minor (two flats), two measures of 4/4 at ♩ = 60 (8 s).
    static let duet = """
        <?xml version="1.0" encoding="UTF-8"?>
        <score-partwise version="3.1">
          <work><work-title>Duet in G minor</work-title></work>
          <identification><creator type="composer">A. Nonymous</creator></identification>
          <part-list>
            <score-part id="P1"><part-name>Soprano</part-name></score-part>
            <score-part id="P2"><part-name>Bass</part-name></score-part>
          </part-list>
          <part id="P1">
            <measure number="1">
              <attributes><divisions>1</divisions><key><fifths>-2</fifths><mode>minor</mode></key><time><beats>4</beats><beat-type>4</beat-type></time><clef><sign>G</sign><line>2</line></clef></attributes>
              <direction><sound tempo="60"/></direction>
              <note><pitch><step>C</step><octave>5</octave></pitch><duration>4</duration><type>whole</type></note>
            </measure>
            <measure number="2"><note><pitch><step>E</step><alter>-1</alter><octave>5</octave></pitch><duration>4</duration><type>whole</type></note></measure>
          </part>
          <part id="P2">
            <measure number="1">
              <attributes><divisions>1</divisions><key><fifths>-2</fifths><mode>minor</mode></key><time><beats>4</beats><beat-type>4</beat-type></time><clef><sign>F</sign><line>4</line></clef></attributes>
              <note><pitch><step>G</step><octave>2</octave></pitch><duration>4</duration><type>whole</type></note>
            </measure>
            <measure number="2"><note><pitch><step>D</step><octave>3</octave></pitch><duration>4</duration><type>whole</type></note></measure>
          </part>
        </score-partwise>
        """

    static func entry() throws -> LibraryEntry {
        let score = try ScoreReader.read(data: Array(duet.utf8), file: "duet.musicxml")
        return LibraryEntry(score: score, path: "/scores/duet.musicxml", hash: "h")
    }

    @Test func anEntrySaysWhatTheScoreIs() throws {
        let entry = try Self.entry()
        #expect(entry.title == "Duet in G minor" && entry.composer == "A. Nonymous")
        #expect(entry.voicing == "SB" && entry.accompaniment.isEmpty)
        #expect(entry.key == "G minor" && entry.fifths == -2 && entry.measures == 2)
        #expect(abs(entry.seconds - 8) < 1e-9, "\(entry.seconds)")
        // C5 = 72, E♭5 = 75; G2 = 43, D3 = 50.
        #expect(entry.lines.map { [$0.lowest, $0.highest] } == [[72, 75], [43, 50]])
        #expect(entry.lines.map(\.voice) == ["S", "B"])
    }

    /// Every part of a query must hold: words anywhere, the voicing exactly, a line's range, the key as typed.
    @Test func aQueryMatchesOnlyWhatItAsks() throws {
        let entry = try Self.entry()
        func query(_ change: (inout LibraryQuery) -> Void) -> Bool {
            var query = LibraryQuery()
            change(&query)
            return query.matches(entry)
        }
        #expect(query { $0.text = "duet NONYMOUS" })
        #expect(!query { $0.text = "duet trio" })
        #expect(query { $0.voicing = "sb" } && !query { $0.voicing = "SATB" })
        #expect(
            query {
                $0.lines = ["bass"]
                $0.lowest = 43
                $0.highest = 50
            })
        #expect(
            !query {
                $0.lines = ["bass"]
                $0.lowest = 44
            })
        #expect(!query { $0.lines = ["tenor"] })
        #expect(query { $0.key = "gm" } && query { $0.key = "G minor" } && !query { $0.key = "G" })
    }

    @Test(arguments: [
        ("G", "G major"), ("Em", "E minor"), ("bb", "B♭ major"), ("F#", "F♯ major"), ("c# minor", "C♯ minor"),
        ("B♭ major", "B♭ major"),
    ])
    func keysAreNamedAsTheLibraryWritesThem(typed: String, named: String) {
        #expect(LibraryQuery.keyName(typed) == named)
    }

    @Test func aKeyThatIsNoKeyMatchesNothing() {
        #expect(LibraryQuery.keyName("H") == nil && LibraryQuery.keyName("") == nil)
    }

    /// Added to a library database, the score is found by title and listed once, however often it is added.
    @Test func aScoreAddedIsFoundByTitle() throws {
        let folder = NSTemporaryDirectory() + "choir-library-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.duet.write(toFile: folder + "/duet.musicxml", atomically: true, encoding: .utf8)
        let library = try Library(path: folder + "/library.sqlite")
        #expect(Library.scores(in: [folder]) == [folder + "/duet.musicxml"])
        _ = try library.add([folder + "/duet.musicxml"])
        _ = try library.add([folder + "/duet.musicxml"])
        #expect(try library.entries().map(\.title) == ["Duet in G minor"])
        #expect(try library.titled("duet in g minor").map(\.path) == [folder + "/duet.musicxml"])
    }
}

extension LibraryTests {
    /// A SCORE argument that is no file names the one score whose title it is or begins; a file is itself; a name
    /// that could be several says so. A library entry whose file is gone is still named by its path.
    @Test func aTitleNamesItsFileAndAGoneFileItsEntry() throws {
        let folder = NSTemporaryDirectory() + "choir-library-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/duet.musicxml", history = folder + "/library.sqlite"
        try Self.duet.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try Library.file(named: "Duet", history: history) == "Duet", "no history: the argument is left as it is")
        try Self.duet.replacingOccurrences(of: "G minor", with: "D minor").write(
            toFile: folder + "/other.musicxml", atomically: true, encoding: .utf8)
        let library = try Library(path: history)
        _ = try library.add([file, folder + "/other.musicxml"])
        #expect(try Library.file(named: "duet in g", history: history) == file)
        #expect(try Library.file(named: file, history: history) == file)
        #expect(try Library.file(named: "Trio", history: history) == "Trio", "no title: left for the reader to call missing")
        #expect(throws: Library.Unclear.self) { try Library.file(named: "duet in", history: history) }
        try FileManager.default.removeItem(atPath: file)
        #expect(try library.entry(named: file).title == "Duet in G minor")
        #expect(throws: Library.Unclear.self) { try library.entry(named: folder + "/trio.musicxml") }
    }
}
