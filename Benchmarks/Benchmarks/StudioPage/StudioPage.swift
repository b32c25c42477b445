import Benchmark
import Foundation
import Glibc

/// choir itself, as `just bench` builds it (release), driven as a singer's browser drives it: headless Chromium
/// through Playwright (`Benchmarks/page-driver.py`).
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
let choir = root + "/.build/release/choir"
let example = root + "/Resources/ExamplePieces/amazing_grace.musicxml"
let demoTake = root + "/Resources/DemoTakes/amazing_grace_tenor.wav"
/// SATB with a piano, 32 measures and three verses: four pages at the benchmark's window (eight on A4).
let fourPages = root + "/Tests/Fixtures/corpus/johnson_j_r_lift_every_voice.mxl"

struct Failure: Error, CustomStringConvertible { var description: String }

/// A program started with its standard streams on pipes; what it writes on standard error is kept as it comes.
final class Launched: @unchecked Sendable {
    let process = Process()
    private let input = Pipe(), output = Pipe(), errors = Pipe()
    private var buffered = Data()
    private let said = NSLock()
    private var errorText = Data()

    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        (process.standardInput, process.standardOutput, process.standardError) = (input, output, errors)
        errors.fileHandleForReading.readabilityHandler = { [unowned self] handle in
            let data = handle.availableData
            said.withLock { errorText += data }
        }
        try process.run()
    }

    /// The next line it prints; a failure once it has ended.
    func line() throws -> String {
        while !buffered.contains(UInt8(ascii: "\n")) {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { throw Failure(description: "\(process.arguments ?? []) ended: \(standardError)") }
            buffered += more
        }
        let end = buffered.firstIndex(of: UInt8(ascii: "\n"))!
        defer { buffered = Data(buffered[(end + 1)...]) }
        return String(decoding: buffered[..<end], as: UTF8.self)
    }

    /// Reads lines until one contains `text`; returns it.
    func line(containing text: String) throws -> String {
        while true {
            let line = try line()
            if line.contains(text) { return line }
        }
    }

    func type(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }

    /// Ends its input and waits for it to end; returns what it said on standard error. (`choir studio` ends on a
    /// line, not at the end of its input: `type("\n")` first.)
    @discardableResult
    func finish() -> String {
        try? input.fileHandleForWriting.close()
        status = exitStatus()
        errors.fileHandleForReading.readabilityHandler = nil
        return standardError + String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// How it exited, once ``finish()`` has returned.
    private(set) var status: Int32 = -1

    /// Waits for it with `waitpid`: inside the benchmark's runner, Foundation's `waitUntilExit` never sees it end.
    private func exitStatus() -> Int32 {
        var status: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(process.processIdentifier, &status, 0) } while reaped < 0 && errno == EINTR
        // Reaped by Foundation after all: it has the status.
        guard reaped == process.processIdentifier else { return process.isRunning ? -1 : process.terminationStatus }
        return status & 0x7f == 0 ? (status >> 8) & 0xff : -1
    }

    var standardError: String { said.withLock { String(decoding: errorText, as: UTF8.self) } }

    /// Its resident memory now and at its peak, in bytes, as the kernel counts them.
    var memory: (resident: Int, peak: Int) {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        func kilobytes(_ field: String) -> Int {
            let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
        return (kilobytes("VmRSS"), kilobytes("VmHWM"))
    }
}

/// Headless Chromium, one request at a time (`Benchmarks/page-driver.py`).
final class Browser {
    private let driver: Launched

    init() throws { driver = try Launched("/usr/bin/env", ["python3", root + "/Benchmarks/page-driver.py"]) }
    deinit { driver.finish() }

    @discardableResult
    func ask(_ request: [String: Any]) throws -> Any {
        driver.type(String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self) + "\n")
        let line = try driver.line()
        guard let answer = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw Failure(description: "the page driver said \(line)")
        }
        if let error = answer["error"] as? String { throw Failure(description: "\(request): \(error)") }
        return answer["value"] ?? true
    }

    /// Opens `address` in a new tab of 1400 × 1000 px; with `score`, waits for the score to show and returns the ms from
    /// asking for the page to the end of the frame that first showed it.
    @discardableResult
    func open(_ address: String, score: Bool = false) throws -> Double {
        try ask(["open": address, "score": score, "width": 1400, "height": 1000]) as? Double ?? 0
    }

    /// A script's value, a promise's once it settles.
    func eval(_ script: String) throws -> Any { try ask(["eval": script]) }
}

