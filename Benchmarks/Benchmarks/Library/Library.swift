import Benchmark
import ChoirLibrary
import ChoirScore
import Foundation

/// The shared corpus, as the tests hold it, copied 14 times over: 406 scores, as a singer's library might hold.
let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/corpus")
let folder = NSTemporaryDirectory() + "choir-library-benchmark-\(ProcessInfo.processInfo.processIdentifier)"
let files: [String] = {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? [])
        .filter { $0.hasSuffix(".mxl") || $0.hasSuffix(".xml") || $0.hasSuffix(".musicxml") }.sorted()
    var copies: [String] = []
    for copy in 0..<14 {
        let shelf = folder + "/shelf \(copy)"
        try? FileManager.default.createDirectory(atPath: shelf, withIntermediateDirectories: true)
        for name in names {
            let path = shelf + "/" + name
            if !FileManager.default.fileExists(atPath: path) {
                try? FileManager.default.copyItem(atPath: corpus.path + "/" + name, toPath: path)
            }
            copies.append(path)
        }
    }
    return copies
}()

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .peakMemoryResidentDelta],
        warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 10)

    // `choir library add` on 406 scores into a new library: read, summarised and stored. Under 2 s.
    Benchmark("library add, 406 scores", configuration: .init(thresholds: [.wallClock: .init(absolute: [.p100: 2_000_000_000])])) {
        benchmark in
        precondition(files.count == 406, "expected 406 copies of the corpus in \(folder)")
        let database = folder + "/history-\(UUID().uuidString).sqlite"
        benchmark.startMeasurement()
        let library = try Library(path: database)
        blackHole(try library.add(files))
        benchmark.stopMeasurement()
        try? FileManager.default.removeItem(atPath: database)
    }

    // What `choir info` does on the same 406 scores (read and summarised, two at a time, nothing stored): the
    // figure to set the library's beside.
    Benchmark("choir info's reading, 406 scores") { benchmark in
        blackHole(
            ScoreReader.each(of: files) { path in
                (try? ScoreReader.read(contentsOf: path)).map { (Timeline($0).seconds, $0.lines.map { $0.lowest?.midi }) }
            })
    }

    // `choir library add` again, nothing changed: every file is recognised by its size and date, none read.
    let kept = folder + "/history-kept.sqlite"
    Benchmark("library add again, 406 unchanged") { benchmark in
        let library = try Library(path: kept)
        if try library.entries().isEmpty {
            _ = try library.add(files)
        }
        benchmark.startMeasurement()
        blackHole(try library.add(files))
        benchmark.stopMeasurement()
    }

    // `choir library search --part tenor --lowest D3 --highest F#4` over 406 scores. Under 50 ms.
    Benchmark("library search, 406 scores", configuration: .init(thresholds: [.wallClock: .init(absolute: [.p100: 50_000_000])])) {
        benchmark in
        let library = try Library(path: kept)
        if try library.entries().isEmpty { _ = try library.add(files) }
        var query = LibraryQuery()
        query.lines = ["tenor"]
        query.lowest = 50
        query.highest = 66
        benchmark.startMeasurement()
        blackHole(try library.search(query))
        benchmark.stopMeasurement()
    }
}
