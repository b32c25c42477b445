import Testing

@testable import ChoirScore

/// Lines are what singers sing; `--part` finds them.
struct LineTests {
    typealias F = ScoreFixtures

    /// One part whose staff carries two voices.
    static func twoVoices(partName: String, extra: String = "") throws -> Score {
        try F.read(
            F.partwise(
                [
                    F.note("E4", 4, extra: "<voice>1</voice>" + extra) + "<backup><duration>4</duration></backup>"
                        + F.note("C3", 4, extra: "<voice>2</voice>")
                ], partName: partName))
    }

    @Test(arguments: [
        ("Tenor Bass", ["Tenor", "Bass"]), ("T. B.", ["Tenor", "Bass"]), ("Men", ["Tenor", "Bass"]),
        ("Soprano/Alto", ["Soprano", "Alto"]), ("SA", ["Soprano", "Alto"]), ("Choir", ["Choir 1", "Choir 2"]),
        ("Women", ["Soprano", "Alto"]), ("Sopranos & Altos", ["Soprano", "Alto"]), ("Tenors and Basses", ["Tenor", "Bass"]),
        ("Lower voices", ["Tenor", "Bass"]), ("Upper Voices", ["Soprano", "Alto"]), ("TB", ["Tenor", "Bass"]),
        ("Men's voices", ["Tenor", "Bass"]),
    ])
    func sharedStaffVoicesBecomeNamedLines(partName: String, names: [String]) throws {
        let lines = try Self.twoVoices(partName: partName).lines
        #expect(lines.map(\.name) == names)
        #expect(lines.map { $0.notes.map(\.midi) } == [[64], [48]])
    }

    /// A note or two in a second voice of a long line (a cue, one note written divisi) is not a line of its own:
    /// it goes with the line on its staff. Two real voices still split.
    @Test func aStrayNoteInASecondVoiceIsNoLine() throws {
        let melody = (0..<24).map { _ in F.note("G4", 1, extra: "<voice>1</voice><lyric><text>la</text></lyric>") }
        let stray = "<backup><duration>1</duration></backup>" + F.note("B4", 1, extra: "<voice>2</voice>")
        let measures = (0..<6).map { index in melody[(index * 4)..<(index * 4 + 4)].joined() + (index == 3 ? stray : "") }
        let score = try F.read(F.partwise(measures, partName: "Soprano"))
        #expect(score.lines.map(\.name) == ["Soprano"])
        #expect(score.lines[0].notes.count == 25)
        #expect(try Self.twoVoices(partName: "Soprano").lines.count == 2, "a short part's two voices are two lines")
    }

    @Test func keyboardPartsStayWhole() throws {
        let lines = try Self.twoVoices(partName: "Piano").lines
        #expect(lines.map(\.name) == ["Piano"])
        #expect(lines[0].notes.count == 2)
    }

    @Test func lyricsMakeAPartSung() throws {
        let lines = try Self.twoVoices(partName: "Melody", extra: "<lyric><text>la</text></lyric>").lines
        #expect(lines.map(\.name) == ["Melody 1", "Melody 2"])
        #expect(lines.map { $0.lyrics.count } == [1, 0])
    }

    static let satb = ["Soprano", "Alto", "Tenor", "Bass", "Baritone Solo"].map {
        Line(name: $0, partIndex: 0, voice: nil, notes: [], lyrics: [])
    }

    @Test(arguments: [("tenor", 2), ("TENOR", 2), ("ten", 2), ("T", 2), ("b", 3), ("Bar", 4), ("1", 0), ("5", 4)])
    func selection(query: String, index: Int) throws {
        #expect(try LineSelector.select(query, from: Self.satb) == index)
    }

    /// Numbered lines are named as choirs write them.
    @Test(arguments: [
        ("S1", 0), ("s2", 1), ("Sop. 1", 0), ("Soprano II", 1), ("soprano i", 0), ("T1", 2), ("Ten 2", 3), ("T.II", 3),
        ("Tenor 2", 3), ("B2", 5), ("Bass I", 4),
    ])
    func numberedLinesAsChoirsWriteThem(query: String, index: Int) throws {
        let lines = ["Soprano 1", "Soprano 2", "Tenor I", "Tenor II", "B1", "Bass 2"].map {
            Line(name: $0, partIndex: 0, voice: nil, notes: [], lyrics: [])
        }
        #expect(try LineSelector.select(query, from: lines) == index)
    }

    @Test func unknownAndAmbiguousNamesListTheChoices() {
        #expect(throws: LineSelector.Failure.self) { try LineSelector.select("viola", from: Self.satb) }
        let unknown = #expect(throws: LineSelector.Failure.self) { try LineSelector.select("6", from: Self.satb) }
        #expect(unknown?.description == "unknown line '6': expected one of 1 Soprano, 2 Alto, 3 Tenor, 4 Bass, 5 Baritone Solo")
        let divisi = ["Soprano 1", "Soprano 2"].map { Line(name: $0, partIndex: 0, voice: nil, notes: [], lyrics: []) }
        let ambiguous = #expect(throws: LineSelector.Failure.self) { try LineSelector.select("sop", from: divisi) }
        #expect(ambiguous?.description == "ambiguous line 'sop': it could be 1 Soprano 1, 2 Soprano 2")
    }

    @Test func generalMIDIProgramsByNumberOrName() {
        #expect(GeneralMIDI.program(named: "53") == 52)
        #expect(GeneralMIDI.program(named: "choir aahs") == 52)
        #expect(GeneralMIDI.program(named: "Clarinet") == 71)
        #expect(GeneralMIDI.program(named: "piano") == 0)
        #expect(GeneralMIDI.program(named: "129") == nil)
        #expect(GeneralMIDI.program(named: "kazoo") == nil)
    }
}
