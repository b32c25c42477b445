import ChoirFiles
import Dispatch
import FoundationEssentials
import Synchronization

/// Opens MusicXML (`.musicxml`, `.xml`) and compressed MusicXML (`.mxl`) files.
public enum ScoreReader {
    /// The most a compressed entry may expand to; beyond it the file is refused as a zip bomb.
    public static let maximumExpandedSize = 256 * 1024 * 1024

    /// Reads the score at `path`. A zip archive is read as `.mxl` whatever its extension.
    public static func read(contentsOf path: String) throws(ScoreError) -> Score {
        try read(data: try contents(of: path), file: path)
    }

    /// Reads the score at `path`, with its file's identity (its content's hash, where it is and what it holds).
    public static func identified(contentsOf path: String) throws(ScoreError) -> (score: Score, identity: ScoreIdentity) {
        let bytes = try contents(of: path)
        let score = try read(data: bytes, file: path)
        var identity = ScoreIdentity(path: path, bytes: bytes)
        identity.piece = ScoreIdentity.Piece(score, file: path)
        return (score, identity)
    }

    /// The identity of the score file at `path`, with the piece it holds when it reads (so that a moved or renamed
    /// file keeps its sessions), else its bytes' alone.
    public static func identity(ofFile path: String) throws(ScoreError) -> ScoreIdentity {
        if let read = try? identified(contentsOf: path) { return read.identity }
        return try ScoreIdentity(contentsOf: path)
    }

    /// What the piece at `path` is called (``Score/name(file:)``); its file's name when it cannot be read.
    public static func name(ofFile path: String) -> String {
        (try? read(contentsOf: path))?.name(file: path) ?? Score.fileName(path)
    }

