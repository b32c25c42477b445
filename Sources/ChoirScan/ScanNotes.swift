import ChoirBase
import ChoirScore
import Glibc

/// What a scanned file says of itself, as MusicXML comments that travel with it: that a model made it and it needs
/// checking against the pages (at the top), and each doubtful place (inside its measure, in its part). `choir info`
/// reads them back; any MusicXML editor keeps them out of the way.
public struct ScanNotes: Sendable {
    /// A doubtful place: a measure of a part, of every part, or the whole score.
    public struct Doubt: Sendable, Equatable {
        /// The measure, by index in written order (into ``Score/measures``); nil for the whole score.
        public var measureIndex: Int?
        /// The part it concerns; nil for every part.
        public var partID: String?
        public var reason: String
    }

    /// What choir says at the top: who made the file, from what, and that it needs checking. Nil for a file choir
    /// did not scan.
    public var made: String?
    public var doubts: [Doubt]

    /// Every comment choir writes begins so.
    static let marker = "choir scan:"
    /// How a doubtful place is marked, by the model ("doubtful: …") and in choir's own comment after the marker.
    static let doubtful = "doubtful:"

    /// The notes in an outlined document; none when choir did not scan it.
    public init(_ outline: MusicXMLOutline) {
        made = nil
        doubts = []
        for comment in outline.comments {
            guard let said = Self.after(Self.marker, in: comment.text) else { continue }
            if let reason = Self.after(Self.doubtful, in: said) {
                doubts.append(Doubt(measureIndex: comment.measureIndex, partID: comment.partID, reason: reason))
            } else if made == nil {
                made = said
            }
        }
    }

    /// The notes in a MusicXML document (UTF-8), or nil when choir did not scan it.
    public static func read(utf8 document: [UInt8], file: String) -> ScanNotes? {
        guard document.firstRange(of: Array(marker.utf8)) != nil, let outline = try? MusicXMLOutline(utf8: document, file: file) else {
            return nil
        }
        let notes = ScanNotes(outline)
        return notes.made == nil && notes.doubts.isEmpty ? nil : notes
    }

    /// The places the model itself marked doubtful (`<!-- doubtful: … -->`), with where its marks are.
    static func marked(_ outline: MusicXMLOutline) -> [(range: Range<Int>, doubt: Doubt)] {
        outline.comments.compactMap { comment in
            after(doubtful, in: comment.text).map {
                (comment.range, Doubt(measureIndex: comment.measureIndex, partID: comment.partID, reason: "the model is unsure: \($0)"))
            }
        }
    }

    /// "m. 5 (Tenor): …", "m. 9: …" or "the whole score: …", for each doubt of `score`, in score order.
    public static func lines(_ doubts: [Doubt], in score: Score) -> [String] {
        doubts.sorted { ($0.measureIndex ?? -1) < ($1.measureIndex ?? -1) }.map { doubt in
            guard let index = doubt.measureIndex, score.measures.indices.contains(index) else { return "the whole score: \(doubt.reason)" }
            let part = doubt.partID.flatMap { id in score.parts.first { $0.id == id }?.name }
            return "m. \(score.measures[index].number)" + (part.map { " (\($0))" } ?? "") + ": \(doubt.reason)"
        }
    }

    /// `outline`'s document with choir's notes: `made` at the top; the model's own doubtful marks rewritten as
    /// choir's, and `found` (choir's findings) added inside their measures; and an `<encoding>` that names
    /// `software` and says that the file needs checking, in place of the model's.
    static func annotate(_ outline: MusicXMLOutline, made: String, found: [Doubt], software: String, date: String) -> [UInt8] {
        var edits: [(range: Range<Int>, text: String)] = []
        let header = comment("\(marker) \(made)") + found.filter { $0.measureIndex == nil }.map { "\n" + comment(note($0)) }.joined()
        edits.append(outline.declarationEnd > 0 ? (outline.declarationEnd..<outline.declarationEnd, "\n" + header) : (0..<0, header + "\n"))
        for (range, doubt) in marked(outline) { edits.append((range, comment(note(doubt)))) }
        for doubt in found {
            guard let index = doubt.measureIndex else { continue }
            let measures = outline.measures.filter { $0.index == index }
            guard let measure = measures.first(where: { $0.partID == doubt.partID }) ?? measures.first else { continue }
            let text = comment(note(doubt))
            if let content = measure.contentStart {
                edits.append((content..<content, indentation(at: content, in: outline.utf8) + text))
            } else {
                edits.append((measure.start..<measure.start, text))
            }
        }
        let encoding =
            "<encoding><software>\(escaped(software))</software><encoding-date>\(date)</encoding-date>"
            + "<encoding-description>Read from pages of printed music by a vision model: it needs checking against the pages."
            + "</encoding-description></encoding>"
        if let identification = outline.identification {
            let children = outline.identificationChildren
            for child in children where child.name == "encoding" { edits.append((child.range, "")) }
            // After the creators and rights, where MusicXML puts the encoding.
            let at = children.last { $0.name == "creator" || $0.name == "rights" }?.range.upperBound ?? identification.contentStart
            edits.append((at..<at, encoding))
        } else if let at = outline.afterIdentification {
            edits.append((at..<at, "<identification>\(encoding)</identification>" + indentation(at: at, in: outline.utf8, before: true)))
        }
        var document = outline.utf8
        // From the end, so that each edit's offsets still hold; inserts at one place keep their order.
        for edit in edits.enumerated().sorted(by: { ($0.element.range.lowerBound, $0.offset) > ($1.element.range.lowerBound, $1.offset) }) {
            document.replaceSubrange(edit.element.range, with: Array(edit.element.text.utf8))
        }
        return document
    }

    /// A doubt as choir writes it in its measure.
    private static func note(_ doubt: Doubt) -> String { "\(marker) \(doubtful) \(doubt.reason)" }

    /// `<!-- text -->`, the text made safe for a comment (no "--", not ending in "-") and one line.
    static func comment(_ text: String) -> String {
        var safe = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        while safe.contains("--") { safe = safe.replacing("--", with: "–") }
        while safe.hasSuffix("-") { safe.removeLast() }
        return "<!-- \(safe) -->"
    }

    /// The text after `prefix` (ignoring case and surrounding spaces), or nil when `text` does not start with it.
    private static func after(_ prefix: String, in text: String) -> String? {
        let trimmed = text.drop { $0.isWhitespace }
        guard trimmed.lowercased().hasPrefix(prefix) else { return nil }
        let rest = trimmed.dropFirst(prefix.count)
        return String(rest.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    /// The line break and indentation that follow (or, `before`, precede) `offset`, so that an inserted element
    /// lines up with its neighbours; "" when the document is on one line.
    private static func indentation(at offset: Int, in document: [UInt8], before: Bool = false) -> String {
        if before {
            var start = offset
            while start > 0, document[start - 1] == 0x20 || document[start - 1] == 0x09 { start -= 1 }
            guard start > 0, document[start - 1] == 0x0A else { return "" }
            return "\n" + String(decoding: document[start..<offset], as: UTF8.self)
        }
        var end = offset
        while end < document.count, [0x0A, 0x0D, 0x20, 0x09].contains(document[end]) { end += 1 }
        let space = document[offset..<end]
        guard let newline = space.lastIndex(of: 0x0A) else { return "" }
        return "\n" + String(decoding: document[(newline + 1)..<end], as: UTF8.self)
    }

    private static func escaped(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }

    /// Today, as MusicXML dates are written: "2025-06-01".
    static func today() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return String(printf: "%04d-%02d-%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
    }
}
