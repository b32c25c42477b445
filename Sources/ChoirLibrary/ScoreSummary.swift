import ChoirBase
import ChoirPractice
import ChoirScan
import ChoirScore

/// What a score holds, as `choir info` says it: title, composer, keys, times, tempos, length, verses, each line's
/// range, the reader's repairs and a scan's doubts.
public struct ScoreSummary: Sendable {
    /// The file as the singer named it.
    public var file: String
    /// The score as moved by ``transposed``, its measures played in playback order, and its lines.
    public var score: Score
    public var timeline: Timeline
    public var lines: [Line]
    /// Semitones the score was moved by; its keys and ranges are the moved ones.
    public var transposed: Int
    /// What a scanned score says of itself: who made it, and its doubtful places.
    public var scan: ScanNotes?

    /// The summary of `score`, read from `file`, moved by `transposed` semitones.
    public init(_ score: Score, file: String, transposed: Int = 0) {
        self.file = file
        self.score = score.transposed(by: transposed)
        self.transposed = transposed
        timeline = Timeline(self.score)
        lines = self.score.lines
    }

    /// The summaries of the score files at `paths`, each with what its scan says of it, moved by `transposed`
    /// semitones, in the order given, or why a file cannot be read. Files are read two at a time (the machines choir
    /// targets have two cores or more).
    public static func read(_ paths: [String], transposed: Int = 0) -> [Result<ScoreSummary, ScoreError>] {
        ScoreReader.each(of: paths) { path in
            Result { () throws(ScoreError) -> ScoreSummary in
                let (document, name) = try ScoreReader.document(data: try ScoreReader.contents(of: path), file: path)
                var summary = ScoreSummary(try ScoreReader.read(document: document, file: name), file: path, transposed: transposed)
                summary.scan = ScanNotes.read(utf8: document, file: name)
                return summary
            }
        }
    }

    /// What `choir info` prints of the score files at `paths` (``read(_:transposed:)``): each summary's text, a blank
    /// line before every path's but the first, or as JSON one object for one path and an array for several (null, or
    /// an array without it, where a file cannot be read); and the files that cannot be read, in order.
    public static func listing(_ paths: [String], transposed: Int, json: Bool) -> (output: String, failures: [ScoreError]) {
        var text = "", objects: [JSON] = [], failures: [ScoreError] = []
        for (number, result) in read(paths, transposed: transposed).enumerated() {
            switch result {
            case .failure(let error): failures.append(error)
            case .success(let summary):
                text += (number > 0 ? "\n" : "") + summary.text
                objects.append(summary.json)
            }
        }
        guard json else { return (text, failures) }
        return ((paths.count == 1 ? objects.first ?? .null : .array(objects)).serialized(), failures)
    }

    /// Successive distinct values, e.g. the keys a piece passes through.
    private func changes<T: Equatable>(_ values: [T]) -> [T] {
        values.reduce(into: []) { result, value in
            if result.last != value { result.append(value) }
        }
    }

    /// The keys, times and tempos the piece passes through, in order.
    public var keys: [KeySignature] { changes(score.measures.map(\.key)) }
    public var times: [TimeSignature] { changes(score.measures.map(\.time)) }
    public var tempos: [Double] { changes(timeline.tempoMap.points.map(\.quarterNotesPerMinute)) }
    /// Whether the first measure is a pickup.
    public var hasPickup: Bool { score.measures.first?.isImplicit ?? false }

    /// The line's lowest and highest notes, spelled in the key they are in; nil for a line without notes.
    public func range(_ line: Line) -> (lowest: String, highest: String)? {
        guard let lowest = line.lowest, let highest = line.highest else { return nil }
        func name(_ note: Note) -> String { PitchName.name(midi: note.midi, key: score.measures[note.measureIndex].key.fifths) }
        return (name(lowest), name(highest))
    }

