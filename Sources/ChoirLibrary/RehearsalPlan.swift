import ChoirBase
import ChoirFiles
import ChoirPractice
import ChoirScore
import FoundationEssentials
import TOMLKit

/// A rehearsal plan: a named, ordered list of what to practise (a concert's programme, a week's homework), run as
/// practice sessions one after another. It is kept in the history's database and written as a TOML file a person
/// can edit (``toml``, ``init(toml:file:)``).
public struct RehearsalPlan: Sendable, Equatable {
    public var name: String
    public var items: [Item]

    /// One thing to practise: a piece, the singer's line, a range of measures, a tempo, a key and how many times
    /// through.
    public struct Item: Sendable, Equatable, Codable {
        /// The score's path, or a title in the library.
        public var piece: String
        public var line: String
        /// First and last measures, by printed number; nil for the piece's start and end.
        public var from: String?
        public var to: String?
        /// The tempo in percent of the score's; nil as written.
        public var tempo: Double?
        /// Semitones to move the piece by.
        public var transpose: Int
        /// How many times through the range, one session.
        public var passes: Int
        /// What to remember when singing it ("start softly", "watch the conductor at m. 12"); nil for none.
        public var notes: String?

        public init(
            piece: String, line: String, from: String? = nil, to: String? = nil, tempo: Double? = nil, transpose: Int = 0, passes: Int = 1,
            notes: String? = nil
        ) {
            self.piece = piece
            self.line = line
            self.from = from
            self.to = to
            self.tempo = tempo
            self.transpose = transpose
            self.passes = passes
            self.notes = notes
        }

        /// "Amazing Grace — Tenor, mm. 6–12 at 80%, transposed down 2 semitones, 2 passes".
        public var summary: String {
            var details = [from == nil && to == nil ? "whole piece" : "mm. \(from ?? "start")–\(to ?? "end")"]
            if let tempo { details[0] += " at \(Self.number(tempo))%" }
            if let transposition = SessionReport.transposition(transpose) { details.append(transposition) }
            if passes > 1 { details.append("\(passes) passes") }
            return "\(title) — \(line), " + details.joined(separator: ", ")
        }

        /// What the piece is called (``Score/name(file:)``) when its file can be read; else the library title or the
        /// file's name it is given by.
        public var title: String {
            FileName.exists(piece) || piece.contains("/") ? ScoreReader.name(ofFile: piece) : piece
        }

        /// What a field may hold, as the TOML file and the command line check it.
        public static let tempos = 10.0...400.0, transpositions = -12...12, passCounts = 1...20

        /// Why the item cannot be run as it stands, or nil; the score itself is checked when it is run.
        var problem: String? {
            if piece.isEmpty { return "`piece` is empty: expected a score's path or a title in the library" }
            if line.isEmpty { return "`part` is empty: expected the line sung, e.g. \"Tenor\"" }
            if let tempo, !Self.tempos.contains(tempo) { return "`tempo` \(Self.number(tempo)): expected 10 to 400 (percent)" }
            if !Self.transpositions.contains(transpose) { return "`transpose` \(transpose): expected -12 to 12 (semitones)" }
            if !Self.passCounts.contains(passes) { return "`passes` \(passes): expected 1 to 20" }
            return nil
        }

        public static func number(_ value: Double) -> String { value == value.rounded() ? "\(Int(value))" : "\(value)" }
    }

    public init(name: String, items: [Item] = []) {
        self.name = name
        self.items = items
    }

    /// Moves the item at `index` to `destination` (both from 0), the others keeping their order.
    public mutating func move(item index: Int, to destination: Int) throws(RehearsalPlans.Problem) {
        try check(index, "item")
        try check(destination, "place")
        items.insert(items.remove(at: index), at: destination)
    }

    /// Sets the notes of the item at `index` (from 0); blank text removes them.
    public mutating func setNotes(_ text: String, item index: Int) throws(RehearsalPlans.Problem) {
        try check(index, "item")
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        items[index].notes = trimmed.isEmpty ? nil : trimmed
    }

    /// Removes the item at `index` (from 0) and returns it.
    public mutating func remove(item index: Int) throws(RehearsalPlans.Problem) -> Item {
        try check(index, "item")
        return items.remove(at: index)
    }

    private func check(_ index: Int, _ what: String) throws(RehearsalPlans.Problem) {
        guard !items.indices.contains(index) else { return }
        throw RehearsalPlans.Problem(
            description: "\(what) \(index + 1): '\(name)' has \(items.count) item\(items.count == 1 ? "" : "s"): expected "
                + (items.isEmpty ? "an item added first" : "1 to \(items.count)"))
    }

    /// A plan's file that cannot be read, with where and what was expected.
    public struct FileError: Error, CustomStringConvertible, Sendable {
        public var description: String
        /// Whether the file could not be read at all (rather than read and found wanting).
        public var unreadable = false

        public init(_ description: String, unreadable: Bool = false) {
            self.description = description
            self.unreadable = unreadable
        }
    }

