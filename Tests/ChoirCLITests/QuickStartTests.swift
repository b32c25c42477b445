import Foundation
import Testing

/// The README's first command, `just demo`: its build (the Justfile's `demo` recipe's own `swift build`, run as
/// written, in the package's own build folder, which the tests share, so that after `just demo` the tests build only
/// themselves) makes the program the tests run, and the demo's fallback without a sound device judges the demo take
/// as the demo prints it.
struct QuickStartTests {
    /// The build command of the Justfile's `demo` recipe.
    static func buildCommand() throws -> String {
        let justfile = try String(contentsOf: CLI.root.appendingPathComponent("Justfile"), encoding: .utf8)
        let lines = justfile.split(separator: "\n", omittingEmptySubsequences: false)
        let recipe = try #require(lines.firstIndex { $0.hasPrefix("demo:") }, "the Justfile has no demo recipe")
        let body = lines[(recipe + 1)...].prefix { $0.hasPrefix("    ") }
        let build = try #require(body.first { $0.contains("swift build") }, "the demo recipe builds nothing")
        let command = build.trimmingCharacters(in: .whitespaces)
        #expect(command == "swift build --product choir || exit", "\(command)")
        return String(command.prefix { $0 != "|" }).trimmingCharacters(in: .whitespaces)
    }

    @Test func theQuickStartsBuildIsTheTestsOwn() throws {
        let command = try Self.buildCommand()
        let started = Date()
        let build = try CLI.run(["-c", command], timeout: 1800, executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(build.status == 0, "\(command):\n\(build.stdout.suffix(3000))\(build.stderr.suffix(3000))")
        print("quick start: `\(command)` took \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        let choir = CLI.root.appendingPathComponent(".build/debug/choir")
        #expect(choir.resolvingSymlinksInPath().path == CLI.executable.resolvingSymlinksInPath().path, "\(CLI.executable.path)")

        // The demo's fallback without a sound device, as `just demo` runs it (its mix and history kept aside).
        let data = try PracticeCommandTests.dataHome()
        let demo = try CLI.run(
            ["practice", CLI.example, "--part", "tenor", "--input", PracticeCommandTests.take, "--output", data + "/demo-mix.wav"],
            environment: ["XDG_DATA_HOME": data], executable: choir)
        #expect(demo.status == 0 && demo.stderr == "choir: wrote the mix to \(data)/demo-mix.wav\n", "\(demo.stderr)")
        #expect(demo.stdout == (try CLI.golden("practice-demo-take.txt", demo.stdout)))
        #expect((try FileManager.default.attributesOfItem(atPath: data + "/demo-mix.wav")[.size] as? Int ?? 0) > 1_000_000)
        #expect(try CLI.run(["history"], environment: ["XDG_DATA_HOME": data], executable: choir).stdout.contains("89.3%"))
        let version = try CLI.run(["--version"], executable: choir)
        #expect(version.status == 0 && version.stdout.hasPrefix("choir 0.1.0 (FluidSynth "), "\(version.stdout)")
    }
}
