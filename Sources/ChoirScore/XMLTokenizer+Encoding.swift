extension XMLTokenizer {
    /// Converts a document's bytes to UTF-8, following its byte-order mark or, without one, the pattern
    /// of its first bytes and its declared encoding (XML 1.0, appendix F).
    static func utf8(from data: [UInt8]) throws(XMLSyntaxError) -> [UInt8] {
        if data.starts(with: [0xFF, 0xFE]) { return try transcodeUTF16(data.dropFirst(2), bigEndian: false) }
        if data.starts(with: [0xFE, 0xFF]) { return try transcodeUTF16(data.dropFirst(2), bigEndian: true) }
        if data.starts(with: [0x3C, 0x00]) { return try transcodeUTF16(data[...], bigEndian: false) }
        if data.starts(with: [0x00, 0x3C]) { return try transcodeUTF16(data[...], bigEndian: true) }
        if data.starts(with: [0x00, 0x00]) || data.starts(with: [0x4C, 0x6F, 0xA7, 0x94]) {
            throw XMLSyntaxError("unsupported encoding: expected UTF-8, UTF-16 or ISO-8859-1", offset: 0)
        }
        switch declaredEncoding(data) {
        case nil, "utf-8", "utf8", "us-ascii", "ascii":
            return data
        case "iso-8859-1", "latin1", "latin-1", "iso8859-1":
            var out: [UInt8] = []
            out.reserveCapacity(data.count)
            for b in data {
                if b < 0x80 {
                    out.append(b)
                } else {
                    out.append(0xC0 | (b >> 6))
                    out.append(0x80 | (b & 0x3F))
                }
            }
            return out
        case "utf-16", "utf16":
            throw XMLSyntaxError("the document declares UTF-16 but has no byte-order mark", offset: 0)
        case let other?:
            throw XMLSyntaxError("unsupported encoding '\(other)': expected UTF-8, UTF-16 or ISO-8859-1", offset: 0)
        }
    }

    private static func transcodeUTF16(_ body: ArraySlice<UInt8>, bigEndian: Bool) throws(XMLSyntaxError) -> [UInt8] {
        guard body.count % 2 == 0 else {
            throw XMLSyntaxError("truncated UTF-16: odd number of bytes", offset: body.count)
        }
        var units: [UInt16] = []
        units.reserveCapacity(body.count / 2)
        var i = body.startIndex
        while i < body.endIndex {
            let a = UInt16(body[i]), b = UInt16(body[i + 1])
            units.append(bigEndian ? (a << 8 | b) : (b << 8 | a))
            i += 2
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }

    /// The `encoding` pseudo-attribute of an ASCII-compatible XML declaration, lowercased.
    private static func declaredEncoding(_ data: [UInt8]) -> String? {
        var start = 0
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        guard data[start...].starts(with: Array("<?xml".utf8)) else { return nil }
        let limit = min(data.count, start + 200)
        guard let end = data[start..<limit].firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let declaration = String(decoding: data[start..<end], as: UTF8.self)
        guard let range = declaration.firstRange(of: "encoding") else { return nil }
        let rest = declaration[range.upperBound...].drop(while: { $0 == " " || $0 == "=" })
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix(while: { $0 != quote })).lowercased()
    }
}
