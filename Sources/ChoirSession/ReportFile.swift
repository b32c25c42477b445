import ChoirAudio

/// Reports written to files.
public enum ReportFile {
    /// Writes `text` to `path` whole, or leaves `path` as it was.
    public static func write(_ text: String, to path: String) throws(SessionError) {
        do { try ReplacingFile.write(text, to: path) } catch { throw SessionError(.output, "\(error)") }
    }
}
