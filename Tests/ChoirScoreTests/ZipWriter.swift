import CZlib

/// Writes small zip archives for tests: stored entries, or one deflated run of zeros.
enum ZipWriter {
    struct Entry {
        var name: String
        var data: [UInt8]
        var method: UInt16
        var crc: UInt32
        var size: Int
    }

    static func crc(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
    }

    /// An archive of stored (uncompressed) entries.
    static func archive(_ files: [(String, [UInt8])]) -> [UInt8] {
        archive(entries: files.map { Entry(name: $0.0, data: $0.1, method: 0, crc: crc($0.1), size: $0.1.count) })
    }

    /// A compressed MusicXML archive whose score is `megabytes` MB of zeros, deflated; `claimedSize` makes its headers lie.
    static func deflatedZeros(megabytes: Int, name: String, claimedSize: Int? = nil) -> [UInt8] {
        var stream = z_stream()
        _ = deflateInit2_(&stream, 9, Z_DEFLATED, -MAX_WBITS, 9, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var zeros = [UInt8](repeating: 0, count: 1 << 20)
        var out = [UInt8](repeating: 0, count: 1 << 20)
        var compressed: [UInt8] = []
        var checksum: uLong = 0
        for index in 0..<megabytes {
            zeros.withUnsafeMutableBufferPointer { input in
                checksum = crc32(checksum, input.baseAddress, uInt(input.count))
                stream.next_in = input.baseAddress
                stream.avail_in = uInt(input.count)
                repeat {
                    out.withUnsafeMutableBufferPointer { output in
                        stream.next_out = output.baseAddress
                        stream.avail_out = uInt(output.count)
                        _ = deflate(&stream, index == megabytes - 1 ? Z_FINISH : Z_NO_FLUSH)
                        compressed += output[0..<(output.count - Int(stream.avail_out))]
                    }
                } while stream.avail_out == 0 || stream.avail_in > 0
            }
        }
        let container = Array("<container><rootfiles><rootfile full-path=\"\(name)\"/></rootfiles></container>".utf8)
        return archive(entries: [
            Entry(name: "META-INF/container.xml", data: container, method: 0, crc: crc(container), size: container.count),
            Entry(name: name, data: compressed, method: 8, crc: UInt32(checksum), size: claimedSize ?? megabytes << 20),
        ])
    }

    static func archive(entries: [Entry]) -> [UInt8] {
        var bytes: [UInt8] = []
        var directory: [UInt8] = []
        func u16(_ v: Int, _ into: inout [UInt8]) { into += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
        func u32(_ v: Int, _ into: inout [UInt8]) {
            u16(v & 0xFFFF, &into)
            u16((v >> 16) & 0xFFFF, &into)
        }
        for entry in entries {
            let offset = bytes.count
            let name = Array(entry.name.utf8)
            bytes += [0x50, 0x4B, 0x03, 0x04]
            u16(20, &bytes)
            u16(0, &bytes)
            u16(Int(entry.method), &bytes)
            u16(0, &bytes)
            u16(0, &bytes)
            u32(Int(entry.crc), &bytes)
            u32(entry.data.count, &bytes)
            u32(entry.size, &bytes)
            u16(name.count, &bytes)
            u16(0, &bytes)
            bytes += name + entry.data
            directory += [0x50, 0x4B, 0x01, 0x02]
            u16(20, &directory)
            u16(20, &directory)
            u16(0, &directory)
            u16(Int(entry.method), &directory)
            u16(0, &directory)
            u16(0, &directory)
            u32(Int(entry.crc), &directory)
            u32(entry.data.count, &directory)
            u32(entry.size, &directory)
            u16(name.count, &directory)
            u16(0, &directory)
            u16(0, &directory)
            u16(0, &directory)
            u16(0, &directory)
            u32(0, &directory)
            u32(offset, &directory)
            directory += name
        }
        let directoryOffset = bytes.count
        bytes += directory
        bytes += [0x50, 0x4B, 0x05, 0x06]
        u16(0, &bytes)
        u16(0, &bytes)
        u16(entries.count, &bytes)
        u16(entries.count, &bytes)
        u32(directory.count, &bytes)
        u32(directoryOffset, &bytes)
        u16(0, &bytes)
        return bytes
    }
}
