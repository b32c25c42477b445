import ChoirScore
import FoundationEssentials

/// Round-trip latencies measured by `choir calibrate`, per pair of playback and capture devices, in ms, in
/// `$XDG_CONFIG_HOME/choir/latency.json`.
enum Calibration {
    static var path: String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (environment["HOME"] ?? "/tmp") + "/.config"
        return base + "/choir/latency.json"
    }

    /// The key of a pair of devices in the table.
    static func key(output: String, input: String) -> String { "\(output) -> \(input)" }

    /// The stored latency from `output` to `input`, in ms.
    static func stored(output: String, input: String) -> Double? {
        table()[key(output: output, input: input)]
    }

    /// Stores a latency, keeping the other pairs' values.
    static func store(_ milliseconds: Double, output: String, input: String) throws {
        var table = table()
        table[key(output: output, input: input)] = (milliseconds * 10).rounded() / 10
        let directory = String(path[..<path.lastIndex(of: "/")!])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try encoder.encode(table).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw fail("\(path): cannot be written: expected a writable configuration directory")
        }
    }

    private static func table() -> [String: Double] {
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        guard let table = try? JSONDecoder().decode([String: Double].self, from: data) else {
            var standardError = StandardError()
            print("choir: \(path): not a latency table (expected {\"OUTPUT -> INPUT\": ms}); ignoring it", to: &standardError)
            return [:]
        }
        return table
    }
}
