import ChoirAudio
import ChoirPitch
import Foundation

/// The real recorded singing in `../shared/voices` (beside the project), as material for performances.
public enum RealVoices {
    /// The folder, found from this file's place in the project.
    public static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/voices")

    /// A take's samples (mono) and rate.
    public static func take(_ name: String) throws -> WAVFile.Audio {
        try WAVFile.read(contentsOf: folder.appendingPathComponent("takes/\(name).wav").path)
    }

    /// The takes whose name starts with `prefix`, sorted.
    public static func takes(startingWith prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("takes").path)) ?? [])
            .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".wav") }.map { String($0.dropLast(4)) }.sorted()
    }

    /// The confidently voiced frames of `samples`, in cents from A4 (440 Hz): what the singer sang, as choir's
    /// tracker hears it in a file.
    static func sungCents(_ samples: [Float], rate: Int) -> [(time: Double, cents: Double)] {
        let frames = (try? PitchTrackers.track(signal: samples, configuration: .init(sampleRate: Double(rate)))) ?? []
        return frames.filter { $0.isVoiced && $0.confidence >= 0.5 }.map { ($0.time, PitchMath.cents($0.frequency, from: PitchMath.a4)) }
    }

    /// The slow course of a sung pitch: at each time, the median of the frames within a tenth of a second either
    /// side, which keeps a note's drift and leaves out its vibrato and its jitter (and, where the voice wavers
    /// unevenly, follows where it dwells). Moving a note by its target minus this puts the note's pitch on the
    /// target and keeps every quicker movement the singer made.
    static func slowCourse(_ sung: [(time: Double, cents: Double)]) -> (Double) -> Double {
        { time in
            let near = sung.filter { abs($0.time - time) <= 0.1 }.map(\.cents)
            if near.isEmpty { return sung.min { abs($0.time - time) < abs($1.time - time) }?.cents ?? 0 }
            return median(near)
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// Fades the ends of `samples[range]` in and out over `seconds`, leaving the middle.
    static func fade(_ samples: inout [Float], _ range: Range<Int>, seconds: Double, rate: Int) {
        let n = min(Int(seconds * Double(rate)), range.count / 2)
        guard n > 0 else { return }
        for i in 0..<n {
            let gain = Float(i) / Float(n)
            samples[range.lowerBound + i] *= gain
            samples[range.upperBound - 1 - i] *= gain
        }
    }
}
