import ChoirBase
import ChoirScore

/// The machine-readable report (`--report FILE.json`).
public enum JSONReport {
    public static func render(_ report: SessionReport) -> String {
        let counts = report.counts
        let summary: JSON = .object([
            ("notes", .int(report.results.count)),
            ("passes", .int(report.passes.count)),
            ("correct", .int(report.correct)),
            ("accuracy_pct", .number(rounded(report.accuracy))),
            ("mean_abs_cents", JSON(report.meanAbsoluteCents.map(rounded))),
            ("bias_cents", JSON(report.biasCents.map(rounded))),
            ("verdicts", .object(Verdict.allCases.map { ($0.rawValue, .int(counts[$0] ?? 0)) })),
        ])
        let measures: JSON = .array(
            report.measures.map {
                .object([("number", .string($0.number)), ("accuracy_pct", .number(rounded($0.accuracy)))])
            })
        let notes: JSON = .array(
            report.results.map { result in
                let note = result.note
                return .object([
                    ("index", .int(note.index)),
                    ("pass", .int(result.pass)),
                    ("measure", .string(note.measure)),
                    ("beat", .number(rounded(note.beat, 3))),
                    ("syllable", JSON(note.syllable)),
                    ("onset_s", .number(rounded(note.onset, 3))),
                    ("duration_s", .number(rounded(note.duration, 3))),
                    ("expected_midi", .int(note.midi)),
                    ("expected_name", .string(note.name)),
                    ("line", JSON(note.line)),
                    ("verdict", .string(result.verdict.rawValue)),
                    ("median_cents", JSON(result.medianCents.map { rounded($0) })),
                    ("sung_midi", JSON(result.sungMIDI.map { rounded($0, 2) })),
                    ("sung_name", JSON(result.sungName)),
                    ("onset_error_s", JSON(result.onsetError.map { rounded($0, 3) })),
                    ("offset_ms", result.offsetMilliseconds.map { JSON.int($0) } ?? .null),
                    ("timing_tolerance_ms", .int(Int((report.options.timingTolerance(for: note) * 1000).rounded()))),
                    ("summary", .string(result.summary)),
                    ("in_tune_pct", .number(rounded(result.inTunePercent))),
                    ("voiced_pct", JSON(result.evidence.map { rounded(100 * $0.voicedShare) })),
                    ("frames_judged", result.evidence.map { JSON.int($0.framesJudged) } ?? .null),
                    (
                        "sang",
                        result.evidence?.sangOther.map { other in
                            .object([
                                ("line", .string(other.line)), ("midi", .int(other.midi)),
                                ("name", .string(result.note.name(of: other.midi))),
                            ])
                        } ?? .null
                    ),
                    (
                        "chord",
                        ChordIntonation.note(result).map { chord in
                            .object([
                                ("bass_line", .string(chord.bass.line)), ("bass_midi", .int(chord.bass.midi)),
                                ("bass_name", .string(note.name(of: chord.bass.midi))), ("interval", .string(chord.interval.name)),
                                ("above", .bool(chord.above)), ("equal_cents", .number(rounded(chord.equalCents))),
                                ("pure_cents", .number(rounded(chord.pureCents))),
                            ])
                        } ?? .null
                    ),
                ])
            })
        var fields: [(String, JSON)] = [
            ("score", .string(report.score)),
            ("part", .string(report.part)),
            ("tempo_qpm", .number(rounded(report.tempo))),
            ("transpose", .int(report.transpose)),
            ("verse", .int(report.verse)),
            ("kind", JSON(report.kind?.rawValue)),
            ("tolerance_cents", .number(report.options.toleranceCents)),
            ("summary", summary),
            ("measures", measures),
            ("notes", notes),
        ]
        if let audio = report.audio {
            fields.append(
                (
                    "audio",
                    .object([
                        ("underruns", .int(audio.underruns)), ("overruns", .int(audio.overruns)),
                        ("dropped_samples", .int(audio.droppedSamples)), ("error", JSON(audio.error)),
                        ("loudspeakers_db", JSON(audio.loudspeakersDecibels)),
                    ])
                ))
        }
        if !report.lineFigures.isEmpty {
            fields.append(
                (
                    "lines",
                    .array(
                        report.lineFigures.map { figures in
                            .object([
                                ("line", .string(figures.line)), ("notes", .int(figures.notes)), ("correct", .int(figures.correct)),
                                ("accuracy_pct", .number(rounded(figures.accuracy))),
                            ])
                        })
                ))
        }
        let chord = report.chord
        if !chord.isEmpty {
            fields.append(
                (
                    "chord",
                    .array(
                        chord.map { tendency in
                            .object([
                                ("interval", .string(tendency.interval.name)), ("above", .bool(tendency.above)),
                                ("notes", .int(tendency.notes)),
                                ("pure_cents", .number(rounded(tendency.pureCents))),
                                ("equal_cents", .number(rounded(tendency.equalCents))),
                                ("off", .bool(tendency.isOff)), ("summary", .string(tendency.summary())),
                            ])
                        })
                ))
        }
        if !report.marks.isEmpty {
            fields.append(
                (
                    "marks",
                    .array(
                        report.marks.map { mark in
                            .object([
                                ("id", .int(Int(mark.id))), ("measure", .string(mark.measure)), ("line", JSON(mark.line)),
                                ("text", .string(mark.text)),
                            ])
                        })
                ))
        }
        if let divisi = report.divisi {
            fields.append(("divisi", .object([("note", .string(divisi.note.rawValue)), ("chords", .int(divisi.chords))])))
        }
        if let alignment = report.alignment { fields.append(("aligned_s", .number(rounded(alignment, 3)))) }
        if let lean = report.steadyOffset { fields.append(("steady_offset_s", .number(rounded(lean, 3)))) }
        if let unsung = report.unsung {
            fields.append(("unsung", .object([("notes", .int(unsung.notes)), ("from_measure", .string(unsung.measure))])))
        }
        if let stop = report.interruption {
            fields.append(
                (
                    "interrupted",
                    .object([
                        ("measure", .string(stop.measure)), ("pass", .int(stop.pass)), ("passes", stop.passes.map { .int($0) } ?? .null),
                        ("notes", stop.notes.map { .int($0) } ?? .null),
                    ])
                ))
        }
        let document: JSON = .object(fields)
        return document.serialized() + "\n"
    }

    static func rounded(_ value: Double) -> Double { rounded(value, 1) }

    static func rounded(_ value: Double, _ digits: Int) -> Double {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
