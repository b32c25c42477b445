import ChoirPitch
import ChoirPlayback
import ChoirScore
import ChoirTestSupport
import Foundation
import Testing

@testable import ChoirPractice

/// End to end on synthetic singers with planted mistakes: how many mistakes get the right verdict, and how
/// many of the notes flagged were planted.
struct PlantedMistakeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let rate = 16000.0

    struct Tally: CustomStringConvertible {
        var planted = 0, caught = 0, flagged = 0, flaggedPlanted = 0
        var confusions: [String: Int] = [:]
        var recall: Double { Double(caught) / Double(max(1, planted)) }
        var precision: Double { Double(flaggedPlanted) / Double(max(1, flagged)) }
        var description: String {
            String(format: "planted %d, right verdict %d (%.1f%%); flagged %d, planted among them %d (%.1f%%); misses %@",
                   planted, caught, 100 * recall, flagged, flaggedPlanted, 100 * precision, confusions.description)
        }

        mutating func add(_ results: [NoteResult], _ planted: [Int: PlantedMistake]) {
            for result in results {
                let mistake = planted[result.note.index]
                if let mistake {
                    self.planted += 1
                    if result.verdict == mistake.verdict { caught += 1 } else { confusions["\(mistake.rawValue)→\(result.verdict.rawValue)", default: 0] += 1 }
                }
                if result.verdict != .correct {
                    flagged += 1
                    if mistake != nil { flaggedPlanted += 1 } else { confusions["none→\(result.verdict.rawValue)", default: 0] += 1 }
                }
            }
        }
    }

    /// Sings `part` of `file` with a seed's mistakes, optionally with the other lines mixed in at `accompaniment`
    /// dB relative to the voice, and judges the take as a file session does.
    static func session(_ file: String, part: String, seed: UInt64, accompaniment: Double?) throws
        -> (results: [NoteResult], planted: [Int: PlantedMistake])
    {
        let score = try ScoreReader.read(contentsOf: root.appendingPathComponent(file).path)
        let lines = score.lines
        let singer = try LineSelector.select(part, from: lines)
        var options = PlaybackOptions()
        options.singer = singer
        let schedule = try Schedule(score: score, lines: lines, options: options)
        let notes = ExpectedNote.notes(of: singer, in: schedule, score: score)
        let performer = SyntheticSinger(sampleRate: rate, seed: seed)
        let planted = performer.plan(notes)
        var take = performer.sing(notes, mistakes: planted, length: schedule.length + 1).samples
        var played: [Float]?
        if let accompaniment {
            var request = Mixer.Request()
            request.singer = singer
            request.muteMine = true
            let renderer = try SynthRenderer(
                soundFont: try SoundFont.locate(explicit: nil, environment: ProcessInfo.processInfo.environment),
                sampleRate: Int(rate), schedule: schedule, programs: Instruments.programs(for: lines, in: score),
                mixer: try Mixer(lineCount: lines.count, request: request))
            let (left, right) = renderer.renderAll()
            let mix = zip(left, right).map { ($0 + $1) / 2 }
            func rms(_ x: [Float]) -> Double { (x.reduce(0.0) { $0 + Double($1 * $1) } / Double(max(1, x.count))).squareRoot() }
            let gain = Float(rms(take) / rms(mix) * pow(10, accompaniment / 20))
            for i in take.indices where i < mix.count { take[i] += gain * mix[i] }
            played = mix
        }
        let analysis = try TakeAnalysis(samples: take, sampleRate: rate, notes: notes, mix: played)
        var judge = analysis.judge(notes, options: NoteComparator.Options())
        for frame in analysis.frames { _ = judge.add(frame) }
        _ = judge.finish()
        return (judge.results, planted)
    }

    static let pieces = [
        ("Resources/ExamplePieces/amazing_grace.musicxml", "tenor"),
        ("Tests/Fixtures/corpus/bach_bwv1.6.mxl", "alto"),
        ("Tests/Fixtures/corpus/bach_bwv1.6.mxl", "bass"),
        ("Tests/Fixtures/corpus/bach_bwv267.mxl", "soprano"),
    ]

    /// At least 95% of the planted mistakes get the right verdict, and at least 95% of the notes flagged are
    /// planted ones: on a dry take, and with the other lines mixed in 10 dB below the voice, as a microphone
    /// hears loudspeakers (the session knows the mix it played, and so how loud the loudspeakers come through).
    @Test(arguments: [nil, -10.0] as [Double?])
    func plantedMistakesAreFound(accompaniment: Double?) throws {
        var tally = Tally()
        for (file, part) in Self.pieces {
            for seed: UInt64 in 1...3 {
                let (results, planted) = try Self.session(file, part: part, seed: seed, accompaniment: accompaniment)
                tally.add(results, planted)
            }
        }
        print("accompaniment \(accompaniment.map { "\($0) dB" } ?? "none"): \(tally)")
        #expect(tally.planted >= 150)
        #expect(tally.recall >= 0.95, "\(tally)")
        #expect(tally.precision >= 0.95, "\(tally)")
    }
}
