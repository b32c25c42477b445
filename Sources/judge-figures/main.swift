// Judges every planted-mistake performance (PlantedTake.catalogue) dry and through loudspeakers, and prints how
// well the verdicts match: `judge-figures [tuning|checking]... [--dry|--loudspeakers] [--db=-10] [--speex|--gate]
// [--piano|--guitar] [--only=NAME] [--tracker=yin|net|auto] [--verbose]`; the tracker is chosen as a session chooses it unless named.
import ChoirPitch
import ChoirPractice
import ChoirTestSupport
import Foundation

let arguments = CommandLine.arguments.dropFirst()
let sets = arguments.compactMap { PlantedTake.Set(rawValue: $0) }
let verbose = arguments.contains("--verbose")
let level = Double(arguments.first { $0.hasPrefix("--db=") }.map { String($0.dropFirst(5)) } ?? "-10") ?? -10
var bleeds: [(String, PlantedTake.Bleed)] = [("dry", .none), ("loudspeakers at \(level) dB", .loudspeakers(decibels: level, room: 1))]
if arguments.contains("--dry") { bleeds.removeLast() }
if arguments.contains("--loudspeakers") { bleeds.removeFirst() }
// An accompaniment choir did not play: the other lines on a piano or a guitar in the room.
for (flag, name, program) in [("--piano", "piano", 0), ("--guitar", "guitar", 24)] where arguments.contains(flag) {
    bleeds = [("\(name) in the room at \(level) dB", .accompaniment(decibels: level, program: program, room: 1))]
}
let filter = arguments.first { $0.hasPrefix("--only=") }.map { String($0.dropFirst(7)) }
let tracker = arguments.first { $0.hasPrefix("--tracker=") }.flatMap { PitchTrackerKind(rawValue: String($0.dropFirst(10))) } ?? .auto
let canceller = arguments.contains("--speex") ? PlantedTake.Canceller.speex : arguments.contains("--gate") ? .gate : .choir

for set in sets.isEmpty ? [.tuning, .checking] : sets {
    let takes = try PlantedTake.catalogue(set).filter { take in filter.map { take.name.contains($0) } ?? true }
    for (label, bleed) in bleeds {
        var groups: [String: Tally] = [:]
        var lines = [String](repeating: "", count: takes.count)
        let outcomes = PlantedTake.judge(takes, bleed: bleed, canceller: canceller, tracker: tracker)
        for (i, take) in takes.enumerated() {
            guard let outcome = outcomes[i] else {
                lines[i] = "  \(take.name): failed"
                continue
            }
            var tally = Tally()
            tally.add(outcome)
            let group = String(take.name.split(separator: " ").prefix(take.name.hasPrefix("real") ? 2 : 1).joined(separator: " "))
            groups[group, default: Tally()].add(outcome)
            groups["all", default: Tally()].add(outcome)
            lines[i] = "  \(take.name): \(tally)"
            if verbose {
                for result in outcome.results where result.verdict != .correct || outcome.planted[result.note.index] != nil {
                    lines[i] +=
                        "\n      note \(result.note.index) m.\(result.note.measure) midi \(result.note.midi): planted \(outcome.planted[result.note.index]?.rawValue ?? "none") → \(result.verdict.rawValue) (\(result.medianCents.map { String(format: "%.0f", $0) } ?? "-") c, onset \(result.onsetError.map { String(format: "%.3f", $0) } ?? "-"))"
                }
            }
        }
        print("\(set.rawValue) set, \(label):")
        for line in lines { print(line) }
        for (group, tally) in groups.sorted(by: { $0.key < $1.key }) { print("  = \(group): \(tally)") }
    }
}
