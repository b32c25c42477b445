import Benchmark
import ChoirPitch
import ChoirTestSupport
import Glibc

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        warmupIterations: 10, maxDuration: .seconds(3), maxIterations: 100_000)

    // The harness's own cost, to set the frame's figures against.
    Benchmark("Empty iteration") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(benchmark) }
    }

    // One frame of a sung vowel through the tracker (YIN and the decoder), as the capture path runs it: 2048 samples at 48 kHz.
    // It must not allocate.
    let voice = SyntheticVoice(sampleRate: 48000)
    let signal = voice.render([.init(start: 0, duration: 1, frequency: 196)], length: 1)
    let tracker = try! PitchTracker(.init(sampleRate: 48000, window: 2048, hop: 256))
    Benchmark(
        "YIN frame (window 2048, 48 kHz)",
        // The empty iteration above costs the harness 16 mallocs; a frame may add none.
        configuration: .init(thresholds: [.mallocCountTotal: .init(absolute: [.p100: 16])])
    ) { benchmark in
        signal.withUnsafeBufferPointer { buffer in
            var offset = 4096
            for _ in benchmark.scaledIterations {
                blackHole(tracker.analyse(UnsafeBufferPointer(rebasing: buffer[offset..<(offset + 2048)]), time: 0))
                offset = offset + 256 < buffer.count - 2048 ? offset + 256 : 4096
            }
        }
    }
}
