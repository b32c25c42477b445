import ChoirScore
import FoundationEssentials
import GRDB

/// A singer's pencil mark on their part: a note at a measure of a piece ("breathe after 'grace'"), shown in the
/// live view as the measure comes near and in every report at its measure.
public struct PracticeMark: Codable, Sendable, Equatable {
    public var id: Int64
    /// The score's file as it was given.
    public var score: String
    /// The score's content hash and path, as sessions are kept (``PracticeHistory/Session/hash``).
    public var hash: String?
    public var path: String
    /// The line it is for, by name; nil for every line.
    public var line: String?
    /// The measure, by printed number.
    public var measure: String
    public var text: String

    /// A mark on the score at `score`, whose file is `identity` when it can be read.
    public init(id: Int64 = 0, score: String, identity: ScoreIdentity?, line: String?, measure: String, text: String) {
        self.id = id
        self.score = score
        hash = identity?.hash
        path = identity?.path ?? score
        self.line = line
        self.measure = measure
        self.text = text
    }

    /// The marks just kept, a line each as `choir mark add` says them: "mark 3: m. 12 (Tenor): breathe".
    public static func kept(_ marks: [PracticeMark]) -> String {
        marks.map { "mark \($0.id): m. \($0.measure)\($0.line.map { " (\($0))" } ?? ""): \($0.text)\n" }.joined()
    }
}

extension PracticeHistory {
    /// Keeps `mark` and returns it with its number.
    public func add(_ mark: PracticeMark) throws(Failure) -> PracticeMark {
        try attempt { db in
            try db.execute(
                sql: "INSERT INTO mark (score, score_hash, score_path, line, measure, text, created) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [mark.score, mark.hash, mark.path, mark.line, mark.measure, mark.text, Date().timeIntervalSince1970])
            var kept = mark
            kept.id = db.lastInsertedRowID
            return kept
        }
    }

    /// The marks on `score` (``ScoreIdentity/holds(hash:path:name:lines:)``; every score's when nil), for any of `lines` when
    /// given (a mark for every line included), in the order they were made.
    public func marks(of score: ScoreIdentity? = nil, lines: [String]? = nil) throws(Failure) -> [PracticeMark] {
        try attempt { db in
            try Row.fetchAll(db, sql: "SELECT id, score, score_hash, score_path, line, measure, text FROM mark ORDER BY id").map {
                var mark = PracticeMark(
                    id: $0["id"], score: $0["score"], identity: nil, line: $0["line"], measure: $0["measure"], text: $0["text"])
                mark.hash = $0["score_hash"]
                mark.path = $0["score_path"] ?? mark.score
                return mark
            }
        }.filter { mark in
            (score.map { $0.holds(hash: mark.hash, path: mark.path, lines: mark.line.map { [$0] } ?? []) } ?? true)
                && (lines.map { names in mark.line.map { line in names.contains { $0.lowercased() == line.lowercased() } } ?? true } ?? true)
        }
    }

    /// Rubs out the mark numbered `id`; false when there is none.
    public func removeMark(_ id: Int64) throws(Failure) -> Bool {
        try attempt { db in
            try db.execute(sql: "DELETE FROM mark WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }
}

extension PracticeMark {
    /// Why a mark cannot be made: a line the score does not have, a measure it does not have, no text.
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }
}

extension PracticeHistory {
    /// Marks measure `measure` (by printed number) of the score at `path`, for each of `lines` (a line's name, a
    /// unique start, S/A/T/B or a number; every line when none), as `choir mark add` does; returns the marks kept.
    /// Throws the reader's ``ScoreError``, a ``PracticeMark/Problem`` for a line, measure or text that is not one, or
    /// the history's ``Failure``.
    public func mark(score path: String, lines: [String], measure: String, text: String) throws -> [PracticeMark] {
        let (read, identity) = try ScoreReader.identified(contentsOf: path)
        let names: [String?]
        do {
            names = lines.isEmpty ? [nil] : try LineSelector.select(lines, from: read.lines).map { read.lines[$0].name }
        } catch {
            throw PracticeMark.Problem(description: "\(path): \(error)")
        }
        guard read.measures.contains(where: { $0.number == measure }) else {
            let numbers = read.measures.map(\.number)
            throw PracticeMark.Problem(
                description: "\(path): measure \(measure) is not in the score: expected \(numbers.first ?? "")–\(numbers.last ?? "")")
        }
        guard !text.allSatisfy(\.isWhitespace) else {
            throw PracticeMark.Problem(description: "the mark's text is empty: expected what to remember at the measure")
        }
        return try names.map { name throws(Failure) in
            try add(PracticeMark(score: path, identity: identity, line: name, measure: measure, text: text))
        }
    }

    /// Rubs out the mark numbered `id` of the score at `path` and returns it; a number that is not one of its marks
    /// is refused, so that a front end showing one score cannot rub out another's.
    public func removeMark(_ id: Int64, of path: String) throws -> PracticeMark {
        let identity = try ScoreReader.identified(contentsOf: path).identity
        guard let mark = try marks(of: identity).first(where: { $0.id == id }), try removeMark(id) else {
            throw PracticeMark.Problem(description: "\(path): no mark \(id): expected one of `choir mark list`")
        }
        return mark
    }
}