    /// Reads the plan in the TOML file `file` (``init(toml:file:)``).
    public init(contentsOf file: String) throws(FileError) {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw FileError("\(file): cannot be read: expected a TOML file", unreadable: true)
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw FileError("\(file): is not UTF-8 text: expected a TOML file")
        }
        try self.init(toml: text, file: file)
    }

    /// The plan as a TOML file: its name, then an `[[item]]` table per item, optional fields only when set.
    public var toml: String {
        var out =
            "# A choir rehearsal plan. Edit it, then: choir plan import FILE --replace\n"
            + "# Each [[item]]: piece (a path or a library title), part, and optionally from, to (measure numbers),\n"
            + "# tempo (percent), transpose (semitones), passes and notes.\n"
            + "name = \(JSON.quoted(name))\n"
        for item in items {
            out += "\n[[item]]\npiece = \(JSON.quoted(item.piece))\npart = \(JSON.quoted(item.line))\n"
            if let from = item.from { out += "from = \(JSON.quoted(from))\n" }
            if let to = item.to { out += "to = \(JSON.quoted(to))\n" }
            if let tempo = item.tempo { out += "tempo = \(Item.number(tempo))\n" }
            if item.transpose != 0 { out += "transpose = \(item.transpose)\n" }
            out += "passes = \(item.passes)\n"
            if let notes = item.notes { out += "notes = \(JSON.quoted(notes))\n" }
        }
        return out
    }

    /// Reads a plan from the TOML `text` of `file`. A relative piece's path is taken from the file's folder, so that
    /// a plan travels with its scores.
    public init(toml text: String, file: String) throws(FileError) {
        func fail(_ message: String) -> FileError { FileError("\(file): \(message)") }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw FileError(
                "\(file):\(error.source.begin.line):\(error.source.begin.column): \(error.description): expected a TOML file")
        } catch {
            throw fail("\(error): expected a TOML file")
        }
        guard let name = table["name"]?.string, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw fail("expected `name = \"…\"` at the top: the plan's name")
        }
        for key in table.keys where !["name", "item"].contains(key) {
            throw fail(NearestName.unknown("key", key, among: ["name", "item"], expected: "`name` and `[[item]]` tables"))
        }
        // Where each [[item]] header is, to name its line in an error.
        let headers = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .filter { $0.element.trimmingCharacters(in: .whitespaces).hasPrefix("[[item]]") }.map { $0.offset + 1 }
        let tables: [TOMLTable]
        if let array = table["item"]?.array {
            tables = try array.enumerated().map { (index, value) throws(FileError) in
                guard let item = value.table else { throw fail("item \(index + 1) is not a table: expected `[[item]]` tables") }
                return item
            }
        } else if table["item"] == nil {
            tables = []
        } else {
            throw fail("`item` is not a list of tables: expected `[[item]]` tables")
        }
        let folder = file.contains("/") ? String(file[..<file.lastIndex(of: "/")!]) : "."
        var items: [Item] = []
        for (index, entry) in tables.enumerated() {
            let place = "item \(index + 1)" + (headers.count == tables.count ? " (line \(headers[index]))" : "")
            func text(_ key: String, required: Bool) throws(FileError) -> String? {
                guard let value = entry[key] else {
                    if required { throw fail("\(place): `\(key)` is missing: expected `\(key) = \"…\"`") }
                    return nil
                }
                // Measure numbers are text ("12a" is one) but a person writes 12.
                if let string = value.string { return string }
                if let number = value.int, key == "from" || key == "to" { return "\(number)" }
                throw fail("\(place): `\(key)` is \(value.type): expected a string")
            }
            func integer(_ key: String, default value: Int) throws(FileError) -> Int {
                guard let found = entry[key] else { return value }
                guard let number = found.int else { throw fail("\(place): `\(key)` is \(found.type): expected a whole number") }
                return number
            }
            // `part` as every command says it; `line` in files written before.
            let keys = ["piece", "part", "from", "to", "tempo", "transpose", "passes", "notes"]
            for key in entry.keys where !keys.contains(key) && key != "line" {
                throw fail(
                    "\(place): "
                        + NearestName.unknown("key", key, among: keys, expected: "piece, part, from, to, tempo, transpose, passes or notes")
                )
            }
            var piece = try text("piece", required: true)!
            if !piece.hasPrefix("/") && FileManager.default.fileExists(atPath: folder + "/" + piece) {
                piece = ScoreIdentity.absolute(folder + "/" + piece)
            }
            var tempo: Double?
            if let value = entry["tempo"] {
                guard let number = value.double ?? value.int.map(Double.init) else {
                    throw fail("\(place): `tempo` is \(value.type): expected a number (percent)")
                }
                tempo = number
            }
            var part = try text("part", required: entry["line"] == nil)
            if part == nil { part = try text("line", required: true) }
            let item = Item(
                piece: piece, line: part!, from: try text("from", required: false),
                to: try text("to", required: false), tempo: tempo, transpose: try integer("transpose", default: 0),
                passes: try integer("passes", default: 1), notes: try text("notes", required: false))
            if let problem = item.problem { throw fail("\(place): \(problem)") }
            items.append(item)
        }
        self.init(name: name, items: items)
    }
}
