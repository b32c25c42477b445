/// WAV files' bytes written out by hand, as a recorder would write them, for tests of the readers: no audio library
/// has a hand in them.
public enum WAVBytes {
    /// A WAV file's bytes: a `fmt ` chunk with format `tag` (as WAVE_FORMAT_EXTENSIBLE's subformat with
    /// `extensible`), a chunk readers must skip, a `fact` chunk for the formats other than integer PCM, and `body`.
    public static func wav(tag: UInt16, channels: Int, rate: Int, bits: Int, body: [UInt8], extensible: Bool = false) -> [UInt8] {
        var chunks: [UInt8] = []
        func u16(_ v: Int) { chunks += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
        func u32(_ v: Int) {
            u16(v & 0xFFFF)
            u16((v >> 16) & 0xFFFF)
        }
        chunks += Array("fmt ".utf8)
        u32(extensible ? 40 : 18)
        u16(extensible ? 0xFFFE : Int(tag))
        u16(channels)
        u32(rate)
        u32(rate * channels * bits / 8)
        u16(channels * bits / 8)
        u16(bits)
        if extensible {
            u16(22)
            u16(bits)
            u32(channels == 1 ? 0x4 : 0x3)
            u16(Int(tag))
            chunks += [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        } else {
            u16(0)
        }
        chunks += Array("LIST".utf8)
        u32(4)
        chunks += Array("INFO".utf8)
        if tag != 1 {
            chunks += Array("fact".utf8)
            u32(4)
            u32(body.count / (channels * bits / 8))
        }
        chunks += Array("data".utf8)
        u32(body.count)
        chunks += body
        if body.count % 2 == 1 { chunks.append(0) }
        var out = Array("RIFF".utf8)
        withUnsafeBytes(of: UInt32(4 + chunks.count).littleEndian) { out += $0 }
        return out + Array("WAVE".utf8) + chunks
    }

    public static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }

    /// ITU-T G.711 A-law of a 16-bit sample (as Sun's reference `linear2alaw`).
    public static func aLaw(_ sample: Int16) -> UInt8 {
        var value = Int(sample) >> 3
        let mask: Int
        if value >= 0 {
            mask = 0xD5
        } else {
            mask = 0x55
            value = -value - 1
        }
        let ends = [0x1F, 0x3F, 0x7F, 0xFF, 0x1FF, 0x3FF, 0x7FF, 0xFFF]
        guard let segment = ends.firstIndex(where: { value <= $0 }) else { return UInt8(0x7F ^ mask) }
        let step = segment < 2 ? (value >> 1) & 0xF : (value >> segment) & 0xF
        return UInt8(((segment << 4) | step) ^ mask)
    }

    /// ITU-T G.711 µ-law of a 16-bit sample (as Sun's reference `linear2ulaw`).
    public static func muLaw(_ sample: Int16) -> UInt8 {
        var value = Int(sample) >> 2
        let mask: Int
        if value < 0 {
            value = -value
            mask = 0x7F
        } else {
            mask = 0xFF
        }
        value = min(value, 8159) + (0x84 >> 2)
        let ends = [0x3F, 0x7F, 0xFF, 0x1FF, 0x3FF, 0x7FF, 0xFFF, 0x1FFF]
        guard let segment = ends.firstIndex(where: { value <= $0 }) else { return UInt8(0x7F ^ mask) }
        return UInt8(((segment << 4) | ((value >> (segment + 1)) & 0xF)) ^ mask)
    }
}
