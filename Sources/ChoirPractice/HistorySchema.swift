import ChoirScore
import GRDB

/// The history's file, one SQLite database for everything choir keeps: sessions and their notes, pencil marks, the
/// library and rehearsal plans, under one migrator. Each step is named once and never changed, so a file written
/// by any earlier choir (before the migrator, or when the library and the plans registered their own steps on the
/// same file) is brought up to date on opening, in this order, and keeps every row.
enum HistorySchema {
    /// The schema, step by step: a history written by any earlier choir is brought up to date on opening.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // Histories from before the migrator have these tables already, some without the later columns.
        migrator.registerMigration("sessions, results and traces") { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS session (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, score TEXT NOT NULL, part TEXT NOT NULL,
                        started REAL NOT NULL, tempo REAL NOT NULL, tempo_percent REAL NOT NULL,
                        options TEXT NOT NULL, measures TEXT NOT NULL, finished INTEGER NOT NULL DEFAULT 0, audio TEXT);
                    CREATE TABLE IF NOT EXISTS result (
                        session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE, note TEXT NOT NULL,
                        idx INTEGER NOT NULL, measure TEXT NOT NULL, verdict TEXT NOT NULL, median_cents REAL,
                        onset_error REAL, in_tune_pct REAL NOT NULL, PRIMARY KEY (session, idx));
                    CREATE TABLE IF NOT EXISTS trace (
                        session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE, time REAL NOT NULL,
                        midi REAL NOT NULL);
                    CREATE INDEX IF NOT EXISTS trace_session ON trace(session, time);
                    """)
            if try !db.columns(in: "session").contains(where: { $0.name == "audio" }) {
                try db.execute(sql: "ALTER TABLE session ADD COLUMN audio TEXT")
            }
            if try !db.columns(in: "result").contains(where: { $0.name == "evidence" }) {
                try db.execute(sql: "ALTER TABLE result ADD COLUMN evidence TEXT")
            }
        }
        // A note sung again (a loop, a step back, a drill's next pass) is a result of its own, in its pass.
        migrator.registerMigration("every pass kept") { db in
            try db.execute(
                sql: """
                    CREATE TABLE result_by_pass (
                        session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE, pass INTEGER NOT NULL,
                        note TEXT NOT NULL, idx INTEGER NOT NULL, measure TEXT NOT NULL, verdict TEXT NOT NULL,
                        median_cents REAL, onset_error REAL, in_tune_pct REAL NOT NULL, evidence TEXT,
                        PRIMARY KEY (session, pass, idx));
                    INSERT INTO result_by_pass
                        SELECT session, 1, note, idx, measure, verdict, median_cents, onset_error, in_tune_pct, evidence
                        FROM result ORDER BY session, idx;
                    DROP TABLE result;
                    ALTER TABLE result_by_pass RENAME TO result;
                    """)
        }
        // What was practised: the piece's title, how (a take, a microphone, a drill), in which key, to which words
        // and which note of the line's chords. Each column is added only if missing, as a development build may
        // have added some of them already.
        migrator.registerMigration("title, kind, transposition, verse and divisi") { db in
            let existing = Set(try db.columns(in: "session").map(\.name))
            for (column, definition) in [
                ("title", "TEXT"), ("kind", "TEXT"), ("transpose", "INTEGER NOT NULL DEFAULT 0"),
                ("verse", "INTEGER NOT NULL DEFAULT 1"), ("lyrics", "TEXT"), ("divisi", "TEXT"),
            ] where !existing.contains(column) {
                try db.execute(sql: "ALTER TABLE session ADD COLUMN \(column) \(definition)")
            }
            try db.execute(sql: "UPDATE session SET kind = 'live' WHERE kind IS NULL AND audio IS NOT NULL")
        }
        // The singer's pencil marks (``PracticeMark``).
        migrator.registerMigration("practice marks") { db in
            try db.execute(
                sql: """
                    CREATE TABLE mark (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, score TEXT NOT NULL, line TEXT, measure TEXT NOT NULL,
                        text TEXT NOT NULL, created REAL NOT NULL)
                    """)
        }
        // Where an interrupted session stopped (``SessionReport/Interruption``).
        migrator.registerMigration("where an interrupted session stopped") { db in
            try db.execute(sql: "ALTER TABLE session ADD COLUMN stopped TEXT")
        }
        // Sessions and marks belong to the score itself, not to a file's name: its content's hash, with the path it
        // was at. Each stored path is looked for as it was given (from the folder choir is run in, where a relative
        // one was typed), else in the library; what cannot be found keeps its path alone, and is matched by it.
        migrator.registerMigration("sessions and marks keyed by their score's content") { db in
            for table in ["session", "mark"] {
                try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN score_hash TEXT")
                try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN score_path TEXT")
            }
            let library = try libraryFiles(db)
            let stored = try String.fetchAll(db, sql: "SELECT score FROM session UNION SELECT score FROM mark")
            for score in stored {
                let found = locate(score, library: library)
                for table in ["session", "mark"] {
                    try db.execute(
                        sql: "UPDATE \(table) SET score_hash = ?, score_path = ? WHERE score = ?",
                        arguments: [found.hash, found.path, score])
                }
            }
            try db.execute(sql: "CREATE INDEX session_score ON session(score_hash)")
        }
        // The singer's scores (``Library`` in ChoirLibrary), in the history's file so that sessions can be matched
        // to them by content.
        migrator.registerMigration("library") { db in
            try db.execute(
                sql: """
                    CREATE TABLE library (
                        path TEXT PRIMARY KEY, hash TEXT NOT NULL, size INTEGER NOT NULL, modified REAL NOT NULL,
                        title TEXT NOT NULL, entry TEXT NOT NULL, added REAL NOT NULL);
                    CREATE INDEX library_hash ON library(hash);
                    """)
        }
        // Rehearsal plans and their runs (``RehearsalPlans`` in ChoirLibrary).
        migrator.registerMigration("rehearsal plans") { db in
            try db.execute(
                sql: """
                    CREATE TABLE plan (name TEXT PRIMARY KEY COLLATE NOCASE, items TEXT NOT NULL, created REAL NOT NULL);
                    CREATE TABLE plan_run (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, plan TEXT NOT NULL COLLATE NOCASE, started REAL NOT NULL,
                        items TEXT NOT NULL, sessions TEXT NOT NULL, finished INTEGER NOT NULL DEFAULT 0);
                    """)
        }
        // Seconds a take was moved by to fit the score (``SessionReport/alignment``).
        migrator.registerMigration("how far a take was moved to fit the score") { db in
            try db.execute(sql: "ALTER TABLE session ADD COLUMN aligned REAL")
        }
        return migrator
    }

    /// The library's files and their contents' hashes, where the history's file holds a library.
    static func libraryFiles(_ db: Database) throws -> [(path: String, hash: String)] {
        guard try db.tableExists("library") else { return [] }
        return libraryFiles(try Row.fetchAll(db, sql: "SELECT path, hash FROM library"))
    }

    /// The files and hashes of the library's rows `rows` (read, or salvaged from a damaged history: a row without
    /// both is passed over).
    static func libraryFiles(_ rows: [Row]) -> [(path: String, hash: String)] {
        rows.compactMap { row in
            guard let path = String.fromDatabaseValue(row["path"]), let hash = String.fromDatabaseValue(row["hash"]) else { return nil }
            return (path, hash)
        }
    }

    /// Where a score stored as `score` (its path as given) is now, and its content's hash: the file itself if it
    /// is still there, else the library's entry of that path, or the one entry whose path ends as the stored one
    /// does; else no hash, and the path as it was given (from the root when it was).
    static func locate(_ score: String, library: [(path: String, hash: String)]) -> (hash: String?, path: String) {
        let absolute = ScoreIdentity.absolute(score)
        if let identity = try? ScoreIdentity(contentsOf: absolute) { return (identity.hash, identity.path) }
        if let entry = library.first(where: { $0.path == absolute }) { return (entry.hash, entry.path) }
        guard !score.hasPrefix("/") else { return (nil, absolute) }
        let typed = score.hasPrefix("./") ? String(score.dropFirst(2)) : score
        let ending = library.filter { $0.path.hasSuffix("/" + typed) }
        return ending.count == 1 ? (ending[0].hash, ending[0].path) : (nil, typed)
    }
}