    /// `work` on each of `paths`, two files at a time (the machines choir targets have two cores or more), in the
    /// order given: for reading many scores, as `choir info` and the library do.
    public static func each<T: Sendable>(of paths: [String], _ work: @Sendable (String) -> T) -> [T] {
        let results = Mutex([T?](repeating: nil, count: paths.count))
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: min(2, paths.count)) { _ in
            while case let index = next.add(1, ordering: .relaxed).oldValue, index < paths.count {
                let result = work(paths[index])
                results.withLock { $0[index] = result }
            }
        }
        return results.withLock { $0.map { $0! } }
    }

    /// The bytes of the file at `path`, or the error that says it is missing or unreadable.
    public static func contents(of path: String) throws(ScoreError) -> [UInt8] {
        guard let bytes = FileName.contents(path) else {
            let reason = FileName.exists(path) ? "cannot be read" : "no such file" + nearest(path)
            throw ScoreError(file: path, message: "\(reason): expected a MusicXML (.musicxml, .xml) or .mxl file", unreadable: true)
        }
        return bytes
    }

    /// " (did you mean 'a/hymn.musicxml'?)": the score in the same folder whose name is nearest `path`'s.
    private static func nearest(_ path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let scores = (FileName.names(in: folder.isEmpty ? "." : folder) ?? []).filter { file in
            [".musicxml", ".xml", ".mxl"].contains { file.lowercased().hasSuffix($0) }
        }
        return NearestName.to(name, among: scores).map { " (did you mean '\(folder + $0)'?)" } ?? ""
    }

    /// Reads a score from the bytes of a file: compressed MusicXML when they are a zip archive, MusicXML
    /// otherwise. `file` names it in errors.
    public static func read(data: [UInt8], file: String) throws(ScoreError) -> Score {
        let (document, name) = try document(data: data, file: file)
        return try parse(utf8: document, file: name)
    }

    /// The MusicXML document in the bytes of a file (its rootfile, when they are a compressed archive), as UTF-8,
    /// and the name errors give it: for another reader to engrave the same notes.
    public static func document(data: [UInt8], file: String) throws(ScoreError) -> (utf8: [UInt8], name: String) {
        guard !data.isEmpty else {
            throw ScoreError(file: file, message: "empty file: expected a MusicXML document")
        }
        var document = data, name = file
        if data.starts(with: [0x50, 0x4B, 0x03, 0x04]) || data.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
            let (rootfile, entry) = try extractRootfile(data, path: file)
            (document, name) = (rootfile, "\(file)!\(entry)")
        } else if file.lowercased().hasSuffix(".mxl") {
            throw ScoreError(file: file, message: "not a zip archive: expected a compressed MusicXML (.mxl) file")
        }
        do {
            return (try XMLTokenizer.utf8(from: document), name)
        } catch {
            throw ScoreError(file: name, document: document, offset: error.offset, message: error.message)
        }
    }

    /// Reads a MusicXML document from its bytes; `file` names it in errors.
    public static func read(document data: [UInt8], file: String) throws(ScoreError) -> Score {
        let utf8: [UInt8]
        do {
            utf8 = try XMLTokenizer.utf8(from: data)
        } catch {
            throw ScoreError(file: file, document: data, offset: error.offset, message: error.message)
        }
        return try parse(utf8: utf8, file: file)
    }

    private static func parse(utf8: [UInt8], file: String) throws(ScoreError) -> Score {
        do {
            return try MusicXMLReader().read(utf8: utf8)
        } catch {
            throw ScoreError(file: file, document: utf8, offset: error.offset, message: error.message)
        }
    }

    /// The bytes of the first rootfile named in `META-INF/container.xml`, and its name.
    private static func extractRootfile(_ data: [UInt8], path: String) throws(ScoreError) -> ([UInt8], String) {
        func unzip<T>(_ body: () throws(ZipArchive.Failure) -> T) throws(ScoreError) -> T {
            do {
                return try body()
            } catch {
                switch error {
                case .notAZip:
                    throw ScoreError(file: path, message: "not a zip archive: expected a compressed MusicXML (.mxl) file")
                case .corrupt(let what): throw ScoreError(file: path, message: "corrupt zip archive: \(what)")
                case .unsupported(let what): throw ScoreError(file: path, message: "unsupported zip feature: \(what)")
                case .tooLarge:
                    throw ScoreError(
                        file: path,
                        message: "an entry expands to more than \(maximumExpandedSize / 1024 / 1024) MB: refused as a zip bomb")
                }
            }
        }
        let archive = try unzip { () throws(ZipArchive.Failure) in try ZipArchive(data) }
        let containerName = "META-INF/container.xml"
        guard let container = archive[containerName] else {
            throw ScoreError(file: path, message: "no \(containerName): expected a compressed MusicXML (.mxl) file")
        }
        let containerFile = "\(path)!\(containerName)"
        let containerXML = try unzip { () throws(ZipArchive.Failure) in
            try archive.extract(container, limit: maximumExpandedSize)
        }
        guard let rootName = try rootfilePath(containerXML, file: containerFile) else {
            throw ScoreError(file: containerFile, message: "no <rootfile full-path=...>: expected the score's path")
        }
        guard let root = archive[rootName] else {
            throw ScoreError(file: path, message: "the rootfile '\(rootName)' named in \(containerName) is not in the archive")
        }
        return (try unzip { () throws(ZipArchive.Failure) in try archive.extract(root, limit: maximumExpandedSize) }, rootName)
    }

    private static func rootfilePath(_ data: [UInt8], file: String) throws(ScoreError) -> String? {
        do {
            let xml = XMLTokenizer(utf8: try XMLTokenizer.utf8(from: data))
            while true {
                switch try xml.next() {
                case .start where xml.name == "rootfile":
                    if let path = xml.attribute("full-path"), !path.isEmpty { return path }
                case .endOfDocument: return nil
                default: continue
                }
            }
        } catch {
            throw ScoreError(file: file, document: data, offset: error.offset, message: error.message)
        }
    }
}
