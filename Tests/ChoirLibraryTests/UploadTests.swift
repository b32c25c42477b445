import ChoirScore
import Foundation
import Testing

@testable import ChoirLibrary

/// Scores brought to the studio: read under their own names before anything is written, filed without losing a
/// file already there.
struct UploadTests {
    static func library() throws -> (Library, folder: String) {
        let home = NSTemporaryDirectory() + "choir-upload-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        return (try Library(path: home + "/history.sqlite"), Library.defaultFolder(history: home + "/history.sqlite"))
    }

    @Test func aScoreIsFiledAndAddedOnceAndAnotherOfTheSameNameBeside() throws {
        let (library, folder) = try Self.library()
        #expect(folder.hasSuffix("/scores"))
        let duet = Array(LibraryTests.duet.utf8)
        let first = try library.add(upload: duet, named: "duet.musicxml", into: folder)
        #expect(first.path == folder + "/duet.musicxml" && first.change == .added)
        #expect(try library.entries().map(\.title) == ["Duet in G minor"])
        // The same bytes again: the same file, unchanged.
        let again = try library.add(upload: duet, named: "duet.musicxml", into: folder)
        #expect(again.path == first.path && again.change == .unchanged)
        // Other bytes under that name: filed beside, the first kept.
        let other = Array(LibraryTests.duet.replacingOccurrences(of: "Duet in G minor", with: "Second duet").utf8)
        let second = try library.add(upload: other, named: "duet.musicxml", into: folder)
        #expect(second.path == folder + "/duet (2).musicxml" && second.change == .added)
        #expect(FileManager.default.contents(atPath: first.path).map(Array.init) == duet)
        #expect(try library.entries().map(\.title) == ["Duet in G minor", "Second duet"])
    }

    @Test func whatIsNotAScoreIsRefusedInTheReadersWordsAndNothingIsWritten() throws {
        let (library, folder) = try Self.library()
        let broken = #expect(throws: ScoreError.self) {
            try library.add(upload: Array("<score-partwise><part-list>".utf8), named: "broken.musicxml", into: folder)
        }
        #expect(broken?.description == "broken.musicxml:1:28: unexpected end of file: expected </part-list>")
        let notes = #expect(throws: ScoreError.self) { try library.add(upload: [1, 2], named: "notes.txt", into: folder) }
        #expect(notes?.description == "notes.txt: expected a score: a .musicxml, .xml or .mxl file")
        let hidden = #expect(throws: ScoreError.self) {
            try library.add(upload: Array(LibraryTests.duet.utf8), named: "../.duet.musicxml", into: folder)
        }
        #expect(hidden?.description == "../.duet.musicxml: expected a score: a .musicxml, .xml or .mxl file")
        #expect(!FileManager.default.fileExists(atPath: folder))
        #expect(try library.entries().isEmpty)
    }

    /// The studio's folder: made when it is the default and not there yet, its scores added (one that cannot be read
    /// among what adding did); a folder named that is not one is a missing input, and nothing is made.
    @Test func theStudiosFolderIsMadeOrMustBeOne() throws {
        let (library, folder) = try Self.library()
        let history = folder.replacingOccurrences(of: "/scores", with: "/history.sqlite")
        let made = try library.add(folder: nil, history: history)
        #expect(made.folder == folder && made.changes.isEmpty)
        try LibraryTests.duet.write(toFile: folder + "/duet.musicxml", atomically: true, encoding: .utf8)
        try "<score-partwise>".write(toFile: folder + "/broken.musicxml", atomically: true, encoding: .utf8)
        let added = try library.add(folder: folder, history: history)
        #expect(added.folder == folder)
        #expect(added.changes.map { ($0.path as NSString).lastPathComponent }.sorted() == ["broken.musicxml", "duet.musicxml"])
        #expect(added.changes.filter { (try? $0.change.get()) == .added }.count == 1)
        #expect(try library.entries().map(\.title) == ["Duet in G minor"])
        let nowhere = #expect(throws: ScoreError.self) { try library.add(folder: folder + "/nowhere", history: history) }
        #expect(nowhere?.description == folder + "/nowhere: no such folder: expected a folder of scores")
        #expect(nowhere?.unreadable == true)
        #expect(!FileManager.default.fileExists(atPath: folder + "/nowhere"))
        // A file is not a folder.
        #expect(throws: ScoreError.self) { try library.add(folder: folder + "/duet.musicxml", history: history) }
    }
}
