import Glibc

/// A streaming, non-validating XML pull tokenizer over UTF-8 bytes.
///
/// It is deliberately small: MusicXML needs elements, attributes and character data, nothing more.
/// The document type declaration is skipped without being read, so external DTDs are never fetched and
/// user-defined entities are never expanded: a reference to one is kept as its literal text (`&name;`).
/// Only the five predefined entities and numeric character references are decoded.
///
/// Well-formedness is checked as it goes (tags must nest and close), and every error carries the byte
/// offset where it was found so callers can report a line and column.
final class XMLTokenizer {
    enum Event: Equatable {
        case start
        case end
        case text
        /// Only when ``reportsComments`` is set: `text` is then the comment's content.
        case comment
        case endOfDocument
    }

    /// Whether comments are events (for a tool that annotates a document) rather than skipped (for the reader).
    var reportsComments = false

    /// The document, in storage the tokenizer owns, read without bounds checks on the hot paths.
    private let storage: DocumentStorage
    private var bytes: UnsafeBufferPointer<UInt8> { storage.bytes }
    @exclusivity(unchecked) private var position = 0
    /// Open elements, innermost last, as the byte ranges of their names.
    @exclusivity(unchecked) private var openElements: [Range<Int>] = []
    @exclusivity(unchecked) private var openNames: [String] = []
    /// Element names already turned into strings, by a hash of their bytes: a score has few distinct names.
    @exclusivity(unchecked) private var names = NameTable()
    @exclusivity(unchecked) private var pendingEnd = false

    /// Name of the element whose start or end was just returned.
    @exclusivity(unchecked) private(set) var name = ""
    /// Byte offset where the current token begins.
    @exclusivity(unchecked) private(set) var tokenOffset = 0
    /// Byte offset just past the current token (a start tag's `>`, an end tag's, a comment's `-->`).
    var offset: Int { position }
    @exclusivity(unchecked) private var textRange = 0..<0
    @exclusivity(unchecked) private var textIsCData = false
    /// The current element's attributes: the first `attributeCount` entries, reused from element to element.
    @exclusivity(unchecked) private var attributeRanges: [(name: Range<Int>, value: Range<Int>)] = []
    @exclusivity(unchecked) private var attributeCount = 0

