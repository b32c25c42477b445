import ChoirPractice
import ChoirScore

/// A stored session with known results, for planting patterns in a history: a tenor's line over mm. 1–16, a
/// note a measure, two seconds each (held), C4 in mm. 1–11 and D4 to E4 in mm. 12–15 (an E4 in m. 16 after a
/// rest; mm. 1 and 8 come after rests too), sung in tune and on time until `change` says otherwise.
public enum PlantedSession {
    /// The score's file name, as the sessions give it.
    public static let file = "piece.musicxml"

    /// A score with the sessions' lines, Tenor and Alto, to write as ``file`` beside a planted history: what the
    /// commands that read a history by its score read.
    public static let musicXML = ScoreWriter.musicXML(
        title: "Piece",
        parts: ["Tenor", "Alto"].map { name in
            ScoreWriter.Part(name: name, notes: (0..<16).map { ScoreWriter.Note(onset: Double($0) * 2, duration: 2, midi: 60) })
        })

    public static func make(_ change: (inout NoteResult) -> Void = { _ in }) -> SessionReport {
        let results = (1...16).map { measure -> NoteResult in
            let midi = measure < 12 ? 60 : measure == 16 ? 64 : [62, 64, 62, 64][measure - 12]
            let note = ExpectedNote(
                index: measure - 1, measure: "\(measure)", measureIndex: measure - 1, onset: Double(measure - 1) * 2, duration: 2,
                midi: midi, isEntrance: true, previousMIDI: measure == 1 || measure == 8 || measure == 16 ? nil : 60)
            var result = NoteResult(note: note, verdict: .correct, medianCents: 3, onsetError: 0.01, inTunePercent: 95)
            change(&result)
            return result
        }
        var report = SessionReport(
            score: file, part: "Tenor", tempo: 60, options: NoteComparator.Options(), results: results, trace: [],
            measureStarts: (1...16).map { MeasureMark(number: "\($0)", time: Double($0 - 1) * 2) })
        report.title = "Piece"
        report.identity = ScoreIdentity(hash: ScoreIdentity.hash(Array(musicXML.utf8)), path: file)
        return report
    }

    /// Seven tenor sessions, oldest first: m. 3 wrong until the latest, m. 7 right until it; m. 5 wrong in the first
    /// two (the first is beyond the five a latest session is compared with), m. 10 in the second, m. 11 in the second,
    /// third and latest; m. 13 sung in the latest alone, m. 16 in the earlier ones alone (always wrong).
    public static func changing() -> [SessionReport] {
        (0..<7).map { session in
            var report = make { result in
                let wrong: Bool =
                    switch result.note.measure {
                    case "3": session < 6
                    case "7": session == 6
                    case "5": session < 2
                    case "10": session == 1
                    case "11": (1...2).contains(session) || session == 6
                    case "16": true
                    default: false
                    }
                if wrong { result.verdict = .wrong }
            }
            report.results.removeAll { $0.note.measure == (session == 6 ? "16" : "13") }
            return report
        }
    }
}