/// A folder of its own for each run: choir's history, caches and settings, and the studio's scores.
func scratch(_ name: String) throws -> String {
    let folder = NSTemporaryDirectory() + "choir-bench-\(name)-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder + "/scores", withIntermediateDirectories: true)
    return folder
}

func homes(_ folder: String) -> [String: String] {
    ["XDG_DATA_HOME": folder, "XDG_CONFIG_HOME": folder, "XDG_CACHE_HOME": folder + "/cache"]
}

/// `choir studio` on a folder holding `score`, playing silently on true time, with the app open in `browser`;
/// returns the studio and the piece's path in its library.
func studio(_ score: String, in folder: String, browser: Browser) throws -> (Launched, address: String, piece: String) {
    try FileManager.default.copyItem(atPath: score, toPath: folder + "/scores/" + URL(fileURLWithPath: score).lastPathComponent)
    let studio = try Launched(choir, ["studio", folder + "/scores", "--device", "none"], environment: homes(folder))
    let address = String(try studio.line(containing: "Studio: ").split(separator: " ").last ?? "")
    try browser.open(address)
    let pieces = try browser.eval("fetch('library.json').then((answer) => answer.json()).then((pieces) => pieces.map((p) => p.path))")
    guard let piece = (pieces as? [String])?.first else { throw Failure(description: "the studio's library: \(pieces)") }
    return (studio, address, piece)
}

/// Plays `piece` from the studio's page (as its Play button does); the session's page.
func play(_ piece: String, studio address: String, browser: Browser) throws -> String {
    try browser.open(address)
    let query = "path=" + (piece.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? piece)
    let started = try browser.eval("fetch('play?\(query)', { method: 'POST' }).then((answer) => answer.json())")
    guard let session = (started as? [String: Any])?["session"] as? Int else { throw Failure(description: "play: \(started)") }
    return address + "session/\(session)/"
}

