import ChoirScore
import FoundationEssentials

/// Round-trip latencies measured by `choir calibrate`, per capture device, in
/// `$XDG_CONFIG_HOME/choir/latency.json`.
enum Calibration {
    static var path: String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (environment["HOME"] ?? "/tmp") + "/.config"
        return base + "/choir/latency.json"
    }

    /// The stored latency for `device`, in ms.
    static func stored(for device: String) -> Double? {
        guard let data = FileManager.default.contents(atPath: path),
            let table = try? JSONDecoder().decode([String: Double].self, from: data)
        else { return nil }
        return table[device]
    }
}
