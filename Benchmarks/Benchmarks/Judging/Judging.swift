import Benchmark
import ChoirPlayback
import ChoirPractice
import ChoirTestSupport
import Foundation

let rate = 48000.0

/// Three minutes of singing: the tenor of a five-voice madrigal, measures 1 to 90 (213 notes in 180 s at its
/// 120 crotchets a minute), sung at 48 kHz by the tests' synthetic singer with 33 mistakes planted; the take ends
/// a second after the last note, 181 s in all.
func madrigalTake(bleed: PlantedTake.Bleed) throws -> PlantedTake.Performance {
    let take = PlantedTake(
        name: "madrigal tenor", set: .checking, score: try PlantedTake.score("Tests/Fixtures/corpus/monteverdi_madrigal.3.1.mxl"),
        part: "tenor", singer: SyntheticSinger(sampleRate: rate, seed: 7))
    var range = PlaybackOptions()
    range.toMeasure = "90"
    return try take.perform(bleed: bleed, playback: range)
}

/// The take's size: what its analysis's memory is set against.
let takeBytes = 181 * Int(rate) * MemoryLayout<Float>.size

/// What `choir practice SCORE --part P --input TAKE --output none --no-history` does with a take once the score is
/// read and the mix rendered: analyse it (pitch frames and spectra, with the mix's echo taken out when it played
/// through loudspeakers), find where its singing lies against the notes, and judge every note.
func judge(_ performance: PlantedTake.Performance) throws -> [NoteResult] {
    let options = NoteComparator.Options()
    let analysis = try TakeAnalysis(samples: performance.take, sampleRate: rate, notes: performance.notes, mix: performance.played)
    let offset = analysis.alignment(of: performance.notes, options: options, start: 0)
    var judge = analysis.judge(performance.notes, options: options)
    analysis.feed(&judge, offset: offset) { _, _ in true }
    _ = judge.finish()
    precondition(judge.results.count == performance.notes.count, "expected a verdict on every note")
    return judge.results
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResidentDelta],
        warmupIterations: 1, maxDuration: .seconds(20), maxIterations: 10)
    // The take is sung (and the mix rendered) before each benchmark, untimed.
    nonisolated(unsafe) var performance: PlantedTake.Performance?

    // Judging three minutes takes under a second. With headphones (`--headphones`) the microphone hears only the
    // singer; the memory judging adds is held to the take's own size.
    Benchmark(
        "Judge a 3-minute take, headphones (48 kHz)",
        configuration: .init(
            thresholds: [
                .wallClock: .init(absolute: [.p100: 1_000_000_000]), .peakMemoryResidentDelta: .init(absolute: [.p100: takeBytes]),
            ]),
        closure: { _ in blackHole(try judge(performance!)) },
        setup: { performance = try madrigalTake(bleed: .none) },
        teardown: { performance = nil })

    // As `choir practice` judges a take by default: the other lines came through loudspeakers 10 dB below the
    // voice, and their echo is learned from the whole take and taken out before it is tracked. The echo taken
    // out, its running energy and the cleaned take add up to 4 times the take: held to 5 times.
    Benchmark(
        "Judge a 3-minute take, loudspeakers (48 kHz)",
        configuration: .init(
            thresholds: [
                .wallClock: .init(absolute: [.p100: 1_000_000_000]),
                .peakMemoryResidentDelta: .init(absolute: [.p100: 5 * takeBytes]),
            ]),
        closure: { _ in blackHole(try judge(performance!)) },
        setup: { performance = try madrigalTake(bleed: .loudspeakers(decibels: -10, room: 1)) },
        teardown: { performance = nil })
}
