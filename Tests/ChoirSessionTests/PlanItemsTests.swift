import ChoirLibrary
import ChoirSession
import FoundationEssentials
import Testing

/// A plan's items as the engine checks them before any run: added with their piece's file and their line as the
/// score names it, a plan whose item cannot be sung refused with the item's number, and each item's session given
/// the singer's input.
struct PlanItemsTests {
    static func item(_ from: String, _ to: String, line: String = "tenor") -> RehearsalPlan.Item {
        RehearsalPlan.Item(piece: SessionEventTests.example, line: line, from: from, to: to)
    }

    /// "t" is the example's Tenor, and its piece is kept as an absolute path; an item whose measures the score has
    /// not is refused and leaves the plan as it was.
    @Test func anItemIsAddedAsTheScoreNamesIt() throws {
        let folder = try DrillSessionTests.folder()
        let store = try RehearsalPlans(path: folder + "/history.sqlite")
        try store.save(RehearsalPlan(name: "Advent"), replacing: false)
        let plan = try store.add(Self.item("6", "7", line: "t"), to: "advent")
        #expect(plan.name == "Advent" && plan.items.map(\.line) == ["Tenor"])
        #expect(plan.items[0].piece.hasPrefix("/") && plan.items[0].piece.hasSuffix("/" + SessionEventTests.example))
        #expect(try store.plan(named: "Advent") == plan)
        #expect(throws: SessionError.self) { try store.add(Self.item("99", "99"), to: "Advent") }
        #expect(try store.plan(named: "Advent").items.count == 1)
        let noted = try store.add(Self.item("12", "12"), to: "Advent", notes: "  breathe after 'grace'  ")
        #expect(noted.items.map(\.notes) == [nil, "breathe after 'grace'"])
    }

    /// A plan read from a file is checked item by item, as a run will check it: the first that cannot be sung is
    /// named with the file and its number.
    @Test func aPlansItemThatCannotBeSungIsNamedWithItsNumber() throws {
        let history = try DrillSessionTests.folder() + "/history.sqlite"
        try RehearsalPlan(name: "Good", items: [Self.item("6", "7")]).check(file: "good.toml", history: history)
        let bad = RehearsalPlan(name: "Bad", items: [Self.item("6", "7"), Self.item("99", "99")])
        let refused = #expect(throws: RehearsalPlan.FileError.self) { try bad.check(file: "bad.toml", history: history) }
        #expect(refused?.description.hasPrefix("bad.toml: item 2: ") == true)
        #expect(refused?.unreadable == false)
    }

    /// One recording per item, in order, or one capture device for all (the default one when none is given);
    /// anything else is refused as the command line gave it.
    @Test func eachItemIsSungFromItsOwnRecordingOrTheOneDevice() throws {
        let history = try DrillSessionTests.folder() + "/history.sqlite"
        let plan = RehearsalPlan(name: "Two", items: [Self.item("6", "7"), Self.item("12", "12")])
        func sessions(_ inputs: [String]) throws -> [PracticePlan] {
            try PlanRun.sessions(of: plan, inputs: inputs, history: history) { practice, input, number in
                practice.input = PracticePlan.Input(input)
                practice.record = "item-\(number).flac"
            }
        }
        let takes = try sessions(["a.wav", "b.flac"])
        #expect(takes.map(\.input) == [.take("a.wav"), .take("b.flac")])
        #expect(takes.map(\.playback.from) == ["6", "12"] && takes.map(\.record) == ["item-1.flac", "item-2.flac"])
        #expect(try sessions([]).map(\.input) == [.device("default"), .device("default")])
        #expect(try sessions(["hw:1"]).map(\.input) == [.device("hw:1"), .device("hw:1")])
        let one = #expect(throws: SessionError.self) { try sessions(["a.wav"]) }
        #expect(one?.kind == .usage && one?.description == "--input: 1 recording for 2 items: expected one per item, in order")
        let mixed = #expect(throws: SessionError.self) { try sessions(["hw:1", "a.wav"]) }
        #expect(mixed?.description == "--input: expected one capture device, or one recording per item")
    }

    /// A mix file's format is its name's extension, in any case.
    @Test(arguments: [
        ("mix.wav", MixRender.Format.wav), ("MIX.WAV", .wav), ("a.mid", .midi), ("a.MIDI", .midi), ("a.flac", nil), ("wav", nil),
    ])
    func aMixFilesFormatIsItsExtension(file: String, format: MixRender.Format?) {
        #expect(MixRender.Format(file: file) == format)
    }
}
