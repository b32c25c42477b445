import ChoirBase

/// The notes of some lines on a time line (written or playback order), grouped by part in score order: what
/// `choir notes` lists.
public struct NoteListing {
    public var score: Score
    /// Where the notes are placed: each played measure's start, and the tempo that times them.
    public var timeline: Timeline
    /// Chosen lines grouped by part index, in score order.
    public var groups: [(part: Int, lines: [Line])]
    /// The verse the text's lyric column starts at.
    public var verse: Int

    /// The `chosen` lines (indices into `lines`) placed on `timeline`; the text's lyrics are those of `verse`.
    public init(score: Score, lines: [Line], chosen: [Int], timeline: Timeline, verse: Int = 1) {
        self.score = score
        self.timeline = timeline
        self.verse = verse
        var groups: [(part: Int, lines: [Line])] = []
        for index in chosen {
            let line = lines[index]
            if groups.last?.part == line.partIndex {
                groups[groups.count - 1].lines.append(line)
            } else {
                groups.append((line.partIndex, [line]))
            }
        }
        self.groups = groups
    }

    /// Why a listing cannot be made as asked: the score does not read, or it has not the verse or lines asked for
    /// (said without the file, which the front end names as the singer did).
    public enum Failure: Error, Sendable {
        case unreadable(ScoreError)
        case request(String)
    }

    /// What `choir notes` lists of the score at `path`, moved by `transpose` semitones: the lines `names` pick
    /// (``LineSelector``; every line when none), in playback order when `unfolded`, the lyrics of `verse`.
    public init(file path: String, lines names: [String], transpose: Int = 0, unfolded: Bool = true, verse: Int = 1) throws(Failure) {
        let score: Score
        do { score = try ScoreReader.read(contentsOf: path).transposed(by: transpose) } catch { throw .unreadable(error) }
        if let problem = score.problem(withVerse: verse) { throw .request(problem) }
        let lines = score.lines
        var chosen = Array(lines.indices)
        if !names.isEmpty {
            do { chosen = try LineSelector.select(names, from: lines).sorted() } catch { throw .request(error.description) }
        }
        self.init(score: score, lines: lines, chosen: chosen, timeline: Timeline(score, unfolded: unfolded), verse: verse)
    }

    /// Notes of the group's lines on the time line, each with the name of its line, in order.
    private func notes(_ lines: [Line]) -> [(Note, String)] {
        var rows: [(Note, String)] = []
        for line in lines {
            for note in timeline.place(line.notes, in: score) { rows.append((note, line.name)) }
        }
        return rows.sorted { a, b in a.0.onset == b.0.onset ? a.0.pitch < b.0.pitch : a.0.onset < b.0.onset }
    }

    private func lyrics(_ lines: [Line]) -> [Lyric] {
        lines.flatMap { timeline.place($0.lyrics, in: score) }
            .sorted { $0.onset == $1.onset ? $0.verse < $1.verse : $0.onset < $1.onset }
    }

    /// `choir notes --json`: the measures' layout, then each part's notes and lyrics as rows.
    public var json: JSON {
        let order = timeline.entries.count == score.measures.count ? "written" : "playback"
        return .object([
            ("measures", .int(score.measures.count)),
            // Where each measure starts, in written order: the layout shared by every part.
            ("measure_starts", .array(score.measures.map { .number($0.start.doubleValue) })),
            ("first_tempo_qpm", JSON(score.tempos.first?.quarterNotesPerMinute)),
            ("order", .string(order)),
            ("parts", .array(groups.map(partJSON))),
        ])
    }

    private func partJSON(_ group: (part: Int, lines: [Line])) -> JSON {
        let part = score.parts[group.part]
        let name = group.lines.count == 1 && group.lines[0].voice != nil ? group.lines[0].name : part.name
        let noteRows: [JSON] = notes(group.lines).map(noteJSON)
        let lyricRows: [JSON] = lyrics(group.lines).map { lyric in
            [.number(lyric.onset.doubleValue), .string(lyric.text), .string(lyric.syllabic.rawValue), .int(lyric.verse)]
        }
        return .object([
            ("id", .string(part.id)), ("name", .string(name)), ("notes", .array(noteRows)),
            ("lyrics", .array(lyricRows)),
        ])
    }

    private func noteJSON(_ note: Note, line: String) -> JSON {
        let seconds = (timeline.tempoMap.seconds(at: note.onset) * 1000).rounded() / 1000
        return [
            .number(note.onset.doubleValue), .number(note.duration.doubleValue), .number(note.pitch),
            .number(seconds), .string(score.measures[note.measureIndex].number), .string(note.voice), .string(line),
        ]
    }

    /// A note with its beat in the measure, placed on the time line like the note itself.
    private struct Row: ScoreEvent {
        var note: Note
        var beat: Double
        var onset: Rational
        var measureIndex: Int { note.measureIndex }
    }

    /// `choir notes`: a table per line, a row per note as played, with its beat, time and syllable.
    public var text: String {
        var out = ""
        for group in groups {
            for line in group.lines {
                // Syllables by where they are sung on the time line, which is where the notes are placed.
                var syllables: [Rational: String] = [:]
                for lyric in timeline.lyrics(of: line, verse: verse, in: score) {
                    let hyphen = lyric.syllabic == .begin || lyric.syllabic == .middle ? "-" : ""
                    syllables[lyric.onset] = lyric.text + hyphen
                }
                let rows = line.notes.map { note in
                    let measure = score.measures[note.measureIndex]
                    // A pickup holds the last beats of a full measure.
                    let missing = note.measureIndex == 0 ? max(.zero, measure.time.measureLength - measure.duration) : .zero
                    let position = note.onset - measure.start + missing
                    let beat = (position / Rational(4, measure.time.beatType)).doubleValue + 1
                    return Row(note: note, beat: beat, onset: note.onset)
                }
                if !out.isEmpty { out += "\n" }
                out += "\(line.name)\n  measure  beat   onset  length  note  midi    time  lyric\n"
                for row in timeline.place(rows, in: score) {
                    let note = row.note
                    let name = PitchName.name(midi: note.midi, key: score.measures[note.measureIndex].key.fifths) + Self.cents(note.cents)
                    var columns =
                        score.measures[note.measureIndex].number.padded(to: 9, alignRight: true)
                        + Self.decimal(row.beat).padded(to: 6, alignRight: true)
                    columns += Self.decimal(row.onset.doubleValue).padded(to: 8, alignRight: true)
                    columns +=
                        Self.decimal(note.duration.doubleValue).padded(to: 8, alignRight: true) + name.padded(to: 6, alignRight: true)
                    columns += String(note.midi).padded(to: 6, alignRight: true)
                    columns += String(printf: "%.3f", timeline.tempoMap.seconds(at: row.onset)).padded(to: 8, alignRight: true)
                    out += columns + (syllables[row.onset].map { "  " + $0 } ?? "") + "\n"
                }
            }
        }
        return out
    }

    private static func decimal(_ value: Double) -> String {
        var text = String(printf: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    private static func cents(_ cents: Double) -> String {
        abs(cents) < 0.5 ? "" : String(printf: "%+.0f¢", cents)
    }
}
