import ChoirBase
import ChoirPractice
import ChoirScore

/// A piece's progress as the studio shows it, from the practice history: its sessions over time (as `choir history
/// SCORE` lists them) and its marks (as `choir mark list SCORE`).
enum StudioProgress {
    static func json(_ path: String, history: PracticeHistory) throws -> JSON {
        let identity = try ScoreReader.identity(ofFile: path)
        let sessions = try history.sessions(of: identity).map { session in
            JSON.object([
                ("id", .int(Int(session.id))), ("date", .string(PracticeHistory.time(session.started))), ("part", .string(session.part)),
                ("tempo", .number(session.tempo.rounded())), ("notes", .int(session.notes)), ("correct", .int(session.correct)),
                ("accuracy", .number((session.accuracy * 10).rounded() / 10)), ("finished", .bool(session.finished)),
                ("sung", .bool(session.sung)),
            ])
        }
        return .object([("sessions", .array(sessions)), ("marks", .array(try history.marks(of: identity).map(json)))])
    }

    static func json(_ mark: PracticeMark) -> JSON {
        .object([("id", .int(Int(mark.id))), ("line", JSON(mark.line)), ("measure", .string(mark.measure)), ("text", .string(mark.text))])
    }
}
