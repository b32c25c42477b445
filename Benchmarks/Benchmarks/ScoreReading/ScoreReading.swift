import Benchmark
import ChoirScore
import Foundation

/// The shared corpus, as the tests hold it.
let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/corpus")
let files = ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? [])
    .filter { $0.hasSuffix(".mxl") || $0.hasSuffix(".xml") || $0.hasSuffix(".musicxml") }.sorted()
    .map { corpus.appendingPathComponent($0).path }

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResidentDelta],
        warmupIterations: 2, maxDuration: .seconds(5), maxIterations: 50)

    // Reading all 29 corpus files, as `choir info` does: the figure to set beside music21 and xmllint.
    Benchmark("Read the 29 corpus files") { benchmark in
        precondition(files.count == 29, "expected the 29 corpus files in \(corpus.path)")
        for path in files {
            blackHole(try ScoreReader.read(contentsOf: path))
        }
    }

    // The largest file: the quartet movement, 1.4 MB of XML inside a 40 KB .mxl. Its peak memory growth
    // is held to 5 times the XML's size.
    let largest = corpus.appendingPathComponent("beethoven_opus18no1_movement1.mxl").path
    Benchmark(
        "Read the largest file",
        configuration: .init(thresholds: [.peakMemoryResidentDelta: .init(absolute: [.p100: 5 * 1_437_613])])
    ) { benchmark in
        blackHole(try ScoreReader.read(contentsOf: largest))
    }

    // Reading plus what `choir info` computes on top: the unfolded time line and the lines.
    Benchmark("Read and summarise the 29 corpus files") { benchmark in
        for path in files {
            let score = try ScoreReader.read(contentsOf: path)
            blackHole(Timeline(score).seconds)
            blackHole(score.lines.map { $0.lowest })
        }
    }
}
