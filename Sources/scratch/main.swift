import ChoirAudio
import ChoirPitch
import ChoirTestSupport
import Foundation
var total = 0.0, n = 0.0
for name in ["vocobox_E3-3", "vocobox_G3", "vocobox_C3-2", "vocobox_F3-3", "vocobox_D3-3"] {
    let take = try WAVFile.read(contentsOf: "/work/shared/voices/takes/\(name).wav")
    func track(_ x: [Float]) -> [(time: Double, cents: Double)] {
        try! PitchTracker.track(signal: x, configuration: .init(sampleRate: 44100)).filter { $0.isVoiced && $0.confidence >= 0.5 }.map { ($0.time, 1200 * log2($0.frequency / 440)) }
    }
    let sung = track(take.samples)
    let med = sung.map(\.cents).sorted()[sung.count / 2]
    func course(_ t: Double) -> Double { let n = sung.filter { abs($0.time - t) <= 0.1 }.map(\.cents); return n.reduce(0, +) / Double(max(1, n.count)) }
    let y = PitchShifter.shift(take.samples, sampleRate: 44100) { t in med - course(min(sung.last!.time, max(sung.first!.time + 0.08, t))) }
    let out = track(y)
    for (t, c) in sung where t > sung.first!.time + 0.2 && t < sung.last!.time - 0.1 {
        let o = out.min { abs($0.time - t) < abs($1.time - t) }!.cents
        let e = (o - med) - (c - course(t)); total += e * e; n += 1
    }
}
print(ProcessInfo.processInfo.environment["LAGF"] ?? "1", "rms error", (total / n).squareRoot())
