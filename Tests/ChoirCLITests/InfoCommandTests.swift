import Foundation
import Testing

/// `choir`, `choir info` and `choir notes`, end to end: whole outputs and exit statuses.
struct InfoCommandTests {
    @Test func helpListsTheSubcommands() throws {
        let result = try CLI.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout == (try CLI.golden("help.txt", result.stdout)))
    }

    @Test func versionNamesTheLibraries() throws {
        let result = try CLI.run(["--version"])
        #expect(result.status == 0)
        let pattern = #/^choir \d+\.\d+\.\d+ \(FluidSynth \d+\.\d+\.\d+, ALSA \d+\.\d+\.\d+, fftw-3\.[^)]+\)\n$/#
        #expect(result.stdout.wholeMatch(of: pattern) != nil, "\(result.stdout)")
    }

    @Test func infoOnTheExample() throws {
        let result = try CLI.run(["info", CLI.example])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(
            result.stdout == """
                Resources/ExamplePieces/amazing_grace.musicxml
                  Title     Amazing Grace
                  Composer  Traditional (New Britain)
                  Key       G major
                  Time      3/4
                  Tempo     ♩ = 80
                  Measures  17 (with a pickup)
                  Duration  0:36
                  Verses    2
                  Lines
                    Soprano: D4–D5
                    Alto: B3–G4
                    Tenor: F♯3–D4
                    Bass: G2–G3

                """)
    }

    @Test func infoListsTheRepairsOfAnExportWithSlips() throws {
        let file = "Tests/Fixtures/slips/five_voices_dolet.musicxml"
        let result = try CLI.run(["info", file])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(
            result.stdout == """
                \(file)
                  Title     Five Voices, as Exported
                  Composer  Test Fixture
                  Key       F major
                  Time      4/4 → 3/4
                  Tempo     ♩ = 120 (not marked)
                  Measures  6
                  Duration  0:10
                  Verses    0
                  Lines
                    Canto: C5–F5
                    Quinto: C5–F5
                    Alto: E4–A4
                    Tenore: G3–C4
                    Basso: F2–F3
                  Repaired  tie without an end, ended on the next note of its pitch: Canto mm. 1, 3; Tenore m. 1
                            whole-measure rest of the wrong length, read as the whole measure: Canto m. 5; Quinto m. 3
                            more rests than the measure holds (two whole rests, say), read as the measure's rest: Quinto mm. 1, 2

                """)
        let json = try CLI.run(["info", "--json", file])
        let info = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let repairs = info?["repairs"] as? [[String: Any]] ?? []
        #expect(repairs.count == 7)
        #expect(repairs.first?["kind"] as? String == "unended_tie")
        #expect(repairs.first?["part"] as? String == "Canto")
        #expect(repairs.first?["measure"] as? String == "1")
        // The measures with two whole rests, as their own kind.
        #expect(repairs.filter { $0["kind"] as? String == "extra_rests" }.map { $0["measure"] as? String } == ["1", "2"])
    }

    /// A file of the LilyPond suite whose ties are drawn only: choir holds them and says where.
    @Test func infoListsTheDrawnTiesOfASuiteFile() throws {
        let file = "Tests/Fixtures/lilypond/33k-Tie-Types.xml"
        let result = try CLI.run(["info", file])
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                \(file)
                  Title     33k-Tie-Types
                  Composer  (unknown)
                  Key       C major
                  Time      4/4
                  Tempo     ♩ = 120 (not marked)
                  Measures  4
                  Duration  0:08
                  Verses    0
                  Lines
                    Part 1: C♯4–G5
                  Repaired  tie drawn (<tied>) without its sound (<tie>), held as drawn: Part 1 mm. 1, 2

                """)
    }

    @Test func infoAsJSON() throws {
        let result = try CLI.run(["info", "--json", CLI.example])
        #expect(result.status == 0)
        let info = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(info?["title"] as? String == "Amazing Grace")
        #expect(info?["tempo_qpm"] as? Double == 80)
        #expect(info?["duration_s"] as? Double == 36)
        #expect(info?["measures"] as? Int == 17)
        #expect(info?["verses"] as? Int == 2)
        #expect((info?["repairs"] as? [Any])?.isEmpty == true)
        let lines = info?["lines"] as? [[String: Any]] ?? []
        #expect(lines.map { $0["name"] as? String } == ["Soprano", "Alto", "Tenor", "Bass"])
        #expect(lines.map { $0["lowest"] as? String } == ["D4", "B3", "F♯3", "G2"])
        #expect(lines.map { $0["highest_midi"] as? Int } == [74, 67, 62, 55])
    }

    @Test func infoTakesSeveralFilesAndReportsEachFailure() throws {
        let result = try CLI.run(["info", CLI.example, "missing.musicxml", "Tests/Fixtures/corpus/bach_bwv1.6.mxl"])
        #expect(result.status == 66)
        #expect(
            result.stderr == """
                choir: missing.musicxml: no such file: expected a MusicXML (.musicxml, .xml) or .mxl file

                """)
        #expect(result.stdout.contains("Amazing Grace"))
        #expect(result.stdout.contains("Tests/Fixtures/corpus/bach_bwv1.6.mxl\n  Title     BWV 1.6 Wie schšn leuchtet der Morgenstern\n"))
        #expect(result.stdout.contains("    Horn 2: F3–C5\n"))
    }

    @Test func infoJSONForSeveralFilesIsAnArray() throws {
        let result = try CLI.run(["info", "--json", CLI.example, "Tests/Fixtures/corpus/demos_multiple-verses.xml"])
        let all = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        #expect(all?.map { $0["verses"] as? Int } == [2, 5])
    }

    @Test func badScoreGivesOneLineAndDataErrorStatus() throws {
        let path = NSTemporaryDirectory() + "choir-bad.musicxml"
        try "<score-partwise>\n  <part-list>\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try CLI.run(["info", path])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "choir: \(path):3:1: unexpected end of file: expected </part-list>\n")
    }
}
