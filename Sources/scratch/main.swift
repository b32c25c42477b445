import ChoirPitch
import ChoirPractice
import ChoirTestSupport
import Foundation
let which = CommandLine.arguments[1]
let ids = CommandLine.arguments[2].split(separator: ",").map { Int($0)! }
let takes = try PlantedTake.catalogue(CommandLine.arguments.count > 3 ? .tuning : .checking)
let index = takes.firstIndex { $0.name.contains(which) }!
let outcome = try takes[index].judge(bleed: .loudspeakers(decibels: -10, room: UInt64(index + 1)))
print("gate", outcome.gate.threshold, "echo left", outcome.gate.echoLeft.share)
for n in outcome.notes where ids.contains(n.index) {
    let f = outcome.frames.filter { $0.time > n.onset - 0.1 && $0.time < n.onset + 0.3 }
    print(n.index, n.midi, outcome.results[n.index].verdict, f.enumerated().filter { $0.offset % 2 == 0 }.map { String(format: "%.2f:%.0f:%.2f:%.3f/%.3f", $0.element.time, $0.element.isVoiced ? 1200 * log2($0.element.frequency / 440) - Double(n.midi - 69) * 100 : -9999, $0.element.confidence, $0.element.level, $0.element.accompaniment) }.joined(separator: " "))
}
