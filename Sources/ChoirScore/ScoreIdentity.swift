import ChoirFiles

/// A score file as the history and the library know it: the hash of its content, which stays with it when it
/// moves or is renamed, and the path it was last seen at, which tells an edited file apart from a new one.
public struct ScoreIdentity: Sendable, Equatable, Hashable, Codable {
    /// The content's 64-bit FNV-1a hash, in hex.
    public var hash: String
    /// Where the file was, from the root (``absolute(_:)``).
    public var path: String
    /// What the file holds, when it was read: what tells an edit of the piece at a path from another piece saved
    /// over it. Not part of the identity itself (neither stored nor compared).
    public var piece: Piece?

    /// A piece as the history keeps it beside a session: its name (``Score/name(file:)``) and its lines' names.
    public struct Piece: Sendable, Hashable {
        public var name: String
        public var lines: [String]

        public init(name: String, lines: [String]) {
            self.name = name
            self.lines = lines
        }

        /// The piece of `score`, read from `path`.
        public init(_ score: Score, file path: String) {
            self.init(name: score.name(file: path), lines: score.lines.map(\.name))
        }
    }

    private enum CodingKeys: String, CodingKey { case hash, path }

    public static func == (a: Self, b: Self) -> Bool { a.hash == b.hash && a.path == b.path }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
        hasher.combine(path)
    }

    public init(hash: String, path: String) {
        self.hash = hash
        self.path = path
    }

    /// The identity of the file at `path` whose content is `bytes`.
    public init(path: String, bytes: [UInt8]) {
        self.init(hash: Self.hash(bytes), path: Self.absolute(path))
    }

    /// The identity of the file at `path`, read.
    public init(contentsOf path: String) throws(ScoreError) {
        self.init(path: path, bytes: try ScoreReader.contents(of: path))
    }

    /// Whether something stored under `hash` (nil when its file could not be found to hash) and `path`, of the
    /// piece named `name` and of `lines` (each when known), is of this score: the same content wherever it is; or,
    /// the content having changed since (the file was edited), the same path; or, for what was stored without a
    /// hash under the relative path it was typed as, a path that ends so. A path counts only while the piece at it
    /// (``piece``, when read) still has that name and those lines: an edit keeps its history, another piece saved
    /// over the file starts its own.
    public func holds(hash: String?, path: String, name: String? = nil, lines: [String] = []) -> Bool {
        if let hash, hash == self.hash { return true }
        guard path == self.path || hash == nil && !path.hasPrefix("/") && self.path.hasSuffix("/" + path) else { return false }
        guard let piece else { return true }
        return (name.map { $0 == piece.name } ?? true)
            && lines.allSatisfy { line in piece.lines.contains { $0.lowercased() == line.lowercased() } }
    }

    /// The bytes' 64-bit FNV-1a hash, in hex.
    public static func hash(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// `path` from the root, without "." and ".." steps: "a/./b" and "a/x/../b" are "a/b", one file.
    public static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : (FileName.currentFolder ?? "") + "/" + path
        var parts: [Substring] = []
        for part in full.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                _ = parts.popLast()
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `path` as a person in the current folder would type it: below the folder, from it; else from the root.
    public static func shown(_ path: String) -> String {
        let here = absolute(".")
        return path.hasPrefix(here + "/") ? String(path.dropFirst(here.count + 1)) : path
    }
}
