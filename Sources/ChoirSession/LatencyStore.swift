import FoundationEssentials

/// Round-trip latencies measured by ``LatencyCalibration``, per pair of playback and capture devices, in ms, in
/// `$XDG_CONFIG_HOME/choir/latency.json`.
public enum LatencyStore {
    public static var path: String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (environment["HOME"] ?? "/tmp") + "/.config"
        return base + "/choir/latency.json"
    }

    /// The stored latency from `output` to `input`, in ms; nil when none is stored or the table is unreadable.
    public static func stored(output: String, input: String) -> Double? {
        (try? table())?[key(output: output, input: input)]
    }

    /// Stores a latency, keeping the other pairs' values.
    public static func store(_ milliseconds: Double, output: String, input: String) throws(SessionError) {
        var table = (try? table()) ?? [:]
        table[key(output: output, input: input)] = (milliseconds * 10).rounded() / 10
        let directory = String(path[..<path.lastIndex(of: "/")!])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try ReportFile.write(String(decoding: try encoder.encode(table), as: UTF8.self), to: path)
        } catch {
            throw SessionError(.output, "\(path): cannot be written: expected a writable configuration directory")
        }
    }

    /// Why the stored table cannot be used, if a file is there that is not one.
    public static var problem: String? {
        do {
            _ = try table()
            return nil
        } catch {
            return "\(path): not a latency table (expected {\"OUTPUT -> INPUT\": ms}); ignoring it"
        }
    }

    private static func key(output: String, input: String) -> String { "\(output) -> \(input)" }

    private static func table() throws -> [String: Double] {
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        return try JSONDecoder().decode([String: Double].self, from: data)
    }
}
