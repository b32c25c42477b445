import Foundation
import Testing

/// What choir prints where the terminal or the locale cannot show all of it: no colour on `TERM=dumb` or with
/// `NO_COLOR`, and ASCII in a locale that is not UTF-8.
struct OutputFallbackTests {
    /// A practice report on a pseudo-terminal (util-linux `script`), with the environment given.
    static func reportOnATerminal(_ environment: [String: String]) throws -> String {
        let data = try PracticeCommandTests.dataHome()
        let command =
            "\(CLI.executable.path) practice \(CLI.example) --part tenor --input \(PracticeCommandTests.take) --output none --no-history"
        let result = try CLI.run(
            ["-qec", command, "/dev/null"], environment: ["XDG_DATA_HOME": data, "NO_COLOR": ""].merging(environment) { $1 },
            executable: URL(fileURLWithPath: "/usr/bin/script"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Accuracy: 89.3% (25 of 28 notes)"), "\(result.stdout)")
        return result.stdout
    }

    @Test func aDumbTerminalGetsNoColour() throws {
        #expect(try Self.reportOnATerminal(["TERM": "xterm-256color"]).contains("\u{1B}["), "a terminal that has colour gets it")
        #expect(!(try Self.reportOnATerminal(["TERM": "dumb"]).contains("\u{1B}")))
        #expect(!(try Self.reportOnATerminal(["TERM": "xterm-256color", "NO_COLOR": "1"]).contains("\u{1B}")))
    }

    @Test func aLocaleThatIsNotUTF8GetsASCII() throws {
        let info = try CLI.run(["info", CLI.example, "--transpose", "-1"], environment: ["LC_ALL": "C"])
        #expect(info.status == 0)
        #expect(
            info.stdout == """
                Resources/ExamplePieces/amazing_grace.musicxml
                  Title     Amazing Grace
                  Composer  Traditional (New Britain)
                  Key       Gb major (transposed down 1 semitone)
                  Time      3/4
                  Tempo     q = 80
                  Measures  17 (with a pickup)
                  Duration  0:36
                  Verses    2
                  Lines
                    Soprano: Db4-Db5
                    Alto: Bb3-Gb4
                    Tenor: F3-Db4
                    Bass: Gb2-Gb3

                """)
        let report = try Self.reportOnATerminal(["LC_ALL": "C", "TERM": "dumb"])
        #expect(report.utf8.allSatisfy { $0 < 0x80 }, "\(report)")
        #expect(report.contains("Measures: ") && report.contains("# >=90%  + >=60%  . <60%"), "\(report)")
        // JSON stays UTF-8, as JSON is.
        let json = try CLI.run(["info", CLI.example, "--transpose", "-1", "--json"], environment: ["LC_ALL": "C"])
        #expect(json.stdout.contains("\"G♭ major\""))
        // And a UTF-8 locale keeps its symbols.
        #expect(try CLI.run(["info", CLI.example], environment: ["LC_ALL": "C.UTF-8"]).stdout.contains("♩ = 80"))
    }
}
