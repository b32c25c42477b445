import ChoirBase
import ChoirPractice
import ChoirScore

/// A piece's progress as the studio shows it, from the practice history: its sessions over time (as `choir history
/// SCORE` lists them), each line's measures that improved or slipped in its latest session
/// (``PracticeHistory/measureChanges(of:part:)``) and its marks (as `choir mark list SCORE`).
enum StudioProgress {
    static func json(_ path: String, history: PracticeHistory) throws -> JSON {
        let identity = try ScoreReader.identity(ofFile: path)
        let stored = try history.sessions(of: identity)
        let sessions = stored.map { session in
            JSON.object([
                ("id", .int(Int(session.id))), ("date", .string(PracticeHistory.time(session.started))), ("part", .string(session.part)),
                ("tempo", .number(session.tempo.rounded())), ("notes", .int(session.notes)), ("correct", .int(session.correct)),
                ("accuracy", .number((session.accuracy * 10).rounded() / 10)), ("finished", .bool(session.finished)),
                ("sung", .bool(session.sung)),
            ])
        }
        var parts: [String] = []
        for session in stored where session.inTrend && !parts.contains(where: { $0.lowercased() == session.part.lowercased() }) {
            parts.append(session.part)
        }
        var changes: [JSON] = []
        for part in parts {
            guard let found = try history.measureChanges(of: identity, part: part) else { continue }
            changes.append(
                .object([
                    ("part", .string(part)), ("latest", .int(Int(found.latest.id))),
                    ("date", .string(PracticeHistory.time(found.latest.started))), ("earlier", .int(found.earlier.count)),
                    ("improved", .array(found.improved.map(json))), ("slipped", .array(found.slipped.map(json))),
                ]))
        }
        return .object([
            ("sessions", .array(sessions)), ("changes", .array(changes)), ("marks", .array(try history.marks(of: identity).map(json))),
        ])
    }

    static func json(_ change: MeasureChange) -> JSON {
        .object([
            ("measure", .string(change.measure)), ("before", .number(change.before.rounded())),
            ("latest", .number(change.latest.rounded())),
            ("sessions", .int(change.sessions)), ("summary", .string(change.summary)),
        ])
    }

    static func json(_ mark: PracticeMark) -> JSON {
        .object([("id", .int(Int(mark.id))), ("line", JSON(mark.line)), ("measure", .string(mark.measure)), ("text", .string(mark.text))])
    }
}
