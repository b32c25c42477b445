import CZlib

/// A read-only zip archive held in memory: enough of the format for compressed MusicXML (`.mxl`).
///
/// Written against the PKWARE APPNOTE rather than taken from a general zip library, so that every size is
/// checked against the bytes actually present and decompression stops at a hard limit: a corrupt or
/// hostile archive gives an error, never a hang or a runaway allocation.
struct ZipArchive {
    struct Entry {
        var path: String
        var method: UInt16
        var crc32: UInt32
        var compressedSize: Int
        var uncompressedSize: Int
        var localHeaderOffset: Int
    }

    enum Failure: Error, Equatable {
        case notAZip
        case corrupt(String)
        case unsupported(String)
        case tooLarge
    }

    let bytes: [UInt8]
    private(set) var entries: [Entry] = []

    init(_ bytes: [UInt8]) throws(Failure) {
        self.bytes = bytes
        // The end-of-central-directory record sits in the last 22 bytes plus an optional comment.
        let earliest = max(0, bytes.count - 22 - 65_535)
        var end = bytes.count - 22
        while end >= earliest && !(end >= 0 && matches(end, [0x50, 0x4B, 0x05, 0x06])) { end -= 1 }
        guard end >= earliest, end >= 0 else { throw .notAZip }
        let count = Int(u16(end + 10))
        let directorySize = Int(u32(end + 12))
        let directoryOffset = Int(u32(end + 16))
        if count == 0xFFFF || directoryOffset == 0xFFFF_FFFF { throw .unsupported("ZIP64 archives") }
        guard directoryOffset + directorySize <= end else { throw .corrupt("central directory out of bounds") }
        var at = directoryOffset
        for _ in 0..<count {
            guard at + 46 <= end, matches(at, [0x50, 0x4B, 0x01, 0x02]) else {
                throw .corrupt("bad central directory entry")
            }
            let nameLength = Int(u16(at + 28)), extraLength = Int(u16(at + 30)), commentLength = Int(u16(at + 32))
            guard at + 46 + nameLength <= end else { throw .corrupt("entry name out of bounds") }
            entries.append(
                Entry(
                    path: String(decoding: bytes[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self),
                    method: u16(at + 10), crc32: u32(at + 16), compressedSize: Int(u32(at + 20)),
                    uncompressedSize: Int(u32(at + 24)), localHeaderOffset: Int(u32(at + 42))))
            at += 46 + nameLength + extraLength + commentLength
        }
    }

    subscript(path: String) -> Entry? { entries.first { $0.path == path } }

    /// The entry's contents, refusing to produce more than `limit` bytes whatever the headers claim.
    func extract(_ entry: Entry, limit: Int) throws(Failure) -> [UInt8] {
        let header = entry.localHeaderOffset
        guard header + 30 <= bytes.count, matches(header, [0x50, 0x4B, 0x03, 0x04]) else {
            throw .corrupt("bad local header for \(entry.path)")
        }
        let start = header + 30 + Int(u16(header + 26)) + Int(u16(header + 28))
        guard start <= bytes.count, entry.compressedSize <= bytes.count - start else {
            throw .corrupt("\(entry.path) is truncated")
        }
        guard entry.uncompressedSize <= limit else { throw .tooLarge }
        let data = bytes[start..<(start + entry.compressedSize)]
        let output: [UInt8]
        switch entry.method {
        case 0: output = Array(data)
        case 8: output = try Self.inflate(data, limit: limit, path: entry.path)
        default: throw .unsupported("compression method \(entry.method) for \(entry.path)")
        }
        let checksum = output.withUnsafeBufferPointer { buffer in
            UInt32(crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
        guard checksum == entry.crc32 else { throw .corrupt("checksum mismatch in \(entry.path)") }
        return output
    }

    private static func inflate(_ data: ArraySlice<UInt8>, limit: Int, path: String) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corrupt("cannot start decompressing \(path)")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var input = Array(data)
        var status: Int32 = Z_OK
        input.withUnsafeMutableBufferPointer { buffer in
            stream.next_in = buffer.baseAddress
            stream.avail_in = uInt(buffer.count)
            while status == Z_OK {
                let before = (stream.avail_in, output.count)
                chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    output.append(contentsOf: out[0..<(out.count - Int(stream.avail_out))])
                }
                if output.count > limit { status = Z_MEM_ERROR }
                // No input taken and no output made: the stream is truncated or stuck.
                if status == Z_OK && before == (stream.avail_in, output.count) { status = Z_BUF_ERROR }
            }
        }
        switch status {
        case Z_STREAM_END: return output
        case Z_MEM_ERROR where output.count > limit: throw .tooLarge
        case Z_BUF_ERROR: throw .corrupt("\(path) is truncated")
        default: throw .corrupt("\(path) is not valid deflate data")
        }
    }

    private func matches(_ at: Int, _ signature: [UInt8]) -> Bool {
        at + signature.count <= bytes.count && bytes[at..<(at + signature.count)].elementsEqual(signature)
    }

    private func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
    private func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
}
