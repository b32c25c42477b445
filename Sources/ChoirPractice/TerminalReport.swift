import ChoirScore

/// The report shown when a session ends: accuracy, verdict counts, bias, a heat-map strip of the measures
/// and the weakest passages.
public enum TerminalReport {
    /// The report as text, `width` columns wide; `colour` adds ANSI colours (turn it off for NO_COLOR and files);
    /// `verbose` says every interval against the chord rather than those that matter.
    public static func render(_ report: SessionReport, colour: Bool, verbose: Bool = false, width: Int = 80) -> String {
        var out =
            "\(report.score) — \(report.part), ♩ = \(Int(report.tempo.rounded()))" + (report.verse == 1 ? "" : ", verse \(report.verse)")
            + (report.transposition.map { ", " + $0 } ?? "") + "\n"
        // With nothing judged there is no accuracy to give, nor any measure to call right.
        let interrupted = report.interruption.map { "Interrupted \($0.summary(judged: report.results.count))\n" } ?? ""
        guard !report.results.isEmpty else {
            return out + "No notes judged: no accuracy to give and no measure to work on.\n" + interrupted + audio(report)
        }
        out += "Accuracy: \(String(printf: "%.1f", report.accuracy))% (\(report.correct) of \(report.results.count) notes)\n"
        // Interrupted, the session stopped before the take's end: where it stopped is what matters.
        if !interrupted.isEmpty {
            out += interrupted
        } else if let unsung = report.unsung {
            out += "Not sung: \(unsung.summary)\n"
        }
        let lines = report.lineFigures
        if !lines.isEmpty {
            out +=
                "Lines: "
                + lines.map { "\($0.line) \(String(printf: "%.0f", $0.accuracy))% (\($0.correct) of \($0.notes))" }
                .joined(separator: ", ") + "\n"
        }
        if let divisi = report.divisi { out += "Divisi: \(divisi.summary)\n" }
        let passes = report.passes
        if passes.count > 1 {
            out +=
                "Passes: "
                + passes.map { "\($0.number): \(String(printf: "%.0f", $0.accuracy))% (\($0.correct) of \($0.notes))" }
                .joined(separator: ", ") + "\n"
        }
        let counts = report.counts
        out += "Verdicts: " + Verdict.allCases.map { "\($0.rawValue) \(counts[$0] ?? 0)" }.joined(separator: ", ") + "\n"
        if let bias = report.biasCents, let spread = report.meanAbsoluteCents {
            let leaning = abs(bias) < 5 ? "centred" : bias < 0 ? "flat" : "sharp"
            out +=
                "Intonation: \(String(printf: "%+.0f", bias)) cents on average (\(leaning)), \(String(printf: "%.0f", spread)) cents from the written pitch\n"
        }
        out += chord(report.chord, verbose: verbose)
        out += heatMap(report.measures, colour: colour, width: width)
        out += audio(report)
        // Notes sung from another line: what a choir director would name first.
        let borrowed = report.results.compactMap { result in result.evidence?.sangOther.map { (result.note, $0) } }
        if !borrowed.isEmpty {
            out += "Other lines sung:\n"
            for (note, other) in borrowed.prefix(5) {
                out += "  m. \(note.measure): sang the \(other.line)'s \(note.name(of: other.midi)) for \(note.name)\n"
            }
            if borrowed.count > 5 { out += "  and \(borrowed.count - 5) more\n" }
        }
        if !report.marks.isEmpty {
            out += "Your marks:\n" + report.marks.map { "  m. \($0.measure): \($0.text)\n" }.joined()
        }
        let passages = report.weakestPassages
        if passages.isEmpty {
            out += "No weak passages: every measure was right.\n"
        } else {
            out += "Work on:\n"
            for (rank, passage) in passages.enumerated() {
                out += "  \(rank + 1). \(passage.summary) — \(passage.suggestion)\n"
            }
        }
        return out
    }

    /// The intervals against the chord: all of them, `verbose`; else in three lines at most, the two sung furthest
    /// off pure (consistently), and how many more `--verbose` gives.
    static func chord(_ tendencies: [ChordIntonation.Tendency], verbose: Bool) -> String {
        guard !tendencies.isEmpty else { return "" }
        if verbose { return "Against the chord:\n" + tendencies.map { "  \($0.summary())\n" }.joined() }
        let shown = ChordIntonation.furthestOff(tendencies).prefix(2)
        let more = tendencies.count - shown.count
        guard !shown.isEmpty else {
            return "Against the chord: no interval sung consistently off pure (\(more) kind\(more == 1 ? "" : "s"); --verbose for each)\n"
        }
        return "Against the chord" + (more > 0 ? " (\(more) more with --verbose)" : "") + ":\n"
            + shown.map { "  \($0.summary(brief: true))\n" }.joined()
    }

    /// What went wrong with a live session's audio, if anything was measured.
    private static func audio(_ report: SessionReport) -> String {
        guard let audio = report.audio else { return "" }
        return "Audio: \(audio.summary)\n" + (audio.error.map { "Ended early: \($0)\n" } ?? "")
    }

    /// Each measure sung as a cell of a strip, red through green. A strip that fits `width` has its measure numbers
    /// under it; a longer one is cut into rows of whole tens of measures, in groups of ten, each row headed by its
    /// first measure's number.
    static func heatMap(_ measures: [(number: String, accuracy: Double)], colour: Bool, width: Int) -> String {
        guard !measures.isEmpty else { return "" }
        let indent = "          "
        let reset = colour ? "\u{1B}[0m" : ""
        let key = colour ? "\u{1B}[42m \u{1B}[0m ≥90%  \u{1B}[43m \u{1B}[0m ≥60%  \u{1B}[41m \u{1B}[0m <60%" : "█ ≥90%  ▓ ≥60%  ░ <60%"
        let cells = measures.map { cell($0.accuracy, colour: colour) }
        if indent.count + measures.count <= width {
            return "Measures: " + cells.joined() + reset + "\n" + indent + axis(measures.map(\.number)) + "\n" + indent + key + "\n"
        }
        let labels = stride(from: 0, to: measures.count, by: 10).map { "m. " + measures[$0].number }
        let label = labels.map(\.count).max()! + 1
        let groups = max(1, (width - indent.count - label + 1) / 11)
        var out = ""
        for (row, start) in stride(from: 0, to: measures.count, by: 10 * groups).enumerated() {
            let tens = stride(from: start, to: min(measures.count, start + 10 * groups), by: 10).map {
                cells[$0..<min(measures.count, $0 + 10)].joined() + reset
            }
            out +=
                (row == 0 ? "Measures: " : indent) + "m. \(measures[start].number)".padded(to: label) + tens.joined(separator: " ") + "\n"
        }
        return out + indent + key + "\n"
    }

    /// One measure of the strip: a coloured cell, or a shade without colour.
    static func cell(_ accuracy: Double, colour: Bool) -> String {
        let level = accuracy >= 90 ? 0 : accuracy >= 60 ? 1 : 2
        return colour ? ["\u{1B}[42m ", "\u{1B}[43m ", "\u{1B}[41m "][level] : ["█", "▓", "░"][level]
    }

    /// Measure numbers under the strip: the first, then every fifth cell that has room.
    static func axis(_ numbers: [String]) -> String {
        var line = ""
        for (index, number) in numbers.enumerated() where line.count <= index {
            if index == 0 || index % 5 == 0 { line += String(repeating: " ", count: index - line.count) + number }
        }
        return line
    }
}
