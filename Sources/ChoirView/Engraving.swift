import ChoirBase
import ChoirScore
import ChoirSession
import Foundation

/// A score as Verovio engraves it: SVG pages, and each measure and sounding note with its element's id there.
///
/// Verovio (RISM's engraver, from its Python wheel) reads the same MusicXML document choir reads, lays it out in
/// SVG whose elements keep their ids, and gives each note's onset in quarter notes: enough to tie the engraved
/// notes to the score model's without a second reader of choir's own. LilyPond lays out more finely but gives no
/// ids or time map to follow a session with.
public struct Engraving: Codable, Sendable, Equatable {
    /// The engraver's version: a cached engraving from another version is engraved again.
    public var verovio: String
    /// One SVG document per page.
    public var pages: [String]
    /// The written measures, in the score's order.
    public var measures: [Measure]
    /// Every sounding note (tied continuations and grace notes left out).
    public var notes: [Note]

    public struct Measure: Codable, Sendable, Equatable {
        public var id: String
        public var number: String
        /// From 1.
        public var page: Int
    }

    public struct Note: Codable, Sendable, Equatable {
        public var id: String
        /// Verovio's staff, counted down the system from 1, and the layer (voice) on it.
        public var staff: Int
        public var layer: Int
        /// Index into the written measures.
        public var measure: Int
        /// Quarter notes from the score's start, as written (repeats not unfolded).
        public var quarter: Double
        /// Sounding MIDI number, transposition included.
        public var midi: Int
        public var page: Int
    }

    /// A page's size in CSS pixels, to engrave the score to fill a window's notation pane: the staves keep their
    /// size, and a wider page fits more measures in a system.
    public struct PageSize: Hashable, Sendable {
        public var width: Int
        public var height: Int

        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }

        /// The widths and heights the engraver takes: from a phone's to a wall screen's.
        public static let widths = 300...4000, heights = 200...4000
    }

    /// Engraves the score at `path`, `transpose` semitones from its written key, in pages of `page`'s size (nil:
    /// portrait pages in A4's proportions, 750 px wide), or reads the engraving cached in `cache` (a folder) from an
    /// earlier run. Given `parts` (MusicXML part ids), those parts alone.
    public static func of(
        score path: String, transpose: Int, page: PageSize? = nil, parts: [String]? = nil, cache: String? = Engraving.defaultCache
    ) throws(SessionError) -> Engraving {
        let document: [UInt8]
        do {
            document = try ScoreReader.document(data: ScoreReader.contents(of: path), file: path).utf8
        } catch {
            throw SessionError(error.unreadable ? .missing : .input, "\(error)")
        }
        let key = cacheKey(document, transpose: transpose, page: page, parts: parts)
        let cached = cache.map { "\($0)/\(key).json" }
        if let cached, let data = FileManager.default.contents(atPath: cached),
            let engraving = try? JSONDecoder().decode(Engraving.self, from: data), !engraving.pages.isEmpty
        {
            return engraving
        }
        let engraving = try engrave(document, file: path, transpose: transpose, page: page, parts: parts)
        if let cache, let cached, let data = try? JSONEncoder().encode(engraving) {
            // A cache that cannot be written costs the next run an engraving, nothing more.
            try? FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
            try? data.write(to: URL(fileURLWithPath: cached), options: .atomic)
        }
        return engraving
    }

    /// `$XDG_CACHE_HOME/choir/engravings`, else under `~/.cache`.
    public static var defaultCache: String? {
        let environment = ProcessInfo.processInfo.environment
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return "\(cache)/choir/engravings" }
        return environment["HOME"].map { "\($0)/.cache/choir/engravings" }
    }

    /// The document, the transposition, the page's size and the layout, hashed (FNV-1a, 64 bits): a changed score
    /// is a new key.
    static func cacheKey(_ document: [UInt8], transpose: Int, page: PageSize? = nil, parts: [String]? = nil) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let size = page.map { " \($0.width)x\($0.height)" } ?? ""
        let only = parts.map { " only " + $0.joined(separator: " ") } ?? ""
        for byte in document + Array("\(transpose) \(layoutVersion)\(size)\(only)".utf8) {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    /// Bumped whenever `engrave.py` lays pages out differently.
    static let layoutVersion = 3

    private static func engrave(_ document: [UInt8], file: String, transpose: Int, page: PageSize?, parts: [String]?)
        throws(SessionError) -> Engraving
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("choir-engrave-\(getpid())-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let request = folder.appendingPathComponent("request.json"), output = folder.appendingPathComponent("engraving.json")
        let errors = folder.appendingPathComponent("errors.txt")
        let python = Process()
        let script = try ViewAssets.text("engrave.py")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let body = JSON.object([
                ("document", .string(String(decoding: document, as: UTF8.self))), ("transpose", .int(transpose)),
                ("width", page.map { .int($0.width) } ?? .null), ("height", page.map { .int($0.height) } ?? .null),
                ("parts", parts.map { .array($0.map(JSON.string)) } ?? .null),
            ])
            try Data(body.serialized().utf8).write(to: request)
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            // At low priority: a tab laid out anew while the music plays must not take the processor from the
            // sound server's client thread, which runs at normal priority (one underrun in a rehearsal on two cores).
            python.executableURL = URL(fileURLWithPath: "/usr/bin/nice")
            python.arguments = ["-n", "10", "python3", "-c", script, request.path]
            python.standardInput = FileHandle.nullDevice
            python.standardOutput = try FileHandle(forWritingTo: output)
            python.standardError = try FileHandle(forWritingTo: errors)
            try python.run()
        } catch {
            throw SessionError(.deviceUnavailable, "the score view needs Python 3 to run Verovio: \(error)")
        }
        python.waitUntilExit()
        let said = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        guard python.terminationStatus == 0 else {
            if said.contains("No module named 'verovio'") || python.terminationStatus == 127 {
                throw SessionError(
                    .deviceUnavailable, "the score view engraves with Verovio: expected its Python module (pip install verovio)")
            }
            let reason = said.split(separator: "\n").last.map(String.init) ?? "exit status \(python.terminationStatus)"
            throw SessionError(.input, "\(file): Verovio could not engrave it: \(reason)")
        }
        do {
            return try JSONDecoder().decode(Engraving.self, from: Data(contentsOf: output))
        } catch {
            throw SessionError(.input, "\(file): Verovio's engraving could not be read: \(error)")
        }
    }
}
