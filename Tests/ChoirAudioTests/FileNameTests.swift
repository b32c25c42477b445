import ChoirFiles
import Glibc
import Testing

/// File names as bytes: any bytes come back from their String as they were.
struct FileNameTests {
    /// Every single byte, names in Latin-1 and in UTF-8, a lone continuation byte, a truncated sequence, an
    /// overlong encoding, a surrogate's encoding, and real characters of the escapes' own range: each decodes to a
    /// String and encodes back to its bytes; valid UTF-8 without those characters stays the same String.
    @Test func anyBytesComeBackAsTheyWere() {
        var names: [[UInt8]] = (0...255).map { [UInt8(ascii: "a"), UInt8($0)] }
        names += [
            Array("caf".utf8) + [0xE9], Array("café".utf8), [0x80], [0xE2, 0x82], [0xC0, 0xAF], [0xED, 0xA0, 0x80],
            Array("\u{10FF80}\u{10FFFF}\u{10FEFF}".utf8), Array("Ave Maria – Sopran ♩.musicxml".utf8),
        ]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            names.append((0..<Int.random(in: 0...12, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
        }
        for bytes in names {
            let name = FileName.decode(bytes)
            #expect(FileName.encode(name) == bytes, "\(bytes)")
            #expect(FileName.withPath(name) { strlen($0) } == bytes.prefix { $0 != 0 }.count)
        }
        #expect(FileName.decode(Array("Ave Maria – Sopran ♩.musicxml".utf8)) == "Ave Maria – Sopran ♩.musicxml")
        #expect(!FileName.isEscaped("Ave Maria – Sopran ♩.musicxml") && FileName.isEscaped(FileName.decode([0x63, 0xE9])))
    }
}
