import ChoirFiles
import Foundation
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

    /// A folder's names are listed as their bytes decode (Latin-1, UTF-8, a lone continuation byte), each of which
    /// names its file again; a folder that is not there lists nothing.
    @Test func aFoldersNamesAreTheirBytes() throws {
        var template = Array("/tmp/choir-names-XXXXXX".utf8CString)
        let folder = try #require(mkdtemp(&template).map { String(cString: $0) })
        defer { _ = try? FileManager.default.removeItem(atPath: folder) }
        let names: [[UInt8]] = [Array("caf".utf8) + [0xE9], Array("café".utf8), [0x61, 0x80], Array("hymn.musicxml".utf8)]
        for name in names {
            let descriptor = FileName.withPath(folder + "/" + FileName.decode(name)) { open($0, O_WRONLY | O_CREAT, 0o644) }
            try #require(descriptor >= 0)
            close(descriptor)
        }
        let listed = try #require(FileName.names(in: folder))
        #expect(Set(listed) == Set(names.map(FileName.decode)), "\(listed)")
        #expect(listed.allSatisfy { FileName.exists(folder + "/" + $0) })
        #expect(FileName.names(in: folder + "/none") == nil)
    }

    /// A folder of thousands of names, short and long, fills the system's directory buffer many times over; each
    /// name is listed once and whole. The last entry of each buffer sits at its very end: a listing that copied
    /// more than the name there read past it (CI crashed on an unmapped page; AddressSanitizer catches it always).
    @Test func aFullFolderIsListedWithoutReadingPastItsEntries() throws {
        var template = Array("/tmp/choir-names-XXXXXX".utf8CString)
        let folder = try #require(mkdtemp(&template).map { String(cString: $0) })
        defer { _ = try? FileManager.default.removeItem(atPath: folder) }
        let names = (0..<3000).map { index in String(index) + String(repeating: "x", count: index % 7 == 0 ? 200 : index % 5) }
        for name in names {
            let descriptor = FileName.withPath(folder + "/" + name) { open($0, O_WRONLY | O_CREAT, 0o644) }
            try #require(descriptor >= 0)
            close(descriptor)
        }
        let listed = try #require(FileName.names(in: folder))
        #expect(listed.count == names.count)
        #expect(Set(listed) == Set(names))
    }
}