let benchmarks: @Sendable () -> Void = {
    // The studio's page for a piece being played, asked for until its first page of a four-page SATB score is
    // painted, the engraving at the tab's size cached by a first load. Under 1 s.
    let firstPaint = BenchmarkMetric.custom("first paint (ms)", polarity: .prefersSmaller, useScalingFactor: false)
    Benchmark(
        "studio: first paint of a four-page SATB score, engraving cached",
        configuration: .init(
            metrics: [firstPaint], warmupIterations: 0, scalingFactor: .one, maxDuration: .seconds(120), maxIterations: 10,
            thresholds: [firstPaint: .init(absolute: [.p100: 1000])])
    ) { benchmark in
        let folder = try scratch("paint")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let browser = try Browser()
        let (studio, address, piece) = try studio(fourPages, in: folder, browser: browser)
        defer {
            studio.type("\n")
            studio.finish()
        }
        // The engraving at this tab's size, made and cached.
        let pages = try browser.open(try play(piece, studio: address, browser: browser), score: true)
        let count = try browser.eval("document.querySelectorAll('.page').length") as? Int ?? 0
        guard count == 4 else { throw Failure(description: "expected four pages at 1400 × 1000, engraved \(count) (\(pages) ms)") }
        for _ in benchmark.scaledIterations {
            let session = try play(piece, studio: address, browser: browser)
            benchmark.measurement(firstPaint, Int(try browser.open(session, score: true).rounded()))
        }
    }

    // The studio's memory with the example open: the app, then the example played with its page painted.
    let resident = BenchmarkMetric.custom("studio resident (MiB)", polarity: .prefersSmaller, useScalingFactor: false)
    let peak = BenchmarkMetric.custom("studio peak resident (MiB)", polarity: .prefersSmaller, useScalingFactor: false)
    Benchmark(
        "studio: memory with the example open",
        configuration: .init(
            metrics: [resident, peak], warmupIterations: 0, scalingFactor: .one, maxDuration: .seconds(120), maxIterations: 3)
    ) {
        benchmark in
        for _ in benchmark.scaledIterations {
            let folder = try scratch("memory")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let browser = try Browser()
            let (studio, address, piece) = try studio(example, in: folder, browser: browser)
            try browser.open(try play(piece, studio: address, browser: browser), score: true)
            Thread.sleep(forTimeInterval: 2)
            let memory = studio.memory
            studio.type("\n")
            studio.finish()
            benchmark.measurement(resident, memory.resident >> 20)
            benchmark.measurement(peak, memory.peak >> 20)
        }
    }

    // Sound in to the page: `choir practice --view` on a PulseAudio null sink, the demo take sung into a second one
    // whose monitor is the microphone, the page open in Chromium; the delay from a captured sample to the page's
    // painting what was decided from it, as the session measures it (median and 95th percentile of every state
    // painted, verdicts among them). No worse than 41 ms median.
    let median = BenchmarkMetric.custom("sound in to page, median (ms)", polarity: .prefersSmaller, useScalingFactor: false)
    let tail = BenchmarkMetric.custom("sound in to page, 95th percentile (ms)", polarity: .prefersSmaller, useScalingFactor: false)
    Benchmark(
        "practice --view: sound in to a judged note on the page",
        configuration: .init(
            metrics: [median, tail], warmupIterations: 0, scalingFactor: .one, maxDuration: .seconds(600), maxIterations: 3,
            thresholds: [median: .init(absolute: [.p50: 41])])
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let folder = try scratch("delay")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let pulse = try PulseAudio(in: folder)
            defer { pulse.stop() }
            let session = try Launched(
                choir,
                [
                    "practice", example, "--part", "tenor", "--no-history", "--input", "pulse:mic.monitor", "--output", "pulse:out",
                    "--view",
                ], environment: homes(folder).merging(pulse.environment) { $1 })
            let address = String(try session.line(containing: "Score view: ").split(separator: " ").last ?? "")
            let browser = try Browser()
            try browser.open(address, score: true)
            let singer = try Launched("/usr/bin/paplay", ["-d", "mic", demoTake], environment: pulse.environment)
            _ = try session.line(containing: "press Enter")
            session.type("\n")
            let said = session.finish()
            singer.finish()
            // "choir: the score view showed what was sung 41 ms after it was captured (median; 95%: 90 ms, at most …)"
            guard let range = said.range(of: "the score view showed what was sung ") else {
                throw Failure(description: "the session said no delay: \(said)")
            }
            // The median, the 95 of "95%", the 95th percentile.
            let figures = said[range.upperBound...].split { !$0.isNumber }.prefix(3).compactMap { Int($0) }
            benchmark.measurement(median, figures[0])
            benchmark.measurement(tail, figures[2])
        }
    }
}

/// A private PulseAudio server with two null sinks: `out` (the default) and `mic`, whose monitor is a microphone
/// that hears only what is played into it.
struct PulseAudio {
    let server: Launched
    let environment: [String: String]

    init(in folder: String) throws {
        let runtime = folder + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        environment = ["XDG_RUNTIME_DIR": runtime, "PULSE_SERVER": "unix:\(runtime)/pulse/native"]
        server = try Launched(
            "/usr/bin/pulseaudio",
            [
                "--daemonize=no", "-n", "--exit-idle-time=-1", "--log-level=error", "--load=module-native-protocol-unix",
                "--load=module-null-sink sink_name=out rate=48000", "--load=module-null-sink sink_name=mic rate=48000",
            ], environment: ["XDG_RUNTIME_DIR": runtime])
        for _ in 0..<100 {
            let info = try Launched("/usr/bin/pactl", ["info"], environment: environment)
            info.finish()
            if info.status == 0 { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let route = try Launched("/usr/bin/pactl", ["set-default-sink", "out"], environment: environment)
        route.finish()
    }

    func stop() {
        server.process.terminate()
        server.finish()
    }
}
