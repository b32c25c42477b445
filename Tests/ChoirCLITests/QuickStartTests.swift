import Foundation
import Testing

/// The README's first command, `just demo`: its release build (the Justfile's `build` recipe, run as written, in the
/// package's own build folder, so that after `just demo` there is nothing left to build) links, and the program it
/// makes judges the demo take as the debug build does, without the Swift runtime's libraries.
struct QuickStartTests {
    /// The command of the Justfile's `build` recipe.
    static func buildCommand() throws -> String {
        let justfile = try String(contentsOf: CLI.root.appendingPathComponent("Justfile"), encoding: .utf8)
        let lines = justfile.split(separator: "\n", omittingEmptySubsequences: false)
        let recipe = try #require(lines.firstIndex { $0.hasPrefix("build:") }, "the Justfile has no build recipe")
        let command = lines[recipe + 1].trimmingCharacters(in: .whitespaces)
        #expect(command == "swift build -c release --product choir --static-swift-stdlib" && lines[recipe + 2].isEmpty, "\(command)")
        return command
    }

    @Test func theReleaseBuildOfTheQuickStartRuns() throws {
        let command = try Self.buildCommand()
        let started = Date()
        let build = try CLI.run(["-c", command], timeout: 1800, executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(build.status == 0, "\(command):\n\(build.stdout.suffix(3000))\(build.stderr.suffix(3000))")
        print("quick start: `\(command)` took \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        let choir = CLI.root.appendingPathComponent(".build/release/choir")
        try #require(FileManager.default.isExecutableFile(atPath: choir.path))

        // The demo's fallback without a sound device, as `just demo` runs it (its mix and history kept aside).
        let data = try PracticeCommandTests.dataHome()
        let demo = try CLI.run(
            ["practice", CLI.example, "--part", "tenor", "--input", PracticeCommandTests.take, "--output", data + "/demo-mix.wav"],
            environment: ["XDG_DATA_HOME": data], executable: choir)
        #expect(demo.status == 0 && demo.stderr == "choir: wrote the mix to \(data)/demo-mix.wav\n", "\(demo.stderr)")
        #expect(demo.stdout == (try CLI.golden("practice-demo-take.txt", demo.stdout)))
        #expect((try FileManager.default.attributesOfItem(atPath: data + "/demo-mix.wav")[.size] as? Int ?? 0) > 1_000_000)
        #expect(try CLI.run(["history"], environment: ["XDG_DATA_HOME": data], executable: choir).stdout.contains("89.3%"))

        // The Swift runtime is inside the program (`--static-swift-stdlib`), so it starts anywhere.
        let libraries = try CLI.run([choir.path], executable: URL(fileURLWithPath: "/usr/bin/ldd"))
        #expect(libraries.status == 0 && !libraries.stdout.contains("libswiftCore"), "\(libraries.stdout)")
        let version = try CLI.run(["--version"], executable: choir)
        #expect(version.status == 0 && version.stdout.hasPrefix("choir 0.1.0 (FluidSynth "), "\(version.stdout)")
    }
}