    /// `choir info`: a labelled row for each fact, then each line's range.
    public var text: String {
        var out = "\(file)\n"
        func row(_ label: String, _ value: String) { out += "  " + label.padded(to: 10) + value + "\n" }
        row("Title", score.name(file: file))
        row("Composer", score.composer ?? "(unknown)")
        row(
            "Key",
            keys.map(\.description).joined(separator: " → ")
                + (SessionReport.transposition(transposed).map { " (\($0))" } ?? ""))
        row("Time", times.map(\.description).joined(separator: " → "))
        let tempoText =
            tempos.prefix(6).map { "♩ = \(Self.number($0))" }.joined(separator: " → ")
            + (tempos.count > 6 ? " …" : "") + (score.tempos.isEmpty ? " (not marked)" : "")
        row("Tempo", tempoText)
        row("Measures", "\(score.measures.count)" + (hasPickup ? " (with a pickup)" : ""))
        let played = timeline.entries.count == score.measures.count ? "" : ", \(timeline.entries.count) measures played"
        row("Duration", Self.clock(timeline.seconds) + played)
        row("Verses", "\(score.verseCount)")
        out += "  Lines\n"
        for line in lines {
            let span = range(line).map { "\($0.lowest)–\($0.highest)" } ?? "no notes"
            out += "    \(line.name): \(span)\n"
        }
        for (number, repair) in score.repairLines.enumerated() {
            row(number == 0 ? "Repaired" : "", repair)
        }
        if let scan {
            if let made = scan.made { row("Scanned", made) }
            for (number, doubt) in ScanNotes.lines(scan.doubts, in: score).enumerated() {
                row(number == 0 ? "Doubtful" : "", doubt)
            }
        }
        return out
    }

    /// `choir info --json`.
    public var json: JSON {
        .object([
            ("file", .string(file)),
            ("title", .string(score.name(file: file))),
            ("composer", JSON(score.composer)),
            ("transpose", .int(transposed)),
            ("key", .string(keys[0].description)),
            ("keys", .array(keys.map { .string($0.description) })),
            ("time", .string(times[0].description)),
            ("times", .array(times.map { .string($0.description) })),
            ("tempo_qpm", .number(timeline.tempoMap.initialTempo)),
            ("tempo_marked", .bool(!score.tempos.isEmpty)),
            ("measures", .int(score.measures.count)),
            ("pickup", .bool(hasPickup)),
            ("measures_played", .int(timeline.entries.count)),
            ("duration_s", .number((timeline.seconds * 1000).rounded() / 1000)),
            ("verses", .int(score.verseCount)),
            (
                "repairs",
                .array(
                    score.repairs.map { repair in
                        .object([
                            ("kind", .string(repair.kind.rawValue)),
                            ("part", .string(repair.part)),
                            ("measure", JSON(repair.measureIndex.map { score.measures[$0].number })),
                        ])
                    })
            ),
            (
                "scan",
                scan.map { scan in
                    .object([
                        ("made", JSON(scan.made)),
                        (
                            "doubtful",
                            .array(
                                scan.doubts.map { doubt in
                                    .object([
                                        (
                                            "measure",
                                            JSON(
                                                doubt.measureIndex.flatMap {
                                                    score.measures.indices.contains($0) ? score.measures[$0].number : nil
                                                })
                                        ),
                                        ("part", JSON(doubt.partID.flatMap { id in score.parts.first { $0.id == id }?.name })),
                                        ("reason", .string(doubt.reason)),
                                    ])
                                })
                        ),
                    ])
                } ?? .null
            ),
            (
                "lines",
                .array(
                    lines.map { line in
                        let span = range(line)
                        return .object([
                            ("name", .string(line.name)),
                            ("part", .string(score.parts[line.partIndex].name)),
                            ("notes", .int(line.notes.count)),
                            ("lowest", JSON(span?.lowest)),
                            ("highest", JSON(span?.highest)),
                            ("lowest_midi", line.lowest.map { .int($0.midi) } ?? .null),
                            ("highest_midi", line.highest.map { .int($0.midi) } ?? .null),
                        ])
                    })
            ),
        ])
    }

    /// A tempo without a needless ".0".
    public static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(printf: "%.1f", value)
    }

    /// Seconds as m:ss.
    public static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let s = total % 60
        return "\(total / 60):" + (s < 10 ? "0" : "") + "\(s)"
    }
}
