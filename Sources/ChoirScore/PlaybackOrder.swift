/// Unfolds repeats, voltas and D.C./D.S. jumps into the order measures are played in.
enum PlaybackOrder {
    /// A bound on the unfolded length, so that hostile repeat counts cannot exhaust memory.
    static let maximumMeasures = 100_000

    /// Measure indices in playback order.
    ///
    /// Conventions, as most engravers and players read them: a backward repeat without a matching forward
    /// repeat returns to the start or to just after the previous repeat; a repeat ending in a volta plays
    /// once per volta number; after a D.C. or D.S. repeats are not taken again (unless `after-jump`) and
    /// only the last volta of each group is played; Fine and To Coda apply only after a jump.
    static func measures(_ measures: [Measure]) -> [Int] {
        var order: [Int] = []
        var index = 0
        var jumped = false
        var usedJumps = Set<Int>()
        var repeatsTaken: [Int: Int] = [:]
        var passes: [Int: Int] = [:]
        var arrivedByRepeat = false
        while index < measures.count && order.count < maximumMeasures {
            let measure = measures[index]
            if !arrivedByRepeat { passes[index] = 0 }
            arrivedByRepeat = false
            let takesRepeats = !jumped || measure.repeatsAfterJump

            if measure.startsEnding {
                let plays: Bool
                if takesRepeats {
                    let pass = (passes[repeatStart(measures, groupStart(measures, index) - 1)] ?? 0) + 1
                    plays = measure.endingNumbers.contains(pass)
                } else {
                    plays = isLastEnding(measures, index)
                }
                if !plays {
                    index = endOfEnding(measures, index) + 1
                    continue
                }
            }
            order.append(index)
            if jumped && measure.fine { break }
            if jumped, let name = measure.toCoda, let target = codaTarget(measures, name, after: index) {
                index = target
                continue
            }
            if measure.repeatBackward && takesRepeats {
                let times = measure.repeatTimes ?? ((measure.endingNumbers.max() ?? 1) + 1)
                let taken = repeatsTaken[index] ?? 0
                if taken < times - 1 {
                    repeatsTaken[index] = taken + 1
                    let target = repeatStart(measures, measure.endingNumbers.isEmpty ? index : groupStart(measures, index) - 1)
                    passes[target, default: 0] += 1
                    index = target
                    arrivedByRepeat = true
                    continue
                }
                repeatsTaken[index] = 0
            }
            if measure.daCapo && !usedJumps.contains(index) {
                usedJumps.insert(index)
                jumped = true
                index = 0
                continue
            }
            if let name = measure.dalSegno, !usedJumps.contains(index),
                let target = measures.firstIndex(where: { $0.segno == name }) ?? measures.firstIndex(where: { $0.segno != nil })
            {
                usedJumps.insert(index)
                jumped = true
                index = target
                continue
            }
            index += 1
        }
        return order
    }

    /// Where a backward repeat at or after `index` returns to: the matching forward repeat, else just after
    /// the previous backward repeat, else the start.
    private static func repeatStart(_ measures: [Measure], _ index: Int) -> Int {
        guard index >= 0 else { return 0 }
        var depth = 0
        var fallback = 0
        var sawUnmatched = false
        for j in stride(from: index, through: 0, by: -1) {
            if j < index && measures[j].repeatBackward {
                if depth == 0 && !sawUnmatched {
                    fallback = j + 1
                    sawUnmatched = true
                }
                depth += 1
            }
            if measures[j].repeatForward {
                if depth == 0 { return j }
                depth -= 1
            }
        }
        return fallback
    }

    /// The first measure of the volta group that `index` belongs to.
    private static func groupStart(_ measures: [Measure], _ index: Int) -> Int {
        var j = index
        while j > 0 && !measures[j - 1].endingNumbers.isEmpty { j -= 1 }
        return j
    }

    /// The last measure of the ending that starts at `index`.
    private static func endOfEnding(_ measures: [Measure], _ index: Int) -> Int {
        var j = index
        while j + 1 < measures.count && !measures[j + 1].startsEnding
            && measures[j + 1].endingNumbers == measures[index].endingNumbers
        {
            j += 1
        }
        return j
    }

    private static func isLastEnding(_ measures: [Measure], _ index: Int) -> Bool {
        let end = endOfEnding(measures, index)
        return !(end + 1 < measures.count && measures[end + 1].startsEnding)
    }

    private static func codaTarget(_ measures: [Measure], _ name: String, after index: Int) -> Int? {
        let later = measures.indices.dropFirst(index + 1)
        return later.first { measures[$0].coda == name } ?? later.first { measures[$0].coda != nil }
    }
}
