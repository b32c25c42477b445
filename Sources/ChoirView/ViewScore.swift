import ChoirPractice
import ChoirScore
import ChoirSession

/// A session's music as the page draws it: the engraved pages, which engraved notes are the singer's lines, each
/// of the singer's notes in the session tied to its engraved note, and the measures as played.
public struct ViewScore: Sendable {
    public let engraving: Engraving
    /// The engraved staves and layers of the singer's lines.
    public let mine: [Layer]
    /// The engraved id of each of the session's notes (by ``ExpectedNote/index``); nil where none matches.
    public let noteIDs: [String?]
    /// For each measure played (``Schedule/measures``), the index of its engraved measure.
    public let playedMeasures: [Int]
    /// Each engraved staff and layer's score line (index into the lines), where its notes are one line's.
    public let layerLines: [Layer: Int]

    public struct Layer: Hashable, Sendable {
        public var staff: Int
        public var layer: Int
    }

    /// Ties `engraving` to `resolved`'s lines and `notes` (the session's notes, engraved `transpose` semitones away).
    public init(_ engraving: Engraving, resolved: ResolvedPlayback, notes: [ExpectedNote], transpose: Int) {
        self.engraving = engraving
        let score = resolved.score
        struct Key: Hashable {
            var measure: Int, quarter: Int, midi: Int
        }
        func key(_ measure: Int, _ quarter: Double, _ midi: Int) -> Key {
            Key(measure: measure, quarter: Int((quarter * 960).rounded()), midi: midi)
        }
        // Each engraved layer belongs to the line most of its notes match, by measure, onset and pitch.
        let lineKeys = resolved.lines.map { line in Set(line.notes.map { key($0.measureIndex, $0.onset.doubleValue, $0.midi + transpose) })
        }
        var layers: [Layer: [Engraving.Note]] = [:]
        for note in engraving.notes { layers[Layer(staff: note.staff, layer: note.layer), default: []].append(note) }
        var layerLines: [Layer: Int] = [:]
        for (layer, engraved) in layers {
            let matches = lineKeys.map { keys in engraved.count { keys.contains(key($0.measure, $0.quarter, $0.midi)) } }
            if let best = matches.indices.max(by: { matches[$0] < matches[$1] }), matches[best] > 0 { layerLines[layer] = best }
        }
        self.layerLines = layerLines
        var byLine: [Int: [Key: String]] = [:]
        for note in engraving.notes {
            guard let line = layerLines[Layer(staff: note.staff, layer: note.layer)] else { continue }
            byLine[line, default: [:]][key(note.measure, note.quarter, note.midi)] = note.id
        }
        mine = layerLines.filter { resolved.singers.contains($0.value) }.keys.sorted { ($0.staff, $0.layer) < ($1.staff, $1.layer) }
        // Where each played measure starts in quarter notes from the range's start, to place the session's notes in
        // their written measures.
        let schedule = resolved.schedule
        var starts: [Double] = [], total = 0.0
        for measure in schedule.measures {
            starts.append(total)
            total += score.measures[measure.index].duration.doubleValue
        }
        let names = resolved.lines.map(\.name)
        noteIDs = notes.map { note in
            guard let line = note.line.flatMap({ names.firstIndex(of: $0) }),
                let event = schedule.notes.first(where: { $0.line == line && $0.start == note.onset && $0.midi == note.midi })
            else { return nil }
            let quarter = total > 0 ? event.quarter.truncatingRemainder(dividingBy: total) : event.quarter
            guard
                let played = schedule.measures.indices.last(where: {
                    schedule.measures[$0].index == event.measureIndex && starts[$0] <= quarter + 1e-6
                })
            else { return nil }
            let written = score.measures[event.measureIndex].start.doubleValue + quarter - starts[played]
            return byLine[line]?[key(event.measureIndex, written, note.midi)]
        }
        // Verovio keeps the written measures in order, as choir does; numbers tell where the two disagree.
        let sameMeasures = engraving.measures.count == score.measures.count
        playedMeasures = schedule.measures.map { played in
            if sameMeasures { return played.index }
            let number = score.measures[played.index].number
            return engraving.measures.firstIndex { $0.number == number } ?? 0
        }
    }
}
