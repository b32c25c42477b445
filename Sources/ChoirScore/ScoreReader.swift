import Foundation
import ZIPFoundation

/// Opens MusicXML (`.musicxml`, `.xml`) and compressed MusicXML (`.mxl`) files.
public enum ScoreReader {
    /// The most a compressed entry may expand to; beyond it the file is refused as a zip bomb.
    public static let maximumExpandedSize = 256 * 1024 * 1024

    /// Reads the score at `path`. A zip archive is read as `.mxl` whatever its extension.
    public static func read(contentsOf path: String) throws(ScoreError) -> Score {
        let data: [UInt8]
        do {
            data = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file"
            throw ScoreError(file: path, message: "\(reason): expected a MusicXML (.musicxml, .xml) or .mxl file")
        }
        guard !data.isEmpty else {
            throw ScoreError(file: path, message: "empty file: expected a MusicXML document")
        }
        if data.starts(with: [0x50, 0x4B, 0x03, 0x04]) || data.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
            let (document, entry) = try extractRootfile(path)
            return try read(document: document, file: "\(path)!\(entry)")
        }
        if path.lowercased().hasSuffix(".mxl") {
            throw ScoreError(file: path, message: "not a zip archive: expected a compressed MusicXML (.mxl) file")
        }
        return try read(document: data, file: path)
    }

    /// Reads a MusicXML document from its bytes; `file` names it in errors.
    public static func read(document data: [UInt8], file: String) throws(ScoreError) -> Score {
        let utf8: [UInt8]
        do {
            utf8 = try XMLTokenizer.utf8(from: data)
        } catch {
            throw ScoreError(file: file, document: data, offset: error.offset, message: error.message)
        }
        do {
            return try MusicXMLReader().read(utf8: utf8)
        } catch {
            throw ScoreError(file: file, document: utf8, offset: error.offset, message: error.message)
        }
    }

    /// The bytes of the first rootfile named in `META-INF/container.xml`, and its name.
    private static func extractRootfile(_ path: String) throws(ScoreError) -> ([UInt8], String) {
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw ScoreError(file: path, message: "not a readable zip archive: expected a compressed MusicXML (.mxl) file")
        }
        let containerName = "META-INF/container.xml"
        guard let container = archive[containerName] else {
            throw ScoreError(file: path, message: "no \(containerName): expected a compressed MusicXML (.mxl) file")
        }
        let containerXML = try extract(container, from: archive, file: path)
        guard let rootName = try rootfilePath(containerXML, file: "\(path)!\(containerName)") else {
            throw ScoreError(file: "\(path)!\(containerName)", message: "no <rootfile full-path=...>: expected the score's path")
        }
        guard let root = archive[rootName] else {
            throw ScoreError(file: path, message: "the rootfile '\(rootName)' named in \(containerName) is not in the archive")
        }
        return (try extract(root, from: archive, file: path), rootName)
    }

    private static func extract(_ entry: Entry, from archive: Archive, file: String) throws(ScoreError) -> [UInt8] {
        let tooLarge = ScoreError(
            file: "\(file)!\(entry.path)",
            message: "expands to more than \(maximumExpandedSize / 1024 / 1024) MB: refused as a zip bomb")
        guard entry.uncompressedSize <= UInt64(maximumExpandedSize) else { throw tooLarge }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(entry.uncompressedSize))
        do {
            // The declared size may lie, so the limit is also enforced on what actually comes out.
            _ = try archive.extract(entry, skipCRC32: false) { chunk in
                guard bytes.count + chunk.count <= maximumExpandedSize else { throw tooLarge }
                bytes.append(contentsOf: chunk)
            }
        } catch let error as ScoreError {
            throw error
        } catch {
            throw ScoreError(file: "\(file)!\(entry.path)", message: "corrupt compressed entry: \(error)")
        }
        return bytes
    }

    private static func rootfilePath(_ data: [UInt8], file: String) throws(ScoreError) -> String? {
        do {
            var xml = XMLTokenizer(utf8: try XMLTokenizer.utf8(from: data))
            while true {
                switch try xml.next() {
                case .start where xml.name == "rootfile":
                    if let path = xml.attribute("full-path"), !path.isEmpty { return path }
                case .endOfDocument: return nil
                default: continue
                }
            }
        } catch {
            throw ScoreError(file: file, document: data, offset: error.offset, message: error.message)
        }
    }
}
