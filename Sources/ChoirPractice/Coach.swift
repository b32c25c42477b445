import ChoirScore

/// Advice from a line's stored sessions, in plain words, each sentence with the numbers it rests on. Rule-based
/// and offline: a sentence is said only when its pattern is in the results.
public enum Coach {
    /// Held notes are those of a second or more: long enough for the pitch to sag or climb.
    static let held = 1.0
    /// A session leans flat (or sharp) on notes whose median is this many cents off on average.
    static let leaning = 12.0

    /// What `sessions` (of one piece and line, oldest first) show, what matters most first: another line sung, a
    /// lean on held notes from some pitch up, late or early entrances after rests, a measure much worse than it
    /// was, intervals to the bass sung off pure, and a measure much better.
    public static func advice(_ sessions: [SessionReport]) -> [String] {
        otherLines(sessions.last) + [lean(sessions, sign: -1), lean(sessions, sign: 1), entrances(sessions)].compactMap { $0 }
            + measureChanges(sessions, better: false) + chord(sessions) + measureChanges(sessions, better: true)
    }

    /// "Your major thirds over the bass are 14 cents wide (31 notes over 5 sessions; +0 cents from equal
    /// temperament)": intervals to the other lines' bass that the last five sessions, together, sang consistently
    /// off pure (``ChordIntonation``), each from at least 8 notes.
    static func chord(_ sessions: [SessionReport]) -> [String] {
        let recent = sessions.suffix(5)
        return ChordIntonation.tendencies(recent.flatMap(\.results), minimum: 8).filter(\.isOff).map { $0.summary(sessions: recent.count) }
    }

    /// "You tend to go flat on held notes from D4 up (mm. 12–15, 8 of 11 sessions; 23 cents flat on average)": the
    /// lowest pitch from which held notes lean one way in at least 3 sessions and 60% of those that sing them,
    /// while held notes below it do not. A note in a chord leans from where a choir tunes it (``ChordIntonation``):
    /// a pure third is no flat note.
    static func lean(_ sessions: [SessionReport], sign: Double) -> String? {
        let heldNotes = sessions.map { report in
            report.results.filter {
                $0.note.duration >= held && $0.medianCents != nil && ![.missing, .octave, .wrong].contains($0.verdict)
            }
        }
        func off(_ result: NoteResult) -> Double { result.medianCents! - (ChordIntonation.note(result)?.target ?? 0) }
        func leans(_ results: [NoteResult]) -> Bool? {
            guard !results.isEmpty else { return nil }
            return sign * results.map(off).reduce(0, +) / Double(results.count) > leaning
        }
        for pitch in Set(heldNotes.joined().map(\.note.midi)).sorted() {
            let above = heldNotes.map { $0.filter { $0.note.midi >= pitch } }
            let below = heldNotes.flatMap { $0.filter { $0.note.midi < pitch } }
            let singing = above.compactMap(leans)
            let showing = singing.count { $0 }
            guard showing >= 3, Double(showing) >= 0.6 * Double(singing.count), leans(below) != true else { continue }
            let notes = above.joined()
            let cents = abs(notes.map(off).reduce(0, +) / Double(notes.count))
            let word = sign < 0 ? "flat" : "sharp"
            let name = notes.first { $0.note.midi == pitch }!.note.name
            return
                "You tend to go \(word) on held notes from \(name) up (\(measures(notes.map(\.note))), \(showing) of \(singing.count) sessions; "
                + "\(Int(cents.rounded())) cents \(word) on average)"
        }
        return nil
    }

    /// "Your entrances after rests are late by about 150 ms (median of 23 entrances over 4 sessions)", from the
    /// last five sessions, when the median is beyond 80 ms either way.
    static func entrances(_ sessions: [SessionReport]) -> String? {
        let recent = sessions.suffix(5)
        let onsets = recent.flatMap { report in
            report.results.filter { $0.note.isEntrance && $0.note.previousMIDI == nil && $0.verdict != .missing }.compactMap(\.onsetError)
        }.sorted()
        guard onsets.count >= 5 else { return nil }
        let median = onsets[onsets.count / 2]
        guard abs(median) > 0.08 else { return nil }
        let sessionsWord = recent.count == 1 ? "1 session" : "\(recent.count) sessions"
        return "Your entrances after rests are \(median > 0 ? "late" : "early") by about \(Int((abs(median) * 100).rounded()) * 10) ms "
            + "(median of \(onsets.count) entrances over \(sessionsWord))"
    }

