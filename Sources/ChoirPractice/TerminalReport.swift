import ChoirBase
import ChoirScore

/// The report shown when a session ends: accuracy, verdict counts, bias, a heat-map strip of the measures
/// and the weakest passages.
public enum TerminalReport {
    /// The report as text, `width` columns wide; `colour` adds ANSI colours (turn it off for NO_COLOR and files);
    /// `verbose` says every interval against the chord rather than those that matter. The notes to work on are
    /// listed (ten at most), or every note with `allNotes`.
    public static func render(
        _ report: SessionReport, colour: Bool, verbose: Bool = false, width: Int = 80, allNotes: Bool = false
    ) -> String {
        var out =
            "\(report.piece) — \(report.part), ♩ = \(Int(report.tempo.rounded()))" + (report.verse == 1 ? "" : ", verse \(report.verse)")
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
        if let aligned = report.alignmentSummary { out += "Take: \(aligned)\n" }
        if report.alignment == nil, let lean = report.steadyOffset {
            let advice =
                report.kind == .file
                ? "without --no-align the take is moved to fit" : "if the beat felt right to you, the latency may be off: choir calibrate"
            out += "Timing: your entrances came steadily \(Int(abs(lean) * 1000)) ms \(lean > 0 ? "late" : "early"); \(advice)\n"
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
        let given = Verdict.allCases.compactMap { verdict in counts[verdict].map { "\(verdict.rawValue) \($0)" } }
        out += "Verdicts: " + given.joined(separator: ", ") + "\n"
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
        out += notes(report, all: allNotes)
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

    /// How many notes to work on are listed unless every note is asked for.
    static let notesListed = 10

    /// The notes to work on as a table in score order: where, the syllable, what was written, what was sung, how
    /// early or late, the verdict. Past ``notesListed`` mistakes, those furthest off are kept: a missing, wrong or
    /// octave note first, then by how many times the tolerance the pitch or the timing was out.
    static func notes(_ report: SessionReport, all: Bool) -> String {
        let mistakes = report.results.filter { !$0.verdict.isCorrect }
        guard all || !mistakes.isEmpty else { return "" }
        var listed = all ? report.results : mistakes
        if !all && listed.count > notesListed {
            func severity(_ result: NoteResult) -> (Int, Double) {
                if [.missing, .wrong, .octave].contains(result.verdict) { return (0, 0) }
                if result.verdict.isTiming {
                    return (1, -abs(result.onsetError ?? 0) / report.options.timingTolerance(for: result.note))
                }
                return (1, -abs(result.medianCents ?? 0) / report.options.toleranceCents)
            }
            let kept = Set(listed.indices.sorted { severity(listed[$0]) < severity(listed[$1]) }.prefix(notesListed))
            listed = listed.indices.filter { kept.contains($0) }.map { listed[$0] }
        }
        let passes = Set(report.results.map(\.pass)).count > 1
        var rows = [["m.", "beat", "word", "wrote", "sang", "timing", "verdict"] + (passes ? ["pass"] : [])]
        for result in listed {
            rows.append(
                [
                    result.note.measure, NoteResult.beat(result.note.beat), result.note.syllable ?? "", result.note.name,
                    result.sungName ?? "not sung", result.verdict == .missing ? "" : result.offsetText ?? "", result.verdict.rawValue,
                ] + (passes ? ["\(result.pass)"] : []))
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max()! }
        var out =
            all
            ? "Notes (\(listed.count)):\n"
            : "Notes to work on (\(listed.count == mistakes.count ? "\(listed.count)" : "\(listed.count) of \(mistakes.count), furthest off")):\n"
        for row in rows {
            let cells = zip(row, widths).map { $0.padded(to: $1) }.joined(separator: "  ")
            out += "  " + String(cells.reversed().drop { $0 == " " }.reversed()) + "\n"
        }
        if !all && listed.count < mistakes.count { out += "  (--all-notes lists every note)\n" }
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
