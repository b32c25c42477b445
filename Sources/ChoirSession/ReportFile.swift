import ChoirFiles
import ChoirPractice

/// Reports written to files.
public enum ReportFile {
    /// Writes `text` to `path` whole, or leaves `path` as it was.
    public static func write(_ text: String, to path: String) throws(SessionError) {
        do { try ReplacingFile.write(text, to: path) } catch { throw SessionError(.output, "\(error)") }
    }

    /// Writes `report` as JSON (``JSONReport``) to `json` and as an HTML page (``HTMLReport``) to `html`, where given.
    public static func write(_ report: SessionReport, json: String?, html: String?) throws(SessionError) {
        if let json { try write(JSONReport.render(report), to: json) }
        if let html { try write(HTMLReport.render(report), to: html) }
    }
}