    /// "m. 7 has improved from 40% to 90% over 5 sessions" (`better`; else "has slipped"), for a measure sung in at
    /// least three sessions whose first and last accuracies are 40 points or more apart that way.
    static func measureChanges(_ sessions: [SessionReport], better: Bool) -> [String] {
        var accuracies: [String: [Double]] = [:]
        var order: [String] = []
        for report in sessions {
            for (measure, _, _, accuracy) in SessionReport.figures(of: report.results, by: { $0.note.measure }) {
                if accuracies[measure] == nil { order.append(measure) }
                accuracies[measure, default: []].append(accuracy)
            }
        }
        return order.compactMap { measure in
            let values = accuracies[measure]!
            guard values.count >= 3, (better ? 1 : -1) * (values.last! - values.first!) >= 40 else { return nil }
            let verb = values.last! > values.first! ? "has improved" : "has slipped"
            return
                "m. \(measure) \(verb) from \(Int(values.first!.rounded()))% to \(Int(values.last!.rounded()))% over \(values.count) sessions"
        }
    }

    /// "In your last session you sang the Alto's line in mm. 21–22 (3 of 4 notes)": runs of measures where at
    /// least two notes were another line's, the same line.
    static func otherLines(_ last: SessionReport?) -> [String] {
        guard let last else { return [] }
        var sentences: [String] = []
        var run: (line: String, notes: [ExpectedNote], borrowed: Int)?
        func close() {
            if let done = run, done.borrowed >= 2 {
                sentences.append(
                    "In your last session you sang the \(done.line)'s line in \(measures(done.notes)) "
                        + "(\(done.borrowed) of \(done.notes.count) notes)")
            }
            run = nil
        }
        for (_, results) in groupedByMeasure(last.results) {
            let lines = results.compactMap { $0.evidence?.sangOther?.line }
            guard let line = lines.first, lines.allSatisfy({ $0 == line }) else {
                close()
                continue
            }
            if run?.line != line { close() }
            run = (line, (run?.notes ?? []) + results.map(\.note), (run?.borrowed ?? 0) + lines.count)
        }
        close()
        return sentences
    }

    private static func groupedByMeasure(_ results: [NoteResult]) -> [(String, [NoteResult])] {
        var groups: [(String, [NoteResult])] = []
        for result in results {
            if groups.last?.0 == result.note.measure {
                groups[groups.count - 1].1.append(result)
            } else {
                groups.append((result.note.measure, [result]))
            }
        }
        return groups
    }

    /// "m. 7" or "mm. 12–15": the first and last measures of `notes`, in the order sung.
    static func measures(_ notes: [ExpectedNote]) -> String {
        let ordered = notes.sorted { $0.measureIndex < $1.measureIndex }
        guard let first = ordered.first?.measure, let last = ordered.last?.measure else { return "" }
        return first == last ? "m. \(first)" : "mm. \(first)–\(last)"
    }
}

extension Coach {
    /// `choir coach`'s words on a line's sessions (`reports`, at least one): what matters most first, two pieces of
    /// advice unless `verbose`, with how many more there are.
    public static func text(_ reports: [SessionReport], piece: String, verbose: Bool) -> String {
        let advice = advice(reports)
        let shown = verbose ? advice : Array(advice.prefix(2))
        let more = advice.count - shown.count
        return heading(reports, piece: piece) + (more > 0 ? " (\(more) more with --verbose)" : "") + ":\n"
            + (advice.isEmpty ? "  No pattern stands out yet.\n" : shown.map { "  - \($0)\n" }.joined())
    }

    /// "Amazing Grace, Tenor, 3 sessions": the piece, the line and how many of its sessions the advice reads.
    public static func heading(_ reports: [SessionReport], piece: String) -> String {
        "\(piece), \(reports[0].part), " + (reports.count == 1 ? "1 session" : "\(reports.count) sessions")
    }
}
