import ChoirScore
import FoundationEssentials

/// What the library knows of one score: enough to list and search it without reading it again.
public struct LibraryEntry: Codable, Sendable, Equatable {
    /// A line and its range, as MIDI notes.
    public struct LineRange: Codable, Sendable, Equatable {
        public var name: String
        /// The choir voice of a sung line ("S", "A", "T" or "B"); nil for an instrument.
        public var voice: String?
        public var lowest: Int
        public var highest: Int
    }

    public var path: String
    /// The file's content hash (``ScoreIdentity/hash(_:)``): how a moved or changed file is recognised.
    public var hash: String
    public var title: String
    public var composer: String?
    /// The sung lines' voices, highest first: "SATB", "SSAA", "SSATB"; empty for instruments alone.
    public var voicing: String
    /// The lines that are not sung (a piano, a horn), by name.
    public var accompaniment: [String]
    /// The key at the start, "G major", and its signature (sharps positive, flats negative), which spells the
    /// ranges.
    public var key: String
    public var fifths: Int
    public var measures: Int
    /// Played through, repeats unfolded, at the marked tempo.
    public var seconds: Double
    public var lines: [LineRange]
    /// What choir made the score from, when it made it (`choir scan`); nil for a score the singer brought.
    public var source: Source?

    /// The pages a scanned score was read from, and by what.
    public struct Source: Codable, Sendable, Equatable {
        /// The page files, from the root, in order (a PDF once, for all its pages).
        public var pages: [String]
        /// Which model, where and when: "by google/gemini-2.5-pro at openrouter.ai on 2025-06-01".
        public var made: String

        public init(pages: [String], made: String) {
            self.pages = pages
            self.made = made
        }
    }

    /// The entry for `score`, read from `path` whose bytes hash to `hash`, named as every command names it
    /// (``Score/name(file:)``).
    public init(score: Score, path: String, hash: String) {
        self.path = path
        self.hash = hash
        title = score.name(file: path)
        composer = score.composer
        let lines = score.lines
        let voices = lines.map { $0.sungVoice(in: score) }
        self.lines = zip(lines, voices).compactMap { line, voice in
            guard let lowest = line.lowest, let highest = line.highest else { return nil }
            return LineRange(name: line.name, voice: voice?.rawValue, lowest: lowest.midi, highest: highest.midi)
        }
        voicing = voices.compactMap { $0 }.sorted().map(\.rawValue).joined()
        accompaniment = zip(lines, voices).filter { $0.1 == nil && !$0.0.notes.isEmpty }.map(\.0.name)
        key = score.measures.first?.key.description ?? "C major"
        fifths = score.measures.first?.key.fifths ?? 0
        measures = score.measures.count
        seconds = Timeline(score).seconds
    }
}
