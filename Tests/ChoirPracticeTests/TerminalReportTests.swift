import ChoirTestSupport
import Testing

@testable import ChoirPractice

/// The words a singer reads after a session: what matters by default, the rest with `--verbose`, and a heat map
/// that keeps to the terminal's width.
struct TerminalReportTests {
    /// `count` measures numbered from 1, every seventh under 60% and every eleventh under 90%.
    static func measures(_ count: Int) -> [(number: String, accuracy: Double)] {
        (1...count).map { ("\($0)", $0 % 7 == 0 ? 50 : $0 % 11 == 0 ? 75 : 100) }
    }

    /// A strip that fits stays one line with its numbers under it.
    @Test func aShortPieceIsOneStrip() {
        #expect(
            TerminalReport.heatMap(Self.measures(16), colour: false, width: 80) == """
                Measures: ██████░███▓██░██
                          1    6    11   16
                          █ ≥90%  ▓ ≥60%  ░ <60%

                """)
    }

    /// A long piece is cut into rows of whole tens of measures, each headed by its first measure's number, as many
    /// tens a row as the width holds; nothing wraps.
    @Test func aLongPieceBreaksIntoRowsOfMeasures() {
        let map = TerminalReport.heatMap(Self.measures(125), colour: false, width: 80)
        #expect(
            map == """
                Measures: m. 1   ██████░███ ▓██░██████ ░▓█████░██ ██▓█░█████ █░█▓████░█
                          m. 51  ████▓░████ ██░██▓███░ ██████░███ ███░███▓██ ░██████░▓█
                          m. 101 ████░████▓ █░██████░█ ▓████
                          █ ≥90%  ▓ ≥60%  ░ <60%

                """)
        #expect(map.split(separator: "\n").allSatisfy { $0.count <= 80 })
        let narrow = TerminalReport.heatMap(Self.measures(125), colour: false, width: 40)
        #expect(narrow.split(separator: "\n").allSatisfy { $0.count <= 40 } && narrow.hasPrefix("Measures: m. 1   ██████░███ ▓██░██████\n"))
        // In colour each cell is a coloured space, and every group ends reset.
        let coloured = TerminalReport.heatMap(Self.measures(125), colour: true, width: 80)
        #expect(coloured.split(separator: "\n").count == 4 && coloured.components(separatedBy: "\u{1B}[0m ").count > 10)
    }

    /// The planted session's notes over the bass: tenths sung as the piano plays them (14 cents wide of pure) in
    /// mm. 1–8, twelfths 14 cents flat (16 cents narrow of pure) in mm. 9–12, and double octaves in tune.
    static func chorded() -> SessionReport {
        PlantedSession.make { result in
            let measure = result.note.measureIndex
            let interval = measure < 8 ? 16 : measure < 12 ? 19 : 24
            result.note.others = [ExpectedNote.Other(line: "Bass", midi: result.note.midi - interval)]
            result.medianCents = measure < 8 ? 0 : measure < 12 ? -14 : 0
        }
    }

    /// By default "Against the chord" says in three lines at most what is sung furthest off pure, briefly;
    /// `--verbose` says every interval in full.
    @Test func againstTheChordKeepsToWhatMatters() {
        let report = Self.chorded()
        let tendencies = report.chord
        #expect(tendencies.count == 3 && tendencies.filter(\.isOff).count == 2)
        #expect(
            TerminalReport.chord(tendencies, verbose: false) == """
                Against the chord (1 more with --verbose):
                  Your fifths over the bass are 16 cents narrow (4 notes)
                  Your major thirds over the bass are 14 cents wide (8 notes)

                """)
        #expect(
            TerminalReport.chord(tendencies, verbose: true) == "Against the chord:\n" + tendencies.map { "  \($0.summary())\n" }.joined())
        let pure = tendencies.filter { !$0.isOff }
        #expect(
            TerminalReport.chord(pure, verbose: false)
                == "Against the chord: no interval sung consistently off pure (1 kind; --verbose for each)\n")
        #expect(TerminalReport.chord([], verbose: false).isEmpty)
        let full = TerminalReport.render(report, colour: false)
        #expect(full.contains("\nAgainst the chord (1 more with --verbose):\n  Your fifths"))
        #expect(TerminalReport.render(report, colour: false, verbose: true).contains("\nAgainst the chord:\n  Your unisons"))
    }
}
