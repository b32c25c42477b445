import Benchmark
import ChoirBase
import ChoirPitch
import ChoirTestSupport
import Glibc

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        warmupIterations: 10, maxDuration: .seconds(3), maxIterations: 100_000)
    // The empty iteration below costs the harness 16 mallocs; the analysis thread's work may add none.
    let noAllocation = Benchmark.Configuration(thresholds: [.mallocCountTotal: .init(absolute: [.p100: 16])])

    // The harness's own cost, to set the figures against.
    Benchmark("Empty iteration") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(benchmark) }
    }

    // One window after another as the capture path hands them over, at 48 kHz with a hop of 256 samples, through
    // `tracker`: no allocation.
    let voice = SyntheticVoice(sampleRate: 48000)
    let signal = voice.render([.init(start: 0, duration: 1, frequency: 196)], length: 1)
    func windows(_ name: String, _ tracker: any PitchTracker) {
        Benchmark(name, configuration: noAllocation) { benchmark in
            signal.withUnsafeBufferPointer { buffer in
                var offset = 4096
                for _ in benchmark.scaledIterations {
                    blackHole(tracker.analyse(UnsafeBufferPointer(rebasing: buffer[offset..<(offset + 2048)]), time: 0))
                    offset = offset + 256 < buffer.count - 2048 ? offset + 256 : 4096
                }
            }
        }
    }
    // A frame of a sung vowel through YIN and the decoder.
    var configuration = PitchTrackerConfiguration(sampleRate: 48000, window: 2048, hop: 256)
    windows("Pitch frame (window 2048, 48 kHz)", try! PitchTrackers.make(configuration))
    // The learned tracker (SwiftF0's network): resampled to 16 kHz, a network frame every third window.
    configuration.kind = .net
    windows("Learned tracker, one window (48 kHz, hop 256)", try! PitchTrackers.make(configuration))
    // YIN guided by the network, as `auto` runs where other sound is expected: both trackers per window.
    configuration.kind = .auto
    configuration.accompanied = true
    windows("YIN guided by the learned tracker, one window (48 kHz, hop 256)", try! PitchTrackers.make(configuration))

    // A minute of singing at `rate`: 120 notes climbing and falling by semitones from D3.
    func minuteOfSinging(at rate: Double) -> [Float] {
        SyntheticVoice(sampleRate: rate).render(
            (0..<120).map { .init(start: Double($0) * 0.5, duration: 0.45, frequency: 147 * PitchMath.ratio(cents: Double($0 % 8 * 100))) },
            length: 60)
    }

    // The network itself on a minute of 16 kHz singing, on one thread: a minute of audio per iteration, so the
    // throughput is minutes a second, that is, times real time over 60 (the issue asks 50 times real time).
    let minute16k = minuteOfSinging(at: 16000)
    let network = PitchNet(weights: try! PitchNetWeights.located())
    Benchmark(
        "Learned tracker, a minute of 16 kHz singing on one thread",
        configuration: .init(metrics: [.wallClock, .cpuTotal, .throughput], maxIterations: 20)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            minute16k.withUnsafeBufferPointer { network.push($0) { blackHole($0) } }
            network.finish { blackHole($0) }
        }
    }

    // A file's analysis: a minute of singing, two threads, as `choir pitch` and a file session run it.
    let minute = minuteOfSinging(at: 48000)
    Benchmark("Track a minute of singing (48 kHz)", configuration: .init(maxIterations: 20)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try! PitchTrackers.track(signal: minute, configuration: .init(sampleRate: 48000)))
        }
    }

    // A live session's echo work at 48 kHz: taking the echo out of one hop, learning the path from one block,
    // and solving it (on the solver's thread, every two seconds).
    let path = EchoPath.forPractice(sampleRate: 48000, memory: 4, length: 0.08)
    let canceller = EchoCanceller(hop: 256, taps: path.taps, lead: path.lead)
    let mix = Chords.render(count: 48000 * 2, sampleRate: 48000, seed: 1)
    // The microphone: a voice, and the mix 2 ms late at 0.3.
    var microphone = voice.render([.init(start: 0, duration: 2, frequency: 196)], length: 2)
    for i in 96..<microphone.count { microphone[i] += 0.3 * mix[i - 96] }
    path.add(recording: microphone, mix: mix)
    var hop = [Float](repeating: 0, count: 256)
    Benchmark("Echo taken out of one hop (48 kHz)", configuration: noAllocation) { benchmark in
        mix.withUnsafeBufferPointer { buffer in
            hop.withUnsafeMutableBufferPointer { samples in
                var offset = 0
                for _ in benchmark.scaledIterations {
                    canceller.cancel(samples, mix: UnsafeBufferPointer(rebasing: buffer[offset..<(offset + 256)]))
                    offset = offset + 512 < buffer.count ? offset + 256 : 0
                }
            }
        }
    }
    Benchmark("Echo path learned from one block (48 kHz)", configuration: noAllocation) { benchmark in
        mix.withUnsafeBufferPointer { buffer in
            for _ in benchmark.scaledIterations {
                microphone.withUnsafeBufferPointer { heard in
                    path.add(
                        microphone: UnsafeBufferPointer(rebasing: heard[0..<path.block]),
                        mix: UnsafeBufferPointer(rebasing: buffer[0..<path.context]))
                }
            }
        }
    }
    let solver = ToeplitzSolver(count: path.taps)
    var filter = [Float](repeating: 0, count: path.taps)
    Benchmark("Echo path solved (48 kHz, 90 ms of taps)", configuration: .init(maxIterations: 50)) { benchmark in
        for _ in benchmark.scaledIterations {
            filter.withUnsafeMutableBufferPointer { path.solve(with: solver, into: $0) }
        }
    }
}
