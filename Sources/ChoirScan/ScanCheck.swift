import ChoirBase
import ChoirScore

/// What choir's own reader finds in a reply's MusicXML: an error that stops it reading (with file, line and
/// column), and places that read but need a look (measures that do not fill their time signature, slips the
/// reader repaired, the singer's line missing). Both go back to the model in a repair pass; what remains after
/// the last pass is doubtful.
struct ScanCheck {
    /// A place that needs a look, with what is wrong in words the model and the singer both read.
    struct Finding: Equatable {
        /// The measure, by index in written order; nil for the whole score.
        var measureIndex: Int? = nil
        /// The part it concerns; nil for every part.
        var partID: String? = nil
        var text: String
    }

    /// The MusicXML document in the reply, as UTF-8; empty when there is none.
    var document: [UInt8]
    var score: Score?
    /// Why the document does not read, with the line it points to.
    var error: String?
    var findings: [Finding] = []

    /// Checks the MusicXML in `reply`, naming it `file` in errors; `part` is the singer's line, if they said.
    init(reply: String, file: String, part: String?) {
        document = Self.musicXML(in: reply)
        guard !document.isEmpty else {
            error = "the reply holds no MusicXML document: expected <?xml … <score-partwise> … </score-partwise>"
            return
        }
        let score: Score
        do {
            score = try ScoreReader.read(document: document, file: file)
        } catch {
            self.error = error.description + Self.quote(line: error.line, of: document)
            return
        }
        self.score = score
        findings = Self.measures(score) + Self.repairs(score)
        if score.parts.allSatisfy(\.notes.isEmpty) {
            findings.append(Finding(text: "the score has no notes"))
        } else if let part {
            do {
                _ = try LineSelector.select(part, from: score.lines)
            } catch {
                findings.append(Finding(text: "the singer's line, \(part), is not there (\(error)): name each sung line's part as printed"))
            }
        }
    }

    /// Everything the model should put right, one line each: the error, or the findings by measure.
    func problems(_ score: Score?) -> [String] {
        if let error { return [error] }
        return findings.map { Self.place($0, in: score) + $0.text }
    }

    /// "m. 5 (Tenor): ", or nothing for the whole score.
    static func place(_ finding: Finding, in score: Score?) -> String {
        guard let index = finding.measureIndex, let score, score.measures.indices.contains(index) else { return "" }
        let part = finding.partID.flatMap { id in score.parts.first { $0.id == id }?.name }
        return "m. \(score.measures[index].number)" + (part.map { " (\($0))" } ?? "") + ": "
    }

    /// The document in a reply: from its XML declaration (or DOCTYPE, or root) to the end of its root, without
    /// the words or Markdown fences a model may put around it. A document without its end is kept whole, for the
    /// reader to say where it stops.
    static func musicXML(in reply: String) -> [UInt8] {
        let starts = ["<?xml", "<!DOCTYPE", "<score-partwise", "<score-timewise"].compactMap { reply.firstRange(of: $0)?.lowerBound }
        guard let start = starts.min() else { return [] }
        var text = reply[start...]
        if let end = (text.ranges(of: "</score-partwise>") + text.ranges(of: "</score-timewise>")).map(\.upperBound).max() {
            text = text[..<end]
        } else if let fence = text.firstRange(of: "```") {
            text = text[..<fence.lowerBound]
        }
        return Array(text.utf8) + [0x0A]
    }

    /// ` (line 12: <note><pich>)`: the line an error points to, so that the model sees what it wrote.
    private static func quote(line: Int?, of document: [UInt8]) -> String {
        guard let line else { return "" }
        let lines = document.split(separator: 0x0A, omittingEmptySubsequences: false)
        guard lines.indices.contains(line - 1) else { return "" }
        let text = String(decoding: lines[line - 1], as: UTF8.self).trimmed
        return text.isEmpty ? "" : " (line \(line): \(text.count > 160 ? String(text.prefix(160)) + "…" : text))"
    }

    /// Measures whose notes and rests do not add up to their time signature. A first measure marked implicit is a
    /// pickup, and a last one that completes it is whole; another implicit measure is half of one split across a
    /// line, whole with its neighbour.
    static func measures(_ score: Score) -> [Finding] {
        let measures = score.measures
        var findings: [Finding] = []
        for (index, measure) in measures.enumerated() {
            let full = measure.time.measureLength
            guard measure.duration != full else { continue }
            if measure.duration < full {
                if index == 0 && measure.isImplicit { continue }
                if index == measures.count - 1, index > 0, measures[0].isImplicit, measures[0].duration + measure.duration == full {
                    continue
                }
                let neighbours = [index - 1, index + 1].filter { measures.indices.contains($0) }
                if measure.isImplicit, neighbours.contains(where: { measures[$0].duration + measure.duration == full }) { continue }
            }
            let pickup = index == 0 && measure.duration < full ? "; a pickup measure is marked implicit=\"yes\"" : ""
            findings.append(
                Finding(
                    measureIndex: index,
                    text:
                        "the notes and rests add up to \(quarters(measure.duration)) where \(measure.time) needs \(quarters(full))\(pickup)"
                ))
        }
        for part in score.parts {
            for (index, difference) in part.misfitMeasures.sorted(by: { $0.key < $1.key }) {
                let measure = measures[index]
                let against =
                    measure.duration == measure.time.measureLength
                    ? "\(measure.time) needs \(quarters(measure.duration))" : "the other parts' add up to \(quarters(measure.duration))"
                findings.append(
                    Finding(
                        measureIndex: index, partID: part.id,
                        text: "this part's notes and rests add up to \(quarters(measure.duration + difference)) where \(against)"))
            }
        }
        return findings
    }

    /// Slips the reader repaired, but for measure lengths (said above): the model wrote what a musician would not.
    static func repairs(_ score: Score) -> [Finding] {
        score.repairs.filter { $0.kind != .measureLength }.map { repair in
            Finding(
                measureIndex: repair.measureIndex, partID: score.parts.first { $0.name == repair.part }?.id,
                text: "choir's reader had to repair it: \(repair.kind.summary)")
        }
    }

    /// "3 quarter notes", "1 quarter note", "2.5 quarter notes".
    static func quarters(_ value: Rational) -> String {
        let number = value.denominator == 1 ? "\(value.numerator)" : String(printf: "%g", value.doubleValue)
        return number + (value == Rational(1) ? " quarter note" : " quarter notes")
    }
}

extension String {
    fileprivate var trimmed: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
