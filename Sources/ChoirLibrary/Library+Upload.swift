import ChoirScore
import FoundationEssentials
import Glibc

extension Library {
    /// The folder scores brought to the studio are kept in when it was given none: `scores` beside the history at
    /// `history`.
    public static func defaultFolder(history: String) -> String {
        let folder = history.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return (folder.isEmpty ? "." : folder) + "/scores"
    }

    /// The studio's folder of scores, with its scores added as `choir library add` adds them (changed and moved files
    /// noticed): `folder`, which must be a folder (else a missing input), or ``defaultFolder(history:)``, made when it
    /// is not there yet. Returns the folder and what adding did, a score that cannot be read among it.
    public func add(folder: String?, history: String) throws -> (
        folder: String, changes: [(path: String, change: Result<Change, ScoreError>)]
    ) {
        if let folder, (try? FileManager.default.attributesOfItem(atPath: folder))?[.type] as? FileAttributeType != .typeDirectory {
            throw ScoreError(file: folder, message: "no such folder: expected a folder of scores", unreadable: true)
        }
        let folder = folder ?? Self.defaultFolder(history: history)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return (folder, try add(Self.scores(in: [folder])))
    }

    /// Files `bytes`, a score sent as `name` (a file name, without folders), in `folder` and adds it: read first
    /// under its own name, so that a score choir cannot read is refused with the reader's one-line error naming
    /// `name`, and nothing is written. A different file of that name already there is kept: the new one is filed
    /// as "name (2).musicxml"; the same bytes again are the file already there. Returns the file's path and what
    /// adding it did.
    public func add(upload bytes: [UInt8], named name: String, into folder: String) throws -> (path: String, change: Change) {
        let base = name.split(separator: "/").last.map(String.init) ?? ""
        guard !base.isEmpty, !base.hasPrefix("."), Self.isScore(base) else {
            throw ScoreError(file: name.isEmpty ? "the file" : name, message: "expected a score: a .musicxml, .xml or .mxl file")
        }
        _ = try ScoreReader.read(data: bytes, file: base)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let dot = base.lastIndex(of: ".")!
        var path = folder + "/" + base, copy = 1
        while let there = FileManager.default.contents(atPath: path), Array(there) != bytes {
            copy += 1
            path = folder + "/" + base[..<dot] + " (\(copy))" + base[dot...]
        }
        if !FileManager.default.fileExists(atPath: path) {
            // Written beside, then renamed: a studio stopped halfway leaves no half a score in the library's folder.
            let partial = folder + "/." + base + ".\(getpid()).partial"
            guard FileManager.default.createFile(atPath: partial, contents: Data(bytes)), rename(partial, path) == 0 else {
                try? FileManager.default.removeItem(atPath: partial)
                throw ScoreError(file: path, message: "cannot be written: \(String(cString: strerror(errno)))", unreadable: true)
            }
        }
        guard let added = try add([path]).first else { throw ScoreError(file: path, message: "was not added") }
        return (added.path, try added.change.get())
    }

    /// What the search that `choir library search` makes finds, listed: a line that names no line of any score
    /// but is near one throws ``Slip``.
    public func found(_ query: LibraryQuery) throws -> [Listed] {
        if let slip = query.slip(among: try entries()) { throw slip }
        return try listed(try search(query))
    }
}
