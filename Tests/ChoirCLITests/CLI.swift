import Foundation
import Glibc
import Testing

/// Runs the built `choir` executable and captures what it prints.
enum CLI {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Tests/Fixtures")
    static let example = "Resources/ExamplePieces/amazing_grace.musicxml"

    /// The `choir` built beside the test bundle.
    static let executable = product("choir")

    /// An executable of the package, built beside the test bundle.
    static func product(_ name: String) -> URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for folder in [beside, beside.deletingLastPathComponent()] {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return root.appendingPathComponent(".build/debug/" + name)
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `choir` (or `executable`) with `arguments` from the package root (or `directory`), with colour and terminal
    /// features off. A run that outlasts `timeout` seconds is killed, so a hang fails the test instead of stalling the suite.
    static func run(
        _ arguments: [String], environment extra: [String: String] = [:], timeout: Double = 60,
        executable: URL = executable, directory: String? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory.map { URL(fileURLWithPath: $0) } ?? root
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["COLUMNS"] = "100"
        // What choir prints is checked in UTF-8 unless a test says otherwise.
        environment["LC_ALL"] = "C.UTF-8"
        // Sessions' days and times are the singer's; the tests' are UTC's.
        environment["TZ"] = "UTC"
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        nonisolated(unsafe) let watched = process
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            if watched.isRunning { kill(watched.processIdentifier, SIGKILL) }
        }
        // Read before waiting, so a large output cannot fill the pipe and stall the child.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// The expected output kept in `Tests/Fixtures/cli/NAME`. With `CHOIR_UPDATE_GOLDEN=1` (`just update-golden`)
    /// the file is also rewritten from `actual`, for reviewing the change with git; the test still compares with
    /// what the file held before, so a run that changes a file fails and no run compares an output with itself.
    static func golden(_ name: String, _ actual: String) throws -> String {
        let url = fixtures.appendingPathComponent("cli/\(name)")
        let expected = Swift.Result { try String(contentsOf: url, encoding: .utf8) }
        if ProcessInfo.processInfo.environment["CHOIR_UPDATE_GOLDEN"] == "1" {
            try actual.write(to: url, atomically: true, encoding: .utf8)
        }
        return try expected.get()
    }
}
