import Foundation
import Glibc
import Testing

/// A private PulseAudio server with two null sinks, for real-time tests without a sound card. What is played
/// to the default sink (`choir_test`) comes back on its monitor source, which is the default source; ALSA
/// programs reach both through the `pulse` device of libasound2-plugins. `choir_mic`'s monitor is a second
/// microphone (select it with `PULSE_SOURCE`).
final class PulseServer {
    let runtime: URL
    private var pid: pid_t = 0

    /// Environment for clients of this server.
    var environment: [String: String] {
        ["XDG_RUNTIME_DIR": runtime.path, "PULSE_SERVER": "unix:" + runtime.appendingPathComponent("pulse/native").path]
    }

    init() throws {
        runtime = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("choir-pulse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let arguments = [
            "--daemonize=no", "-n", "--exit-idle-time=\(Int(Self.idleExit))", "--disallow-exit", "--log-level=error",
            "--load=module-native-protocol-unix", "--load=module-null-sink sink_name=choir_test rate=48000",
            // A second sink, whose monitor is a microphone that hears only what is played into it.
            "--load=module-null-sink sink_name=choir_mic rate=48000",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime.path
        pid = try spawn("/usr/bin/pulseaudio", arguments, environment: environment)
        // Wait until the server answers, then route defaults to the null sink and its monitor.
        for _ in 0..<100 {
            if (try? run("pactl", ["info"]))?.status == 0 { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(try run("pactl", ["set-default-sink", "choir_test"]).status == 0)
        #expect(try run("pactl", ["set-default-source", "choir_test.monitor"]).status == 0)
    }

    /// Seconds without a client after which the server exits by itself, so that none is left behind when the
    /// tests end.
    static let idleExit = 60.0

    /// Whether the server is still running.
    var isAlive: Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    /// The server's process: killing it is like pulling out a USB headset, whose streams die with it.
    var processID: pid_t { pid }

    deinit {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(at: runtime)
    }

    /// Runs a PulseAudio client tool against this server.
    @discardableResult
    func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try runTool("/usr/bin/\(tool)", arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
    }

    /// Starts playing a WAV file into the null sink; returns the player, which ends by itself.
    func play(_ wav: URL) throws -> Process {
        let player = Process()
        player.executableURL = URL(fileURLWithPath: "/usr/bin/paplay")
        player.arguments = [wav.path]
        player.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        try player.run()
        return player
    }
}
