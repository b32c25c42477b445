import ChoirPractice
import ChoirScore
import FoundationEssentials
import GRDB

/// The singer's library of scores, kept in the practice history's SQLite database: what each piece is (title,
/// composer, voicing, lines and their ranges, key, length), so that it is listed and searched without being read
/// again, and found again by its content when it moves.
public final class Library: Sendable {
    /// What adding a file did.
    public enum Change: Sendable, Equatable {
        case added
        /// The file at the same path has new content.
        case updated
        /// A file the library had under `from`, which is gone, is here now.
        case moved(from: String)
        case unchanged
    }

    /// An entry with when it was last practised, as `choir library list` shows it.
    public struct Listed: Sendable {
        public var entry: LibraryEntry
        /// The latest session of this piece, if there is one: when, which line, how well.
        public var lastPractised: (date: Date, part: String, accuracy: Double)?
    }

    public let path: String
    private let database: DatabaseQueue

    /// Opens the library in the history's database at `path` (``PracticeHistory/defaultPath(environment:)``).
    public init(path: String) throws(PracticeHistory.Failure) {
        self.path = path
        database = try PracticeHistory.open(path)
    }

    /// The scores (`.musicxml`, `.xml`, `.mxl`) at `paths`, folders searched recursively, in a stable order.
    public static func scores(in paths: [String]) -> [String] {
        var found: [String] = []
        for path in paths {
            let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
            guard type == .typeDirectory else {
                found.append(path)
                continue
            }
            let inside = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []).sorted()
            found += inside.filter { isScore($0) }.map { (path.hasSuffix("/") ? path : path + "/") + $0 }
        }
        return found
    }

    static func isScore(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasSuffix(".musicxml") || lower.hasSuffix(".xml") || lower.hasSuffix(".mxl")
    }

    /// Adds the scores at `files` (or notices them changed or moved), reading two at a time; a file already there
    /// unchanged (same size and modification time) is not read again, and a file named twice (`a.xml ./a.xml`, a
    /// folder and a file in it) counts once. `sources` records what choir made a file from (by its path as given); a
    /// file changed or moved keeps the source it had. Returns what happened to each, in order.
    public func add(_ files: [String], sources: [String: LibraryEntry.Source] = [:]) throws(PracticeHistory.Failure) -> [(
        path: String, change: Result<Change, ScoreError>
    )] {
        let sources = Dictionary(sources.map { (ScoreIdentity.absolute($0.key), $0.value) }, uniquingKeysWith: { a, _ in a })
        let known = try attempt { db in
            try Row.fetchAll(db, sql: "SELECT path, hash, size, modified FROM library").map {
                (path: $0["path"] as String, hash: $0["hash"] as String, size: $0["size"] as Int, modified: $0["modified"] as Double)
            }
        }
        let byPath = Dictionary(known.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        var seen = Set<String>()
        let absolute = files.map(ScoreIdentity.absolute).filter { seen.insert($0).inserted }
        // Read (and hash) what is new or changed.
        let outcomes = ScoreReader.each(of: absolute) { Self.read($0, known: sources[$0] == nil ? byPath[$0] : nil) }
        return try attempt { db in
            var changes: [(path: String, change: Result<Change, ScoreError>)] = []
            var claimed = Set<String>()
            for (path, outcome) in zip(absolute, outcomes) {
                switch outcome {
                case .failure(let error):
                    changes.append((path, .failure(error)))
                case .success(nil):
                    changes.append((path, .success(.unchanged)))
                case .success(var read?):
                    var change = Change.added
                    var before: String?
                    if byPath[path] != nil {
                        change = .updated
                        before = path
                    } else if let moved = known.first(where: {
                        $0.hash == read.entry.hash && !claimed.contains($0.path)
                            && !FileManager.default.fileExists(atPath: $0.path)
                    }) {
                        change = .moved(from: moved.path)
                        before = moved.path
                        claimed.insert(moved.path)
                    }
                    read.entry.source =
                        try sources[path]
                        ?? before.flatMap {
                            try String.fetchOne(db, sql: "SELECT entry FROM library WHERE path = ?", arguments: [$0]).flatMap {
                                try JSONDecoder().decode(LibraryEntry.self, from: Data($0.utf8)).source
                            }
                        }
                    if case .moved(let from) = change { try db.execute(sql: "DELETE FROM library WHERE path = ?", arguments: [from]) }
                    try db.execute(
                        sql: """
                            INSERT INTO library (path, hash, size, modified, title, entry, added) VALUES (?, ?, ?, ?, ?, ?, ?)
                            ON CONFLICT(path) DO UPDATE SET hash = excluded.hash, size = excluded.size,
                                modified = excluded.modified, title = excluded.title, entry = excluded.entry
                            """,
                        arguments: [
                            path, read.entry.hash, read.size, read.modified, read.entry.title,
                            String(decoding: try JSONEncoder().encode(read.entry), as: UTF8.self), Date().timeIntervalSince1970,
                        ])
                    changes.append((path, .success(change)))
                }
            }
            return changes
        }
    }

    /// The entry for the file at `path`, or nil when `known` says it has not changed since it was read.
    private static func read(_ path: String, known: (path: String, hash: String, size: Int, modified: Double)?)
        -> Result<(entry: LibraryEntry, size: Int, modified: Double)?, ScoreError>
    {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = (attributes?[.size] as? Int) ?? -1
        let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        if let known, known.size == size, known.modified == modified { return .success(nil) }
        return Result { () throws(ScoreError) in
            let bytes = try ScoreReader.contents(of: path)
            let score = try ScoreReader.read(data: bytes, file: path)
            return (LibraryEntry(score: score, path: path, hash: ScoreIdentity.hash(bytes)), size, modified)
        }
    }

    /// Every entry, by title.
    public func entries() throws(PracticeHistory.Failure) -> [LibraryEntry] {
        try attempt { db in
            try String.fetchAll(db, sql: "SELECT entry FROM library ORDER BY title COLLATE NOCASE, path").map {
                try JSONDecoder().decode(LibraryEntry.self, from: Data($0.utf8))
            }
        }
    }

    /// The entries `query` asks for, by title.
    public func search(_ query: LibraryQuery) throws(PracticeHistory.Failure) -> [LibraryEntry] {
        try entries().filter(query.matches)
    }

    /// Every entry with its last practice, from the history's sessions of its score (its content, or its path).
    public func listed(_ entries: [LibraryEntry]) throws(PracticeHistory.Failure) -> [Listed] {
        let sessions = try PracticeHistory(path: path).sessions().filter { $0.notes > 0 }
        return entries.map { entry in
            var score = ScoreIdentity(hash: entry.hash, path: entry.path)
            score.piece = ScoreIdentity.Piece(name: entry.title, lines: entry.lines.map(\.name))
            let last = sessions.last { score.holds(hash: $0.hash, path: $0.path, name: $0.title, lines: $0.lines) }
            return Listed(entry: entry, lastPractised: last.map { ($0.started, $0.part, $0.accuracy) })
        }
    }

    /// The entries a SCORE argument names when it is not a file: the title in any case, else the titles it is the
    /// start of.
    public func titled(_ name: String) throws(PracticeHistory.Failure) -> [LibraryEntry] {
        let all = try entries(), wanted = name.lowercased()
        let exact = all.filter { $0.title.lowercased() == wanted }
        return exact.isEmpty ? all.filter { $0.title.lowercased().hasPrefix(wanted) } : exact
    }

    /// Why `name` does not pick one score of `matches` (what ``titled(_:)`` found for it): no file and no title,
    /// with the nearest title, or the titles it could be.
    public func problem(_ name: String, _ matches: [LibraryEntry]) -> String {
        if matches.isEmpty {
            let titles = (try? entries().map(\.title)) ?? []
            return "\(name): no such file, and no title in the library\(NearestName.suggestion(name, among: titles)): "
                + "expected a score's path or a title from `choir library list`"
        }
        return "\(name): \(matches.count) titles in the library begin so: expected one of "
            + matches.prefix(8).map { "'\($0.title)'" }.joined(separator: ", ") + (matches.count > 8 ? ", …" : "")
    }

    /// Takes `entries` out of the library (their files stay where they are).
    public func remove(_ entries: [LibraryEntry]) throws(PracticeHistory.Failure) {
        try attempt { db in
            for entry in entries { try db.execute(sql: "DELETE FROM library WHERE path = ?", arguments: [entry.path]) }
        }
    }

    private func attempt<T>(_ work: (Database) throws -> T) throws(PracticeHistory.Failure) -> T {
        try PracticeHistory.write(database, path: path, work)
    }

    /// Copies the entries of the damaged history `source` that the library does not have (by path); returns how many.
    public func recover(from source: DamagedHistoryReader) throws(PracticeHistory.Failure) -> Int {
        try PracticeHistory.recover("library", from: source, into: database, path: path)
    }
}
