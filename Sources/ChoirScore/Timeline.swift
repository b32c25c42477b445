/// The order in which measures are played, with each occurrence's start and the tempo map on that time line.
///
/// Written order plays every measure once. Playback order unfolds repeats (nested, with voltas), D.C. and
/// D.S. jumps, al Fine and al Coda, as the `<sound>` attributes and barlines of the score direct.
public struct Timeline: Sendable {
    /// One played occurrence of a measure.
    public struct Entry: Hashable, Sendable {
        /// Index into `Score.measures`.
        public var measureIndex: Int
        /// Start of this occurrence in quarter notes on the time line.
        public var start: Rational
        public var duration: Rational
    }

    public var entries: [Entry]
    public var tempoMap: TempoMap

    /// Builds the time line of `score`, unfolding repeats and jumps when `unfolded`.
    public init(_ score: Score, unfolded: Bool = true) {
        let order = unfolded ? PlaybackOrder.measures(score.measures) : Array(score.measures.indices)
        var entries: [Entry] = []
        entries.reserveCapacity(order.count)
        var start = Rational.zero
        for index in order {
            entries.append(Entry(measureIndex: index, start: start, duration: score.measures[index].duration))
            start += score.measures[index].duration
        }
        self.entries = entries

        let marksByMeasure = Dictionary(grouping: score.tempos, by: \.measureIndex)
        var points: [TempoMap.Point] = []
        for entry in entries {
            for mark in marksByMeasure[entry.measureIndex] ?? [] {
                let position = entry.start + (mark.position - score.measures[entry.measureIndex].start)
                points.append(TempoMap.Point(position: position, quarterNotesPerMinute: mark.quarterNotesPerMinute))
            }
        }
        tempoMap = TempoMap(points)
    }

    /// A time line of given occurrences, such as a practised range cut from a longer one.
    public init(entries: [Entry], tempoMap: TempoMap = TempoMap([])) {
        self.entries = entries
        self.tempoMap = tempoMap
    }

    /// Total length in quarter notes.
    public var length: Rational { entries.last.map { $0.start + $0.duration } ?? .zero }

    /// Total length in seconds at the score's tempo.
    public var seconds: Double { tempoMap.seconds(at: length) }

    /// Notes or lyrics of the score, each played or sung once for every occurrence of its measure on this
    /// time line, in order.
    public func place<Event: ScoreEvent>(_ events: [Event], in score: Score) -> [Event] {
        var byMeasure: [Int: [Event]] = [:]
        for event in events { byMeasure[event.measureIndex, default: []].append(event) }
        var placed: [Event] = []
        placed.reserveCapacity(events.count)
        for entry in entries {
            let shift = entry.start - score.measures[entry.measureIndex].start
            for var event in byMeasure[entry.measureIndex] ?? [] {
                event.onset += shift
                placed.append(event)
            }
        }
        return placed
    }
}

extension Timeline {
    /// The syllables `line` sings on this time line, for a singer who starts at `verse`: the n-th time round a
    /// measure sings the verse n − 1 after `verse` where the measure has it (verses written under a repeat), else
    /// the highest it has below that (a refrain written once), else its first.
    public func lyrics(of line: Line, verse: Int = 1, in score: Score) -> [Lyric] {
        var byMeasure: [Int: [Lyric]] = [:]
        for lyric in line.lyrics { byMeasure[lyric.measureIndex, default: []].append(lyric) }
        var rounds: [Int: Int] = [:]
        var sung: [Lyric] = []
        for entry in entries {
            rounds[entry.measureIndex, default: 0] += 1
            guard let written = byMeasure[entry.measureIndex] else { continue }
            let wanted = verse + rounds[entry.measureIndex]! - 1
            let verses = written.map(\.verse)
            guard let chosen = verses.filter({ $0 <= wanted }).max() ?? verses.min() else { continue }
            let shift = entry.start - score.measures[entry.measureIndex].start
            for var lyric in written where lyric.verse == chosen {
                lyric.onset += shift
                sung.append(lyric)
            }
        }
        return sung
    }
}

extension Score {
    /// Why `verse` is not one this score has, or nil when it is (verse 1 always is).
    public func problem(withVerse verse: Int) -> String? {
        guard verse != 1 else { return nil }
        let count = verseCount
        if count == 0 { return "verse \(verse): the score has no lyrics: expected verse 1" }
        return (1...count).contains(verse) ? nil : "verse \(verse): expected 1 to \(count), the score's verses"
    }
}

/// Something that happens at a position of the score: a note or a lyric syllable.
public protocol ScoreEvent {
    var onset: Rational { get set }
    var measureIndex: Int { get }
}

extension Note: ScoreEvent {}
extension Lyric: ScoreEvent {}

/// Quarter-note tempo over a time line, turning positions into seconds.
public struct TempoMap: Sendable {
    public struct Point: Hashable, Sendable {
        public var position: Rational
        public var quarterNotesPerMinute: Double

        public init(position: Rational, quarterNotesPerMinute: Double) {
            self.position = position
            self.quarterNotesPerMinute = quarterNotesPerMinute
        }
    }

    /// Tempo changes sorted by position; the first one also holds before its position.
    public private(set) var points: [Point]
    private var secondsAtPoint: [Double] = []

    /// A map from tempo changes; with none, the score plays at `Score.defaultTempo`.
    public init(_ points: [Point]) {
        var sorted = points.sorted { $0.position < $1.position }
        if sorted.isEmpty {
            sorted = [Point(position: .zero, quarterNotesPerMinute: Score.defaultTempo)]
        } else if sorted[0].position > .zero {
            sorted.insert(Point(position: .zero, quarterNotesPerMinute: sorted[0].quarterNotesPerMinute), at: 0)
        }
        self.points = sorted
        var total = 0.0
        for (index, point) in sorted.enumerated() {
            if index > 0 {
                let previous = sorted[index - 1]
                total += (point.position - previous.position).doubleValue * 60 / previous.quarterNotesPerMinute
            }
            secondsAtPoint.append(total)
        }
    }

    /// The same map with every tempo multiplied by `factor`.
    public func scaled(by factor: Double) -> TempoMap {
        TempoMap(points.map { Point(position: $0.position, quarterNotesPerMinute: $0.quarterNotesPerMinute * factor) })
    }

    /// The tempo at the start.
    public var initialTempo: Double { points[0].quarterNotesPerMinute }

    /// Seconds from the start of the time line to `position`.
    public func seconds(at position: Rational) -> Double {
        let index = lastPoint(atOrBefore: position)
        let point = points[index]
        return secondsAtPoint[index] + (position - point.position).doubleValue * 60 / point.quarterNotesPerMinute
    }

    /// The tempo in force at `position`.
    public func tempo(at position: Rational) -> Double { points[lastPoint(atOrBefore: position)].quarterNotesPerMinute }

    private func lastPoint(atOrBefore position: Rational) -> Int {
        var low = 0, high = points.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if points[mid].position <= position { low = mid } else { high = mid - 1 }
        }
        return low
    }
}
