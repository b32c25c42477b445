import Benchmark
import ChoirPlayback
import ChoirScore
import Foundation

/// A four-part chorale, 64 s at its written tempo: the piece `compare-playback.py` also gives `fluidsynth -F`.
let chorale = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Tests/Fixtures/corpus/bach_bwv1.6.mxl").path

func renderer(blockSize: Int) throws -> SynthRenderer {
    let score = try ScoreReader.read(contentsOf: chorale)
    let schedule = try Schedule(score: score, lines: score.lines, options: PlaybackOptions())
    let soundFont = try SoundFont.locate(explicit: nil, environment: ProcessInfo.processInfo.environment)
    return try SynthRenderer(
        soundFont: soundFont, sampleRate: 48000, schedule: schedule,
        programs: Instruments.programs(for: score.lines, in: score), mixer: Mixer(lineCount: score.lines.count),
        blockSize: blockSize)
}

let soundFontBytes: Int = {
    let path = (try? SoundFont.locate(explicit: nil, environment: ProcessInfo.processInfo.environment)) ?? ""
    return ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) ?? 0
}()

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResidentDelta],
        warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 10)

    // The whole of `choir render` but the file: read the score, load the SoundFont, synthesise 64 s in
    // 4096-frame blocks. The memory this adds is held to the SoundFont plus 40 MB.
    Benchmark(
        "Render the chorale (64 s)",
        configuration: .init(thresholds: [.peakMemoryResidentDelta: .init(absolute: [.p100: soundFontBytes + 40_000_000])])
    ) { benchmark in
        let synth = try renderer(blockSize: 4096)
        var left = [Float](repeating: 0, count: 4096), right = left
        while !synth.isFinished {
            left.withUnsafeMutableBufferPointer { l in
                right.withUnsafeMutableBufferPointer { r in
                    _ = synth.render(left: l.baseAddress!, right: r.baseAddress!, frames: 4096)
                }
            }
        }
        blackHole(left)
    }

    // One period of live playback, as the real-time thread renders it: no allocation is allowed. The renderer
    // lives only for this benchmark, so the chorale's peak memory holds one SoundFont.
    nonisolated(unsafe) var live: SynthRenderer?
    var left = [Float](repeating: 0, count: 256), right = left
    Benchmark(
        "Render one 256-frame period",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal], maxIterations: 10_000,
            thresholds: [.mallocCountTotal: .init(absolute: [.p100: 0])]),
        closure: { benchmark in
            guard let synth = live, !synth.isFinished else { return }
            left.withUnsafeMutableBufferPointer { l in
                right.withUnsafeMutableBufferPointer { r in
                    _ = synth.render(left: l.baseAddress!, right: r.baseAddress!, frames: 256)
                }
            }
        },
        setup: { live = try renderer(blockSize: 256) },
        teardown: { live = nil })
}
