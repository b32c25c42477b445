/// A drill on one passage: looped with a count-in from a slower tempo, a step faster after every pass sung
/// well enough, until a pass at the written tempo is.
public struct Drill: Sendable, Equatable {
    /// Consecutive measures to drill, by their printed numbers.
    public struct Passage: Sendable, Equatable {
        public var first: String
        public var last: String
        public var mistakes: Int

        public init(first: String, last: String, mistakes: Int) {
            self.first = first
            self.last = last
            self.mistakes = mistakes
        }

        public var span: String { first == last ? "m. \(first)" : "mm. \(first)–\(last)" }
    }

    /// What comes after a pass.
    public enum Next: Sendable, Equatable {
        /// The same tempo again.
        case again
        /// A step faster.
        case faster
        /// Sung well enough at the written tempo.
        case done
        /// Too many passes without getting there: move on.
        case movedOn
    }

    /// One rung of the tempo ladder: the passes sung at one tempo, in order.
    public struct Step: Sendable, Equatable {
        /// In percent of the session's tempo.
        public var tempo: Double
        /// Each pass's accuracy (percent), in order.
        public var accuracies: [Double] = []
        /// Whether the last pass reached the pass mark (and the drill went on from this tempo, or was done).
        public var reached = false

        public init(tempo: Double, accuracies: [Double] = [], reached: Bool = false) {
            self.tempo = tempo
            self.accuracies = accuracies
            self.reached = reached
        }

        /// How many passes this tempo took.
        public var passes: Int { accuracies.count }
    }

    /// The tempo of the next pass, in percent of the session's.
    public private(set) var tempo: Double
    public private(set) var passes = 0
    /// The tempi sung so far, slowest first, with the passes each took.
    public private(set) var ladder: [Step] = []
    public let step: Double
    /// A pass with at least this accuracy (percent) counts as sung well enough.
    public let passMark: Double
    public let maximumPasses: Int

    /// What a ladder's settings may be, for every front end that takes them: tempi and the pass mark in percent. Under a
    /// quarter of the written tempo the passage is no longer music, and a step of more than three quarters skips the
    /// ladder.
    public static let limits = (start: 25.0...100, step: 1.0...75, passMark: 1.0...100, passes: 1...100)
    /// Where a ladder starts unless told, in percent of the written tempo: slow enough to find the notes, not so slow
    /// that the line falls apart into single notes.
    public static let standardStart = 70.0

    public init(start: Double = standardStart, step: Double = 10, passMark: Double = 90, maximumPasses: Int = 8) {
        tempo = min(100, start)
        self.step = step
        self.passMark = passMark
        self.maximumPasses = maximumPasses
    }

    /// Records a pass's accuracy and says what comes next.
    public mutating func record(accuracy: Double) -> Next {
        passes += 1
        if ladder.last?.tempo != tempo { ladder.append(Step(tempo: tempo)) }
        ladder[ladder.count - 1].accuracies.append(accuracy)
        ladder[ladder.count - 1].reached = accuracy >= passMark
        if accuracy >= passMark {
            if tempo >= 100 { return .done }
            tempo = min(100, tempo + step)
            return .faster
        }
        return passes >= maximumPasses ? .movedOn : .again
    }

    /// The weakest measures of `report`: runs of consecutive measures with mistakes, cut to `longest` measures
    /// (the part with the most mistakes), most mistakes first, at most `count`.
    public static func passages(of report: SessionReport, count: Int = 3, longest: Int = 4) -> [Passage] {
        let measures = report.measures
        let mistakes = measures.map { measure in
            report.results.count { $0.note.measure == measure.number && !$0.verdict.isCorrect }
        }
        var passages: [Passage] = []
        var index = 0
        while index < measures.count {
            guard mistakes[index] > 0 else {
                index += 1
                continue
            }
            var end = index
            while end + 1 < measures.count && mistakes[end + 1] > 0 { end += 1 }
            // The window of `longest` measures with the most mistakes.
            var best = index
            for start in index...max(index, end - longest + 1) {
                let window = mistakes[start...min(end, start + longest - 1)].reduce(0, +)
                if window > mistakes[best...min(end, best + longest - 1)].reduce(0, +) { best = start }
            }
            let last = min(end, best + longest - 1)
            passages.append(
                Passage(first: measures[best].number, last: measures[last].number, mistakes: mistakes[best...last].reduce(0, +)))
            index = end + 1
        }
        return Array(
            passages.enumerated().sorted {
                $0.element.mistakes != $1.element.mistakes ? $0.element.mistakes > $1.element.mistakes : $0.offset < $1.offset
            }
            .map(\.element).prefix(count))
    }
}
