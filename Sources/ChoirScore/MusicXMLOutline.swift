/// Where things are in a partwise MusicXML document, by byte offset in its UTF-8: its header, its identification,
/// each part's measures and every comment. For a tool that annotates a document (choir scan marks doubtful
/// measures with comments and says in `<encoding>` who wrote it) and leaves untouched what it does not change.
public struct MusicXMLOutline: Sendable {
    /// An element: where it starts and ends (tags included) and where its content starts.
    public struct Element: Sendable {
        public var name: String
        public var range: Range<Int>
        public var contentStart: Int
    }

    /// A `<measure>` of a `<part>`.
    public struct Measure: Sendable {
        public var partID: String?
        /// The `number` attribute, as written.
        public var number: String?
        /// Its place in its part, from 0: the index of ``Score/measures`` it is read into.
        public var index: Int
        /// Where its start tag begins, and where its content starts (nil for an empty `<measure/>`).
        public var start: Int
        public var contentStart: Int?
    }

    public struct Comment: Sendable {
        /// The comment's text, between `<!--` and `-->`.
        public var text: String
        public var range: Range<Int>
        /// The part and measure it is in, if any.
        public var partID: String?
        public var measureIndex: Int?
    }

    /// The document the offsets are in.
    public var utf8: [UInt8]
    /// Just past the XML declaration (`<?xml …?>`), or 0 when there is none.
    public var declarationEnd = 0
    /// The root element's start tag.
    public var rootStart = 0
    /// The `<identification>` and its children, when there is one.
    public var identification: Element?
    public var identificationChildren: [Element] = []
    /// Where the header's elements after `<identification>` start (the first `<defaults>`, `<credit>`,
    /// `<part-list>` or `<part>`): where an `<identification>` goes that the document lacks.
    public var afterIdentification: Int?
    public var measures: [Measure] = []
    public var comments: [Comment] = []

    /// Outlines the MusicXML in the bytes of a file (`file` names it in errors). The bytes must be UTF-8 already,
    /// as the offsets are theirs.
    public init(utf8: [UInt8], file: String) throws(ScoreError) {
        self.utf8 = utf8
        let xml = XMLTokenizer(utf8: utf8)
        xml.reportsComments = true
        if utf8.starts(with: Array("<?xml".utf8)), let end = utf8.firstRange(of: Array("?>".utf8)) { declarationEnd = end.upperBound }
        var part: String?
        var partMeasures = 0
        var measure: Int?
        var identificationStart: (tag: Int, content: Int)?
        var child: (name: String, tag: Int, content: Int)?
        do {
            loop: while true {
                switch try xml.next() {
                case .start:
                    let depth = xml.depth
                    if depth == 1 { rootStart = xml.tokenOffset }
                    if depth == 2 {
                        switch xml.name {
                        case "identification": identificationStart = (xml.tokenOffset, xml.offset)
                        case "defaults", "credit", "part-list", "part":
                            if afterIdentification == nil { afterIdentification = xml.tokenOffset }
                            if xml.name == "part" {
                                part = xml.attribute("id")
                                partMeasures = 0
                            }
                        default: break
                        }
                    } else if depth == 3 && identificationStart != nil && identification == nil {
                        child = (xml.name, xml.tokenOffset, xml.offset)
                    } else if depth == 3 && xml.name == "measure" && part != nil {
                        let empty = xml.offset >= 2 && utf8[xml.offset - 2] == UInt8(ascii: "/")
                        measures.append(
                            Measure(
                                partID: part, number: xml.attribute("number"), index: partMeasures, start: xml.tokenOffset,
                                contentStart: empty ? nil : xml.offset))
                        measure = partMeasures
                        partMeasures += 1
                    }
                case .end:
                    let depth = xml.depth
                    if depth == 1 && xml.name == "identification", let start = identificationStart, identification == nil {
                        identification = Element(name: "identification", range: start.tag..<xml.offset, contentStart: start.content)
                    } else if depth == 2, let open = child {
                        identificationChildren.append(Element(name: open.name, range: open.tag..<xml.offset, contentStart: open.content))
                        child = nil
                    } else if depth == 2 && xml.name == "measure" {
                        measure = nil
                    } else if depth == 1 && xml.name == "part" {
                        part = nil
                    }
                case .comment:
                    comments.append(
                        Comment(
                            text: xml.text, range: xml.tokenOffset..<xml.offset, partID: part, measureIndex: part == nil ? nil : measure))
                case .endOfDocument:
                    break loop
                case .text:
                    continue
                }
            }
        } catch {
            throw ScoreError(file: file, document: utf8, offset: error.offset, message: error.message)
        }
    }
}
