import ChoirPractice
import Foundation
import Testing

@testable import ChoirLibrary

/// What `choir history --recover` (or any front end) may recover from: a file that is there and is not the history
/// itself.
struct HistoryRecoveryTests {
    @Test func aMissingFileAndTheHistoryItselfAreRefused() throws {
        let folder = NSTemporaryDirectory() + "choir-recover-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let history = try PracticeHistory(path: folder + "/history.sqlite")
        func failure(_ file: String) -> PracticeHistory.Failure? {
            do {
                _ = try HistoryRecovery.recover(from: file, into: history)
                return nil
            } catch { return error }
        }
        let missing = try #require(failure(folder + "/gone.sqlite"))
        #expect(missing.kind == .missing)
        #expect("\(missing)" == "\(folder)/gone.sqlite: no such file: expected a damaged history that choir set aside")
        // The history by another name (through a symbolic link, and a path with a dot in it) is still the history.
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.sqlite", withDestinationPath: folder + "/history.sqlite")
        for name in [folder + "/link.sqlite", folder + "/./history.sqlite"] {
            let current = try #require(failure(name))
            #expect(current.kind == .current)
            #expect("\(current)" == "\(name): this is the current history: expected a damaged one that choir set aside")
        }
    }
}
