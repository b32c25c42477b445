import ChoirFiles

/// The file a scan writes: tried before the model is asked, so that a path that cannot be written costs nothing,
/// and written whole or not at all.
public struct ScanOutput: Sendable {
    public let path: String

    /// Checks that `path` can be written, by making the file that would replace it and removing it again (nothing
    /// is left behind if the scan is then interrupted).
    public init(path: String) throws(ScanError) {
        self.path = path
        do { _ = try ReplacingFile(path: path) } catch { throw ScanError(.output, error.description) }
    }

    /// Why `path` cannot take a scan's MusicXML by its name, or nil: it ends in .musicxml or .xml.
    public static func problem(_ path: String) -> String? {
        [".musicxml", ".xml"].contains(where: { path.lowercased().hasSuffix($0) })
            ? nil : "\(path): expected a file ending in .musicxml or .xml"
    }

    /// Writes the scan's MusicXML in place of whatever `path` held.
    public func write(_ result: Scan.Result) throws(ScanError) {
        do {
            let file = try ReplacingFile(path: path)
            try file.write(result.document)
            try file.commit()
        } catch {
            throw ScanError(.output, error.description)
        }
    }

    /// Keeps a reply that could not be used beside `path` (`piece.musicxml.rejected`, no score by its name), for
    /// the singer to look at; returns where, or nil when it cannot be written.
    public func keep(rejected text: String) -> String? {
        let kept = path + ".rejected"
        do { try ReplacingFile.write(text, to: kept) } catch { return nil }
        return kept
    }
}
