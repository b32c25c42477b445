import ChoirBase
import FoundationEssentials
import Glibc

/// What the terminal hands to the desktop, and says of the browser pages it opened.
public enum Desktop {
    /// Opens `address` in `$BROWSER`, else `xdg-open`, detached from the terminal; the browser's name when it could
    /// not be started.
    public static func browse(_ address: String) -> String? {
        let browser = ProcessInfo.processInfo.environment["BROWSER"].flatMap { $0.isEmpty ? nil : $0 } ?? "xdg-open"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let words: [String] = ["/usr/bin/env", browser, address]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        return SpawnAttributes.withSignalsReset({ posix_spawn(&pid, "/usr/bin/env", &actions, $0, argv, environ) }) == 0 ? nil : browser
    }

    /// How long after the microphone `shown` painted what was sung (median, 95th percentile and maximum, in ms), and
    /// `plus`.
    public static func delay(_ lag: (median: Int, percentile95: Int, maximum: Int), shown: String, plus: String = "") -> String {
        "\(shown) showed what was sung \(lag.median) ms after it was captured (median; 95%: \(lag.percentile95) ms, "
            + "at most \(lag.maximum) ms)" + plus
    }
}