    /// Creates a tokenizer over a document that is already UTF-8 (see `XMLTokenizer.utf8(from:)`).
    init(utf8 bytes: [UInt8]) {
        storage = DocumentStorage(bytes)
        attributeRanges.reserveCapacity(16)
        openElements.reserveCapacity(16)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    var depth: Int { openElements.count }

    /// Returns the next event. Whitespace-only text is reported like any other text.
    func next() throws(XMLSyntaxError) -> Event {
        if pendingEnd {
            pendingEnd = false
            openElements.removeLast()
            name = openNames.removeLast()
            return .end
        }
        while true {
            guard position < bytes.count else {
                if let open = openElements.last {
                    throw XMLSyntaxError("unexpected end of file: expected </\(string(open))>", offset: position)
                }
                return .endOfDocument
            }
            tokenOffset = position
            if bytes[position] != UInt8(ascii: "<") {
                let start = position
                position = nextMarkup(from: position)
                if openElements.isEmpty {
                    if bytes[start..<position].contains(where: { !Self.isSpace($0) }) {
                        throw XMLSyntaxError("expected '<' but found text outside the root element", offset: start)
                    }
                    continue
                }
                textRange = start..<position
                textIsCData = false
                return .text
            }
            guard position + 1 < bytes.count else {
                throw XMLSyntaxError("unexpected end of file inside a tag", offset: position)
            }
            switch bytes[position + 1] {
            case UInt8(ascii: "?"):
                try skip(past: Array("?>".utf8), what: "processing instruction")
            case UInt8(ascii: "!"):
                if matches("<!--") {
                    try skip(past: Array("-->".utf8), what: "comment")
                    if reportsComments {
                        textRange = (tokenOffset + 4)..<(position - 3)
                        textIsCData = true
                        return .comment
                    }
                } else if matches("<![CDATA[") {
                    guard !openElements.isEmpty else {
                        throw XMLSyntaxError("CDATA section outside the root element", offset: position)
                    }
                    let start = position + 9
                    try skip(past: Array("]]>".utf8), what: "CDATA section")
                    textRange = start..<(position - 3)
                    textIsCData = true
                    return .text
                } else if matches("<!DOCTYPE") {
                    try skipDoctype()
                } else {
                    throw XMLSyntaxError("expected a comment, CDATA section or DOCTYPE after '<!'", offset: position)
                }
            case UInt8(ascii: "/"):
                position += 2
                let nameRange = try scanName()
                skipSpaces()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
                    throw XMLSyntaxError("expected '>' to close the end tag", offset: position)
                }
                position += 1
                guard let open = openElements.last else {
                    throw XMLSyntaxError("unexpected end tag </\(string(nameRange))>", offset: tokenOffset)
                }
                guard open.count == nameRange.count,
                    memcmp(bytes.baseAddress! + open.lowerBound, bytes.baseAddress! + nameRange.lowerBound, open.count) == 0
                else {
                    throw XMLSyntaxError(
                        "expected </\(string(open))> but found </\(string(nameRange))>", offset: tokenOffset)
                }
                openElements.removeLast()
                name = openNames.removeLast()
                return .end
            default:
                if openElements.isEmpty && sawRoot {
                    throw XMLSyntaxError("expected the end of the document after the root element", offset: position)
                }
                position += 1
                let nameRange = try scanName()
                name = intern(nameRange)
                attributeCount = 0
                try scanAttributes()
                openElements.append(nameRange)
                openNames.append(name)
                sawRoot = true
                if bytes[position] == UInt8(ascii: "/") {
                    guard position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: ">") else {
                        throw XMLSyntaxError("expected '/>'", offset: position)
                    }
                    position += 2
                    pendingEnd = true
                } else {
                    position += 1
                }
                return .start
            }
        }
    }

    private var sawRoot = false

    /// The value of an attribute of the element just started, with references decoded.
    func attribute(_ wanted: String) -> String? {
        for (nameRange, valueRange) in attributeRanges[0..<attributeCount] where equals(nameRange, wanted) {
            return decode(valueRange)
        }
        return nil
    }

    /// The current text event's character data, with references decoded.
    var text: String { textIsCData ? string(textRange) : decode(textRange) }

    /// Reads all character data up to the end of the element just started, skipping nested markup.
    func readText() throws(XMLSyntaxError) -> String {
        let target = depth
        var result = ""
        while true {
            switch try next() {
            case .text: result += text
            case .end where depth < target: return result
            case .endOfDocument: return result
            default: continue
            }
        }
    }

    /// Skips everything up to the end of the element just started.
    func skipElement() throws(XMLSyntaxError) {
        let target = depth
        while true {
            switch try next() {
            case .end where depth < target: return
            case .endOfDocument: return
            default: continue
            }
        }
    }

    /// Calls `body` with the name of each child element of the element just started. `body` must consume
    /// the child it is given (by reading or skipping it).
    func forEachChild(_ body: (XMLTokenizer, String) throws -> Void) throws {
        let target = depth
        while true {
            switch try next() {
            case .start:
                let childDepth = depth
                try body(self, name)
                if depth >= childDepth { try skipElement() }
            case .end where depth < target: return
            case .endOfDocument: return
            default: continue
            }
        }
    }

    // MARK: - Scanning

    private static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        if b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z") || b == UInt8(ascii: "-") { return true }
        return
            !(isSpace(b) || b == UInt8(ascii: ">") || b == UInt8(ascii: "/") || b == UInt8(ascii: "=")
            || b == UInt8(ascii: "<") || b == UInt8(ascii: "\"") || b == UInt8(ascii: "'"))
    }

    private func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        let pointer = literal.utf8Start
        for i in 0..<count where bytes[position + i] != pointer[i] { return false }
        return true
    }

    private func skipSpaces() {
        while position < bytes.count && Self.isSpace(bytes[position]) { position += 1 }
    }

    private func scanName() throws(XMLSyntaxError) -> Range<Int> {
        let start = position
        while position < bytes.count && Self.isNameByte(bytes[position]) { position += 1 }
        guard position > start else {
            throw XMLSyntaxError("expected an element name", offset: start)
        }
        guard position < bytes.count else {
            throw XMLSyntaxError("unexpected end of file inside a tag", offset: position)
        }
        return start..<position
    }

    private func scanAttributes() throws(XMLSyntaxError) {
        while true {
            let hadSpace = position < bytes.count && Self.isSpace(bytes[position])
            skipSpaces()
            guard position < bytes.count else {
                throw XMLSyntaxError("unexpected end of file inside a tag", offset: position)
            }
            let b = bytes[position]
            if b == UInt8(ascii: ">") || b == UInt8(ascii: "/") { return }
            guard hadSpace else {
                throw XMLSyntaxError("expected whitespace before an attribute", offset: position)
            }
            let nameRange = try scanName()
            skipSpaces()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
                throw XMLSyntaxError("expected '=' after attribute '\(string(nameRange))'", offset: position)
            }
            position += 1
            skipSpaces()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'")
            else {
                throw XMLSyntaxError("expected a quoted value for attribute '\(string(nameRange))'", offset: position)
            }
            let quote = bytes[position]
            position += 1
            let start = position
            while position < bytes.count && bytes[position] != quote {
                if bytes[position] == UInt8(ascii: "<") {
                    throw XMLSyntaxError("'<' is not allowed in an attribute value", offset: position)
                }
                position += 1
            }
            guard position < bytes.count else {
                throw XMLSyntaxError("unexpected end of file inside an attribute value", offset: start)
            }
            if attributeCount < attributeRanges.count {
                attributeRanges[attributeCount] = (nameRange, start..<position)
            } else {
                attributeRanges.append((nameRange, start..<position))
            }
            attributeCount += 1
            position += 1
        }
    }

    private func skip(past terminator: [UInt8], what: String) throws(XMLSyntaxError) {
        let start = position
        guard let end = firstIndex(of: terminator, from: position + 2) else {
            throw XMLSyntaxError("unexpected end of file inside a \(what)", offset: start)
        }
        position = end + terminator.count
    }

    private func firstIndex(of needle: [UInt8], from: Int) -> Int? {
        var i = from
        let last = bytes.count - needle.count
        while i <= last {
            if bytes[i] == needle[0] {
                var j = 1
                while j < needle.count && bytes[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }

    /// Skips `<!DOCTYPE ...>` including an internal subset, whose declarations are never acted upon.
    private func skipDoctype() throws(XMLSyntaxError) {
        let start = position
        position += 9
        var bracketDepth = 0
        while position < bytes.count {
            let b = bytes[position]
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                position += 1
                while position < bytes.count && bytes[position] != b { position += 1 }
            } else if matches("<!--") {
                try skip(past: Array("-->".utf8), what: "comment")
                continue
            } else if b == UInt8(ascii: "[") {
                bracketDepth += 1
            } else if b == UInt8(ascii: "]") {
                bracketDepth -= 1
            } else if b == UInt8(ascii: ">") && bracketDepth <= 0 {
                position += 1
                return
            }
            position += 1
        }
        throw XMLSyntaxError("unexpected end of file inside the DOCTYPE", offset: start)
    }

    // MARK: - Decoding

    private func equals(_ range: Range<Int>, _ s: String) -> Bool {
        var utf8 = s.utf8.makeIterator()
        for i in range {
            guard let c = utf8.next(), c == bytes[i] else { return false }
        }
        return utf8.next() == nil
    }

    /// The first `<` at or after `start`, or the end of the document.
    private func nextMarkup(from start: Int) -> Int {
        guard start < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(UInt8(ascii: "<")), bytes.count - start)
        else { return bytes.count }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The element name in `range`, shared with earlier occurrences of the same name.
    private func intern(_ range: Range<Int>) -> String {
        names.string(for: UnsafeBufferPointer(rebasing: bytes[range]))
    }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    private func decode(_ range: Range<Int>) -> String {
        guard bytes[range].contains(UInt8(ascii: "&")) else { return string(range) }
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var i = range.lowerBound
        while i < range.upperBound {
            let b = bytes[i]
            guard b == UInt8(ascii: "&"),
                let semicolon = bytes[(i + 1)..<min(range.upperBound, i + 12)].firstIndex(of: UInt8(ascii: ";"))
            else {
                out.append(b)
                i += 1
                continue
            }
            let entity = string((i + 1)..<semicolon)
            if let scalar = Self.decodeEntity(entity) {
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            } else {
                out.append(contentsOf: bytes[i...semicolon])
            }
            i = semicolon + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func decodeEntity(_ entity: String) -> Unicode.Scalar? {
        switch entity {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard entity.hasPrefix("#") else { return nil }
            let digits = entity.dropFirst()
            let value: UInt32?
            if digits.hasPrefix("x") || digits.hasPrefix("X") {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits, radix: 10)
            }
            return value.flatMap(Unicode.Scalar.init)
        }
    }
}

/// A malformed XML document, at a byte offset into its UTF-8 text.
struct XMLSyntaxError: Error {
    var message: String
    var offset: Int
    init(_ message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }
}

/// A copy of the document that lives as long as the tokenizer, so it can be read through a pointer.
private final class DocumentStorage {
    let bytes: UnsafeBufferPointer<UInt8>

    init(_ array: [UInt8]) {
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: array.count)
        _ = copy.initialize(from: array)
        bytes = UnsafeBufferPointer(copy)
    }

    deinit { bytes.deallocate() }
}

/// A small open-addressing table from name bytes to shared strings.
private struct NameTable {
    private var hashes = [UInt64](repeating: 0, count: 512)
    private var strings = [String](repeating: "", count: 512)
    private var keys = [[UInt8]](repeating: [], count: 512)
    private var count = 0

    mutating func string(for name: UnsafeBufferPointer<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        hash |= 1  // 0 marks an empty slot
        var slot = Int(truncatingIfNeeded: hash) & (hashes.count - 1)
        while hashes[slot] != 0 {
            if hashes[slot] == hash, keys[slot].count == name.count,
                keys[slot].withUnsafeBufferPointer({ memcmp($0.baseAddress!, name.baseAddress!, name.count) == 0 })
            {
                return strings[slot]
            }
            slot = (slot + 1) & (hashes.count - 1)
        }
        let fresh = String(decoding: name, as: UTF8.self)
        // Past half full, stop remembering: a hostile document may invent endless names.
        if count < hashes.count / 2 {
            hashes[slot] = hash
            strings[slot] = fresh
            keys[slot] = Array(name)
            count += 1
        }
        return fresh
    }
}
