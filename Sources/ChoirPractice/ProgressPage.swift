import ChoirBase
import ChoirScore
import FoundationEssentials

/// The page `choir history SCORE --html FILE` writes: a piece's progress, line by line, as plots. Accuracy over the
/// sessions, a heat map of measures by sessions, and intonation over the sessions (the bias from the written pitch,
/// and each interval's distance from pure over the bass, ``ChordIntonation``). Like ``HTMLReport``, it has no
/// scripts, fonts or links, so it opens offline in any browser.
public enum ProgressPage {
    /// Colours of the plots' marks, which the browser test looks for.
    static let accuracyColour = "#1f6fb4", biasColour = "#444444"
    static let intervalColours: [ChordIntonation.Interval: String] = [
        .unison: "#7f7f7f", .minorThird: "#9467bd", .majorThird: "#d62728", .fourth: "#17becf", .fifth: "#2ca02c",
        .minorSixth: "#8c564b", .majorSixth: "#ff7f0e",
    ]
    /// The intonation plot's range, in cents either side of 0; points beyond it sit on its edge.
    static let centsRange = 30.0

    /// The page for `sessions` (oldest first, with their reports) of the piece at `score`, its days and hours
    /// those of `zone`.
    public static func render(
        score: String, _ sessions: [(session: PracticeHistory.Session, report: SessionReport)], timeZone zone: TimeZone = .current
    ) -> String {
        let piece = HTMLReport.escape(sessions.last.map(\.report.piece) ?? Score.fileName(score))
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>choir: \(piece) — progress</title>
            <style>
            body{font-family:system-ui,sans-serif;margin:2em;color:#222}
            svg{background:#fafafa;border:1px solid #ddd;display:block;margin:6px 0 4px}
            .key span{display:inline-block;width:14px;height:4px;margin:0 4px 3px 12px;vertical-align:middle}
            .file{color:#666;margin-top:-0.8em}
            </style></head><body>
            <h1>\(piece) — progress</h1>
            <p class="file">\(HTMLReport.escape(score))</p>

            """
        var lines: [String] = []
        for entry in sessions where !lines.contains(entry.report.part) { lines.append(entry.report.part) }
        for (number, line) in lines.enumerated() {
            let entries = sessions.filter { $0.report.part == line }
            let last = entries.last!.session
            html += "<section class=\"line\" id=\"line-\(number + 1)\">\n<h2>\(HTMLReport.escape(line))</h2>\n"
            html +=
                "<p>\(entries.count) session\(entries.count == 1 ? "" : "s") from \(PracticeHistory.day(entries[0].session.started, in: zone)) to "
                + "\(PracticeHistory.day(last.started, in: zone)); the last: \(String(printf: "%.1f", last.accuracy))% (\(last.correct) of \(last.notes) notes).</p>\n"
            html += "<h3>Accuracy</h3>\n" + accuracy(entries, id: "accuracy-\(number + 1)", zone: zone)
            html += "<h3>Measures by session</h3>\n" + heatMap(entries, id: "heatmap-\(number + 1)", zone: zone)
            html += "<h3>Intonation</h3>\n" + intonation(entries, id: "intonation-\(number + 1)", zone: zone)
            html += "</section>\n"
        }
        return html + "</body></html>\n"
    }

    /// The plots' x axis, which is the date: where each session sits (by when it started) across a plot `width`
    /// wide with `left` and `right` margins, one session in the middle; and the axis's labels at `y`, days (or
    /// hours, within a day) of `zone` as far apart as room for a label allows.
    static func timeAxis(
        _ entries: [(session: PracticeHistory.Session, report: SessionReport)], width: Double, left: Double, right: Double, y: Double,
        zone: TimeZone
    ) -> (x: (Int) -> Double, labels: String) {
        let times = entries.map(\.session.started.timeIntervalSince1970)
        let first = times.min() ?? 0, span = (times.max() ?? 0) - first
        let plot = width - left - right
        let x = { (index: Int) -> Double in span < 1 ? left + plot / 2 : left + (times[index] - first) / span * plot }
        guard span >= 1 else { return (x, label(at: left + plot / 2, y: y, PracticeHistory.day(entries[0].session.started, in: zone))) }
        let day = 86_400.0
        // The finest step that leaves 70 px a label: hours within a day or two, else days, weeks, months.
        let steps: [Double] = [
            3600, 2 * 3600, 3 * 3600, 6 * 3600, 12 * 3600, day, 2 * day, 7 * day, 14 * day, 30 * day, 91 * day, 365 * day,
        ]
        let step = steps.first { plot / (span / $0) >= 70 } ?? 365 * day
        let hours = step < day
        let years = Set(entries.map { PracticeHistory.day($0.session.started, in: zone).prefix(4) }).count > 1
        func text(_ time: Double) -> String {
            let date = Date(timeIntervalSince1970: time)
            return hours
                ? String(PracticeHistory.time(date, in: zone).suffix(5))
                : String(PracticeHistory.day(date, in: zone).dropFirst(years ? 0 : 5))
        }
        // Days and hours start where the singer's clock says they do, summer time or not.
        func aligned(_ time: Double, to unit: Double) -> Double {
            let offset = Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: time)))
            return ((time + offset) / unit).rounded(.up) * unit - offset
        }
        func place(_ time: Double) -> Double { left + (time - first) / span * plot }
        // The first and last sessions' own days (or times), and the days (or hours) between that leave them room.
        var svg = label(at: left, y: y, text(first)) + label(at: left + plot, y: y, text(first + span))
        var tick = aligned(first, to: hours ? step : day)
        while tick < first + span {
            let at = place(tick)
            if at - left >= 60 && left + plot - at >= 60 {
                svg += "<line x1=\"\(format(at))\" y1=\"\(format(y - 10))\" x2=\"\(format(at))\" y2=\"\(format(y - 14))\" stroke=\"#999\"/>"
                svg += label(at: at, y: y, text(tick))
            }
            tick = hours ? tick + step : aligned(tick + step - day / 2, to: day)
        }
        if hours { svg += label(at: left + plot / 2, y: y + 11, PracticeHistory.day(entries[0].session.started, in: zone)) }
        return (x, svg)
    }

    private static func label(at x: Double, y: Double, _ text: String) -> String {
        "<text class=\"date\" x=\"\(format(x))\" y=\"\(format(y))\" font-size=\"10\" fill=\"#555\" text-anchor=\"middle\">\(text)</text>\n"
    }

    /// Accuracy per session, 0–100%, as a line through a point per session.
    static func accuracy(_ entries: [(session: PracticeHistory.Session, report: SessionReport)], id: String, zone: TimeZone) -> String {
        let width = 760.0, height = 220.0, left = 44.0, right = 30.0, top = 14.0, bottom = 36.0
        let axis = timeAxis(entries, width: width, left: left, right: right, y: height - 16, zone: zone)
        let x = axis.x
        func y(_ accuracy: Double) -> Double { top + (100 - accuracy) / 100 * (height - top - bottom) }
        var svg =
            "<svg id=\"\(id)\" class=\"accuracy\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\">\n"
        for level in [0.0, 50, 100] {
            svg +=
                "<line x1=\"\(format(left))\" y1=\"\(format(y(level)))\" x2=\"\(format(width - right / 2))\" y2=\"\(format(y(level)))\" stroke=\"#ddd\"/>"
                + "<text x=\"\(format(left - 6))\" y=\"\(format(y(level) + 4))\" font-size=\"10\" fill=\"#555\" text-anchor=\"end\">\(Int(level))%</text>\n"
        }
        let points = entries.indices.map { "\(format(x($0))),\(format(y(entries[$0].session.accuracy)))" }
        if points.count > 1 {
            svg += "<polyline fill=\"none\" stroke=\"\(accuracyColour)\" stroke-width=\"3\" points=\"\(points.joined(separator: " "))\"/>\n"
        }
        for (index, entry) in entries.enumerated() {
            let session = entry.session
            svg +=
                "<circle class=\"session\" cx=\"\(format(x(index)))\" cy=\"\(format(y(session.accuracy)))\" r=\"5\" fill=\"\(accuracyColour)\">"
                + "<title>#\(session.id) \(PracticeHistory.day(session.started, in: zone)): \(String(printf: "%.1f", session.accuracy))% "
                + "(\(session.correct) of \(session.notes) notes)</title></circle>\n"
        }
        return svg + axis.labels + "</svg>\n"
    }

    /// Each measure's accuracy in each session: a row per session (oldest on top), a column per measure in the
    /// score's order, red through green, blank where the session did not sing the measure.
    static func heatMap(_ entries: [(session: PracticeHistory.Session, report: SessionReport)], id: String, zone: TimeZone) -> String {
        var numbers: [Int: String] = [:]
        for entry in entries { for result in entry.report.results { numbers[result.note.measureIndex] = result.note.measure } }
        let measures = numbers.keys.sorted()
        let cell = 18.0, left = 96.0, top = 22.0
        let width = Int(left + Double(measures.count) * cell + 10), height = Int(top + Double(entries.count) * cell + 8)
        var svg = "<svg id=\"\(id)\" class=\"heatmap\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\">\n"
        for (column, measure) in measures.enumerated() where column % 5 == 0 || column == measures.count - 1 {
            svg +=
                "<text x=\"\(format(left + Double(column) * cell + cell / 2))\" y=\"\(format(top - 8))\" font-size=\"10\" fill=\"#555\" "
                + "text-anchor=\"middle\">\(HTMLReport.escape(numbers[measure]!))</text>\n"
        }
        for (row, entry) in entries.enumerated() {
            let y = top + Double(row) * cell
            svg +=
                "<text x=\"\(format(left - 6))\" y=\"\(format(y + cell - 5))\" font-size=\"10\" fill=\"#555\" text-anchor=\"end\">"
                + "#\(entry.session.id) \(PracticeHistory.day(entry.session.started, in: zone))</text>\n"
            let sung = Dictionary(grouping: entry.report.results, by: \.note.measureIndex)
            for (column, measure) in measures.enumerated() {
                let x = left + Double(column) * cell
                guard let results = sung[measure] else {
                    svg +=
                        "<rect x=\"\(format(x))\" y=\"\(format(y))\" width=\"\(format(cell - 2))\" height=\"\(format(cell - 2))\" fill=\"#eee\"/>\n"
                    continue
                }
                let correct = results.count { $0.verdict.isCorrect }
                let accuracy = 100 * Double(correct) / Double(results.count)
                svg +=
                    "<rect class=\"cell\" x=\"\(format(x))\" y=\"\(format(y))\" width=\"\(format(cell - 2))\" height=\"\(format(cell - 2))\" "
                    + "rx=\"2\" fill=\"hsl(\(Int(accuracy * 1.2)),60%,45%)\"><title>m. \(HTMLReport.escape(numbers[measure]!)) in "
                    + "#\(entry.session.id): \(Int(accuracy.rounded()))% (\(correct) of \(results.count) notes)</title></rect>\n"
            }
        }
        return svg + "</svg>\n"
    }

    /// Intonation per session, in cents: the mean distance from the written pitch (below 0, flat), and each
    /// interval over the bass sung at least twice, as its mean distance from pure (below 0, narrow).
    static func intonation(_ entries: [(session: PracticeHistory.Session, report: SessionReport)], id: String, zone: TimeZone) -> String {
        let width = 760.0, height = 240.0, left = 44.0, right = 30.0, top = 14.0, bottom = 36.0
        let axis = timeAxis(entries, width: width, left: left, right: right, y: height - 16, zone: zone)
        let x = axis.x
        func y(_ cents: Double) -> Double {
            top + (centsRange - max(-centsRange, min(centsRange, cents))) / (2 * centsRange) * (height - top - bottom)
        }
        // Each series: its name, colour and value per session (nil where the session gives none).
        var series: [(name: String, colour: String, dashed: Bool, values: [Double?])] = [
            ("from the written pitch", biasColour, true, entries.map(\.report.biasCents))
        ]
        let tendencies = entries.map { ChordIntonation.tendencies($0.report.results, minimum: 2) }
        var kinds: [(ChordIntonation.Interval, Bool, String)] = []
        for tendency in tendencies.joined() where !kinds.contains(where: { $0.0 == tendency.interval && $0.1 == tendency.above }) {
            kinds.append((tendency.interval, tendency.above, tendency.kind))
        }
        for (interval, above, kind) in kinds.sorted(by: { ($0.0.rawValue, $0.1 ? 0 : 1) < ($1.0.rawValue, $1.1 ? 0 : 1) }) {
            let values = tendencies.map { $0.first { $0.interval == interval && $0.above == above }?.pureCents }
            series.append(("\(kind), from pure", intervalColours[interval]!, !above, values))
        }
        var svg =
            "<svg id=\"\(id)\" class=\"intonation\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\">\n"
        for level in [-centsRange, -15, 0, 15, centsRange] {
            svg +=
                "<line x1=\"\(format(left))\" y1=\"\(format(y(level)))\" x2=\"\(format(width - right / 2))\" y2=\"\(format(y(level)))\" "
                + "stroke=\"\(level == 0 ? "#999" : "#e4e4e4")\"/><text x=\"\(format(left - 6))\" y=\"\(format(y(level) + 4))\" font-size=\"10\" "
                + "fill=\"#555\" text-anchor=\"end\">\(String(printf: "%+.0f", level))</text>\n"
        }
        for item in series {
            // A line through the sessions that give a value, broken where one does not.
            var run: [String] = []
            func flush() {
                if run.count > 1 {
                    svg +=
                        "<polyline fill=\"none\" stroke=\"\(item.colour)\" stroke-width=\"2.5\"\(item.dashed ? " stroke-dasharray=\"6 4\"" : "") "
                        + "points=\"\(run.joined(separator: " "))\"/>\n"
                }
                run.removeAll()
            }
            for (index, value) in item.values.enumerated() {
                guard let value else {
                    flush()
                    continue
                }
                run.append("\(format(x(index))),\(format(y(value)))")
                svg +=
                    "<circle cx=\"\(format(x(index)))\" cy=\"\(format(y(value)))\" r=\"4\" fill=\"\(item.colour)\"><title>"
                    + "#\(entries[index].session.id): \(HTMLReport.escape(item.name)) \(String(printf: "%+.1f", value)) cents</title></circle>\n"
            }
            flush()
        }
        svg += axis.labels + "</svg>\n"
        return svg + "<p class=\"key\">"
            + series.map { "<span style=\"background:\($0.colour)\"></span>\(HTMLReport.escape($0.name))" }.joined()
            + "</p>\n<p>Above 0: sharp of the written pitch, or wider than the pure interval over the other lines' bass.</p>\n"
    }

    static func format(_ value: Double) -> String { String(printf: "%.1f", value) }
}
