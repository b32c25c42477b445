import Foundation
import Testing

/// One vocabulary: every command names a line the same way, both spellings of practice work, and a slip is answered
/// with the nearest name.
struct VocabularyTests {
    /// The help of every command that names a line, as `choir help` prints it.
    static let commandsWithLines = [
        ["notes"], ["render"], ["play"], ["view"], ["practice"], ["mark", "add"], ["coach"], ["plan", "add"], ["library", "search"],
    ]

    /// Each of them takes `--part`, explained in the same words; none says `--line`.
    @Test func everyCommandTakesTheSamePartOption() throws {
        let option = """
              --part <line>           A line: its name, a unique start of it, S/A/T/B or a number from `choir
                                      info`, in any case ("tenor", "T", "T2", "sop"). Repeatable.

            """
        for command in Self.commandsWithLines {
            let help = try CLI.run(["help"] + command)
            #expect(help.status == 0)
            #expect(help.stdout.contains(option), "\(command): \(help.stdout)")
            #expect(!help.stdout.contains("--line"), "\(command)")
        }
    }

    /// A letter, a prefix in any case and the full name pick the same line in each command.
    @Test func lettersAndPrefixesNameTheLineEverywhere() throws {
        let data = try PracticeCommandTests.dataHome()
        let environment = ["XDG_DATA_HOME": data]
        let notes = try ["T", "t", "TEN", "tenor", "3"].map { try CLI.run(["notes", CLI.example, "--part", $0]).stdout }
        #expect(Set(notes).count == 1 && notes[0].hasPrefix("Tenor\n"))
        let marks = try ["T", "ten"].map {
            try CLI.run(["mark", "add", CLI.example, "--part", $0, "--measure", "3", "x"], environment: environment)
        }
        #expect(marks.map(\.stdout) == ["mark 1: m. 3 (Tenor): x\n", "mark 2: m. 3 (Tenor): x\n"])
        let plan = try CLI.run(["plan", "new", "P"], environment: environment)
        #expect(plan.status == 0)
        let item = try CLI.run(["plan", "add", "P", CLI.example, "--part", "a"], environment: environment)
        #expect(item.stdout == "'P', item 1: Amazing Grace — Alto, whole piece\n", "\(item.stderr)")
        let session = try CLI.run(
            ["practice", CLI.example, "--part", "TeN", "--input", PracticeCommandTests.take, "--output", "none"], environment: environment)
        #expect(session.status == 0 && session.stdout.hasPrefix("Amazing Grace — Tenor, ♩ = 80\n"), "\(session.stderr)")
        for part in ["T", "tEnOr"] {
            let coach = try CLI.run(["coach", CLI.example, "--part", part], environment: environment)
            #expect(
                coach.status == 0 && coach.stdout.hasPrefix("Amazing Grace, Tenor, 1 session:\n"), "\(coach.stdout)\(coach.stderr)"
            )
        }
    }

    /// `choir practise` is `choir practice`, option for option.
    @Test func practiseIsPractice() throws {
        let arguments = [CLI.example, "--part", "T", "--input", PracticeCommandTests.take, "--output", "none", "--no-history"]
        let british = try CLI.run(["practise"] + arguments), american = try CLI.run(["practice"] + arguments)
        #expect(british.status == 0 && british.stdout == american.stdout && british.stderr == american.stderr)
        #expect(try CLI.run(["practise", "--help"]).stdout == (try CLI.run(["practice", "--help"]).stdout))
    }

    /// A command, a subcommand, a line or a file typed with a slip: one line with the nearest name and the choices.
    static let slips: [([String], Int32, String)] = [
        (
            ["histroy"], 64,
            "choir: unknown command 'histroy' (did you mean 'history'?): expected `choir COMMAND`, COMMAND one of info, notes, pitch, "
                + "render, play, view, practice, calibrate, history, report, library, mark, coach, plan, scan, studio\n"
        ),
        (
            ["mark", "ad", CLI.example], 64,
            "choir: unknown command 'ad' (did you mean 'add'?): expected `choir mark COMMAND`, COMMAND one of add, list, remove\n"
        ),
        (
            ["notes", CLI.example, "--part", "tenr"], 64,
            "choir: \(CLI.example): unknown line 'tenr' (did you mean 'Tenor'?): expected one of 1 Soprano, 2 Alto, 3 Tenor, 4 Bass\n"
        ),
        (
            ["info", "Resources/ExamplePieces/amazing_grce.musicxml"], 66,
            "choir: Resources/ExamplePieces/amazing_grce.musicxml: no such file (did you mean "
                + "'Resources/ExamplePieces/amazing_grace.musicxml'?): expected a MusicXML (.musicxml, .xml) or .mxl file\n"
        ),
        (
            ["coach", CLI.example, "--part", "alot"], 64,
            "choir: \(CLI.example): unknown line 'alot' (did you mean 'Alto'?): expected one of 1 Soprano, 2 Alto, 3 Tenor, 4 Bass\n"
        ),
        (["coach", CLI.example], 64, "Error: coach needs --part: the line whose sessions to read\n"),
        (
            ["practice", CLI.example, "--part", "T", "--record", "take.wva"], 64,
            "Error: --record take.wva: unknown audio format 'wva' (did you mean 'wav'?): expected a name ending in .flac, .ogg, .opus, .mp3, "
                + ".aiff or .wav\n"
        ),
        // A mix named as a file, though not a WAV file, is not taken for a device.
        (
            ["practice", CLI.example, "--part", "T", "--input", PracticeCommandTests.take, "--output", "mix.mp3"], 64,
            "Error: --output mix.mp3: a mix is written as WAV: expected a file name ending in .wav, a device, or none\n"
        ),
        (
            ["practice", CLI.example, "--part", "T", "--divisi", "uper"], 64,
            "Error: --divisi uper: unknown value 'uper' (did you mean 'upper'?): expected upper or lower\n"
        ),
        (
            ["pitch", PracticeCommandTests.take, "--format", "jsno"], 64,
            "Error: --format jsno: unknown value 'jsno' (did you mean 'json'?): expected csv or json\n"
        ),
        (
            ["pitch", PracticeCommandTests.take, "--tracker", "nett"], 64,
            "Error: --tracker nett: unknown value 'nett' (did you mean 'net'?): expected yin, net or auto\n"
        ),
        (
            ["practice", CLI.example, "--part", "T", "--tracker", "yinn"], 64,
            "Error: --tracker yinn: unknown value 'yinn' (did you mean 'yin'?): expected yin, net or auto\n"
        ),
        (
            ["library", "search", "--key", "Gmajr"], 64,
            "Error: --key Gmajr: unknown mode 'majr' (did you mean 'major'?): expected a key such as G, G major, e minor or B♭, "
                + "in a mode of major, minor, dorian, phrygian, lydian, mixolydian, aeolian, locrian, ionian\n"
        ),
    ]

    @Test(arguments: slips)
    func slipsAreAnsweredWithTheNearestName(arguments: [String], status: Int32, message: String) throws {
        let result = try CLI.run(arguments, environment: ["XDG_DATA_HOME": try PracticeCommandTests.dataHome()])
        #expect(result.status == status)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// A line no score in the library has, typed with a slip, is answered with the nearest line the library has
    /// (status 64), not "No scores."; one that is not near any still finds no score; the values of an option
    /// are read in any case.
    @Test func aSlipInALibrarySearchNamesTheNearestLine() throws {
        let environment = ["XDG_DATA_HOME": try PracticeCommandTests.dataHome()]
        #expect(try CLI.run(["library", "add", CLI.example], environment: environment).status == 0)
        let slip = try CLI.run(["library", "search", "--part", "tenr"], environment: environment)
        #expect(slip.status == 64 && slip.stdout.isEmpty)
        #expect(
            slip.stderr == "choir: --part tenr: unknown line 'tenr' (did you mean 'Tenor'?): expected a line of a score in the library "
                + "(`choir library list`)\n", "\(slip.stderr)")
        let none = try CLI.run(["library", "search", "--part", "descant"], environment: environment)
        #expect(none.status == 0 && none.stdout == "No scores.\n", "\(none.stdout)\(none.stderr)")
        let key = try CLI.run(["library", "search", "--key", "G Major", "--part", "ten"], environment: environment)
        #expect(key.status == 0 && key.stdout.hasPrefix("Amazing Grace — "), "\(key.stdout)\(key.stderr)")
        let upper = try CLI.run(
            [
                "practice", CLI.example, "--part", "T", "--input", PracticeCommandTests.take, "--output", "none", "--no-history",
                "--divisi", "UPPER",
            ])
        #expect(upper.status == 0, "\(upper.stderr)")
    }
}
