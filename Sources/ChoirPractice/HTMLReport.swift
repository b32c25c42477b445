import ChoirBase
import ChoirScore

/// A self-contained HTML page (`--html FILE.html`): the summary, the heat map, and an SVG piano roll of the
/// written notes coloured by verdict with the sung pitch drawn over them. No scripts, fonts or links, so it
/// opens offline in any browser.
public enum HTMLReport {
    /// Each verdict's colour, the same on every page that shows verdicts.
    public static let colours: [Verdict: String] = [
        .correct: "#3a9d5d", .flat: "#3b7dd8", .sharp: "#e08a1e", .wrong: "#d64541", .octave: "#8e44ad",
        .early: "#17a2b8", .late: "#c9a227", .rushed: "#0e6e7c", .dragged: "#8a6d12", .missing: "#9aa0a6",
    ]

    public static func render(_ report: SessionReport) -> String {
        let counts = report.counts
        let piece = escape(report.piece)
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>choir: \(piece) — \(escape(report.part))</title>
            <style>
            body{font-family:system-ui,sans-serif;margin:2em;color:#222}
            table{border-collapse:collapse}td,th{padding:2px 10px;text-align:left}
            .heat{display:flex;gap:2px;margin:8px 0}.heat div{width:26px;height:26px;font-size:10px;color:#fff;
            display:flex;align-items:center;justify-content:center;border-radius:3px}
            .key span{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px;border-radius:2px}
            svg{background:#fafafa;border:1px solid #ddd}
            .roll{overflow-x:auto;max-width:100%}
            code{background:#f3f3f3;padding:1px 4px;font-size:90%}
            .file{color:#666;margin-top:-0.8em}
            </style></head><body>
            <h1>\(piece) — \(escape(report.part))</h1>
            <p class="file">\(escape(report.score))</p>
            <table id="summary">
            <tr><th>Accuracy</th><td>\(String(printf: "%.1f", report.accuracy))% (\(report.correct) of \(report.results.count) notes)</td></tr>
            <tr><th>Tempo</th><td>♩ = \(Int(report.tempo.rounded()))</td></tr>
            <tr><th>Tolerance</th><td>±\(Int(report.options.toleranceCents)) cents</td></tr>

            """
        for line in report.lineFigures {
            html +=
                "<tr class=\"line\"><th>\(escape(line.line))</th><td>\(String(printf: "%.0f", line.accuracy))% (\(line.correct) of \(line.notes) notes)</td></tr>\n"
        }
        if let transposition = report.transposition { html += "<tr><th>Key</th><td>\(transposition)</td></tr>\n" }
        if report.verse != 1 { html += "<tr><th>Verse</th><td>\(report.verse)</td></tr>\n" }
        if let divisi = report.divisi { html += "<tr><th>Divisi</th><td>\(escape(divisi.summary))</td></tr>\n" }
        if let bias = report.biasCents {
            html += "<tr><th>Bias</th><td>\(String(printf: "%+.0f", bias)) cents</td></tr>\n"
        }
        html +=
            "<tr><th>Verdicts</th><td>" + Verdict.allCases.map { "\($0.rawValue) \(counts[$0] ?? 0)" }.joined(separator: ", ")
            + "</td></tr>\n</table>\n<h2>Measures</h2>\n<div class=\"heat\" id=\"heatmap\">"
        for measure in report.measures {
            let hue = Int(measure.accuracy * 1.2)  // 0 red … 120 green
            html +=
                "<div style=\"background:hsl(\(hue),60%,45%)\" title=\"measure \(escape(measure.number)): \(Int(measure.accuracy))%\">\(escape(measure.number))</div>"
        }
        // A long piece scrolls inside its own box, so the page fits any window.
        html += "</div>\n<h2>Piano roll</h2>\n<div class=\"roll\">" + pianoRoll(report) + "</div>\n<p class=\"key\">"
        html += Verdict.allCases.map { "<span style=\"background:\(colours[$0]!)\"></span>\($0.rawValue)" }.joined()
        html += "<span style=\"background:#111;height:3px\"></span>sung pitch</p>\n"
        let chord = report.chord
        if !chord.isEmpty {
            html +=
                "<h2>Against the chord</h2>\n<ul id=\"chord\">\n" + chord.map { "<li>\(escape($0.summary()))</li>\n" }.joined() + "</ul>\n"
        }
        if !report.marks.isEmpty {
            html +=
                "<h2>Your marks</h2>\n<ul id=\"marks\">\n"
                + report.marks.map { "<li>m. \(escape($0.measure)): \(escape($0.text))</li>\n" }.joined() + "</ul>\n"
        }
        let passages = report.weakestPassages
        if !passages.isEmpty {
            html += "<h2>Work on</h2>\n<ol id=\"workon\">\n"
            for passage in passages {
                html += "<li>\(escape(passage.summary)) — <code>\(escape(passage.suggestion))</code></li>\n"
            }
            html += "</ol>\n"
        }
        return html + "</body></html>\n"
    }

    /// What a verdict rests on, for a note's tooltip: " (median of 41 frames, 87% of the note sung; sang the Alto's D4)".
    static func evidence(_ evidence: NoteResult.Evidence, of note: ExpectedNote) -> String {
        let sung = String(printf: "%.0f", 100 * evidence.voicedShare) + "% of the note sung"
        return " (" + (evidence.framesJudged > 0 ? "median of \(evidence.framesJudged) frames, " : "") + sung
            + (evidence.sangOther.map { "; sang the \(escape($0.line))'s \(note.name(of: $0.midi))" } ?? "") + ")"
    }

    /// Written notes as bars (time across, pitch up), the sung trace as lines, measure numbers on top, note
    /// names down the left and the lyrics underneath.
    static func pianoRoll(_ report: SessionReport) -> String {
        let notes = report.results.map(\.note)
        let written = ((notes.map(\.midi).min() ?? 60) - 3, (notes.map(\.midi).max() ?? 72) + 3)
        // The trace up to an octave beyond the written notes stays on the roll: an octave error must show.
        let shown = report.trace.map(\.midi).filter { $0 >= Double(written.0) - 12 && $0 <= Double(written.1) + 12 }
        let low = min(written.0, shown.min().map { Int($0.rounded(.down)) - 1 } ?? written.0)
        let high = max(written.1, shown.max().map { Int($0.rounded(.up)) + 1 } ?? written.1)
        let end = max(notes.map(\.end).max() ?? 1, report.trace.last?.time ?? 0)
        let pxPerSecond = 60.0, rowHeight = 10.0, top = 20.0, left = 34.0
        // The lyrics run in a lane of their own under the roll.
        let lyricLane = report.lyrics.isEmpty ? 0.0 : 16.0
        let rollBottom = Double(high - low + 1) * rowHeight + top
        let width = Int(left + end * pxPerSecond) + 20, height = Int(rollBottom + 10 + lyricLane)
        func x(_ time: Double) -> String { String(printf: "%.1f", left + time * pxPerSecond) }
        func y(_ midi: Double) -> String { String(printf: "%.1f", top + (Double(high) - midi) * rowHeight) }
        var svg =
            "<svg id=\"pianoroll\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">\n"
        for midi in low...high where [0, 2, 4, 5, 7, 9, 11].contains(((midi % 12) + 12) % 12) == false {
            svg += "<rect x=\"0\" y=\"\(y(Double(midi) + 0.5))\" width=\"\(width)\" height=\"\(rowHeight)\" fill=\"#eee\"/>\n"
        }
        for midi in low...high where [0, 4, 7].contains(((midi % 12) + 12) % 12) {
            svg +=
                "<text class=\"pitch\" x=\"2\" y=\"\(y(Double(midi) - 0.4))\" font-size=\"9\" fill=\"#666\">"
                + "\(PitchName.name(midi: midi))</text>\n"
        }
        for mark in report.measureStarts where mark.time <= end {
            svg += "<line x1=\"\(x(mark.time))\" y1=\"12\" x2=\"\(x(mark.time))\" y2=\"\(height)\" stroke=\"#ccc\"/>"
            svg += "<text x=\"\(x(mark.time))\" y=\"11\" font-size=\"10\" fill=\"#666\">\(escape(mark.number))</text>\n"
            // The singer's pencil marks at their measure: a flag that says them on hover, and their words.
            for pencil in report.marks where pencil.measure == mark.number {
                svg +=
                    "<g class=\"mark\"><title>m. \(escape(pencil.measure)): \(escape(pencil.text))</title>"
                    + "<rect x=\"\(x(mark.time))\" y=\"13\" width=\"6\" height=\"8\" fill=\"#c60\"/>"
                    + "<text x=\"\(String(printf: "%.1f", left + mark.time * pxPerSecond + 8))\" y=\"20\" font-size=\"9\" fill=\"#c60\">"
                    + "\(escape(pencil.text))</text></g>\n"
            }
        }
        for result in report.results {
            let note = result.note
            svg +=
                "<rect class=\"note \(result.verdict.rawValue)\" x=\"\(x(note.onset))\" y=\"\(y(Double(note.midi) + 0.5))\" "
                + "width=\"\(String(printf: "%.1f", max(1, note.duration * pxPerSecond - 1)))\" height=\"\(rowHeight - 1)\" rx=\"2\" "
                + "fill=\"\(colours[result.verdict]!)\" fill-opacity=\"0.75\"><title>\(escape(result.summary))"
                + (ChordIntonation.note(result).map {
                    "; \(escape($0.description)): \(ChordIntonation.Tendency.cents($0.pureCents)) of pure"
                } ?? "")
                + (result.evidence.map { evidence($0, of: note) } ?? "") + "</title></rect>\n"
        }
        for syllable in report.lyrics where syllable.start <= end {
            svg +=
                "<text class=\"lyric\" x=\"\(x(syllable.start))\" y=\"\(String(printf: "%.1f", rollBottom + 20))\" font-size=\"10\" "
                + "fill=\"#333\">\(escape(syllable.text + (syllable.continues ? "-" : "")))</text>\n"
        }
        // The trace, broken wherever the singer stopped.
        var segment: [String] = []
        var previous: TracePoint?
        func flush() {
            if segment.count > 1 {
                svg +=
                    "<polyline class=\"trace\" fill=\"none\" stroke=\"#111\" stroke-width=\"1.5\" points=\"\(segment.joined(separator: " "))\"/>\n"
            }
            segment.removeAll()
        }
        for point in report.trace where point.midi >= Double(low) && point.midi <= Double(high) {
            if let previous, point.time - previous.time > 0.1 || abs(point.midi - previous.midi) > 6 { flush() }
            segment.append("\(x(point.time)),\(y(point.midi))")
            previous = point
        }
        flush()
        return svg + "</svg>"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
