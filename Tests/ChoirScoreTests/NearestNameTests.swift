import Testing

@testable import ChoirScore

/// Every "unknown X" error suggests the name a slip of the fingers most likely meant, and only a near one.
struct NearestNameTests {
    @Test(arguments: [
        ("tenr", "Tenor"), ("TENRO", "Tenor"), ("sopran", "Soprano"), ("bas", "Bass"), ("histroy", "history"), ("practise", "practice"),
        ("clarnet", "clarinet"), ("tempi", "tempo"),
    ])
    func aSlipFindsTheName(typed: String, meant: String) {
        let names = ["Soprano", "Alto", "Tenor", "Bass", "history", "practice", "clarinet", "tempo", "piece"]
        #expect(NearestName.to(typed, among: names) == meant)
    }

    /// Nothing is suggested for what is not near any name, nor for the name itself, nor for nothing typed.
    @Test(arguments: ["viola", "kazoo", "x", "", "Tenor"])
    func farNamesSuggestNothing(typed: String) {
        #expect(NearestName.to(typed, among: ["Soprano", "Alto", "Tenor", "Bass"]) == nil)
    }

    /// Of two near names the nearer wins; the first given breaks a tie.
    @Test func theNearerNameWins() {
        #expect(NearestName.to("alot", among: ["Altos", "Alto"]) == "Alto")
        #expect(NearestName.to("bas", among: ["Bass", "Bas1"]) == "Bass")
        #expect(NearestName.edits(Array("ab"), Array("ba")) == 1)
        #expect(NearestName.edits(Array("kitten"), Array("sitting")) == 3)
    }

    @Test func theErrorReadsTheSameEverywhere() {
        #expect(
            NearestName.unknown("line", "tenr", among: ["Tenor", "Bass"], expected: "one of 1 Tenor, 2 Bass")
                == "unknown line 'tenr' (did you mean 'Tenor'?): expected one of 1 Tenor, 2 Bass")
        #expect(
            NearestName.unknown("line", "viola", among: ["Tenor"], expected: "one of 1 Tenor")
                == "unknown line 'viola': expected one of 1 Tenor")
    }
}

extension NearestNameTests {
    /// A word where a command goes that names none is said with the nearest command and the commands at that level;
    /// an alias names its command, and an option, `help` or a command without commands of its own ends the search.
    @Test func anUnknownCommandIsNamedWithTheNearest() {
        let root = NearestName.Command(
            "choir",
            subcommands: [
                .init("practice", aliases: ["practise"]), .init("mark", subcommands: [.init("add"), .init("list"), .init("remove")]),
            ])
        #expect(
            NearestName.unknownCommand(in: ["pratice", "x.xml"], of: root)
                == "unknown command 'pratice' (did you mean 'practice'?): expected `choir COMMAND`, COMMAND one of practice, mark")
        #expect(
            NearestName.unknownCommand(in: ["mark", "ad"], of: root)
                == "unknown command 'ad' (did you mean 'add'?): expected `choir mark COMMAND`, COMMAND one of add, list, remove")
        #expect(
            NearestName.unknownCommand(in: ["mark", "zzz"], of: root)
                == "unknown command 'zzz': expected `choir mark COMMAND`, COMMAND one of add, list, remove")
        for known in [
            ["practise", "x.xml"], ["practice", "zzz"], ["mark", "add", "zzz"], ["--version"], ["help", "zzz"], ["mark", "-h"], [],
        ] {
            #expect(NearestName.unknownCommand(in: known, of: root) == nil, "\(known)")
        }
    }
}
