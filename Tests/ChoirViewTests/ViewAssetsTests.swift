import ChoirSession
import Foundation
import Testing

@testable import ChoirView

/// The page and the engraving's script, read at run time from the resources SwiftPM copies beside the program
/// (here the test bundle, which is built into the same folder as choir).
struct ViewAssetsTests {
    /// Each file under `Resources/View` is what the built program reads, byte for byte.
    @Test(arguments: ["view.html", "view.css", "view.js", "engrave.py", "studio.html", "studio.css", "studio.js"])
    func theProgramReadsTheFilesUnderResources(name: String) throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Resources/View/\(name)")
        let read = try ViewAssets.text(name)
        #expect(read == (try String(contentsOf: source, encoding: .utf8)))
        #expect(ViewAssets.folder.hasSuffix("/choir_ChoirView.resources/View"))
    }

    /// The page asks for the style and the script by the paths the server answers.
    @Test func thePageLinksWhatTheServerServes() throws {
        let page = try ViewAssets.text("view.html")
        #expect(page.contains(#"<link rel="stylesheet" href="view.css">"#))
        #expect(page.contains(#"<script src="view.js"></script>"#))
    }

    /// A missing file is a one-line error naming it, of the kind a missing input is (exit status 66), not a crash.
    @Test func aMissingAssetIsAOneLineError() throws {
        let folder = NSTemporaryDirectory() + "choir-no-assets-\(UUID().uuidString)"
        let error = #expect(throws: SessionError.self) { try ViewAssets.text("view.js", in: folder) }
        #expect(error?.kind == .missing)
        #expect(error?.message == "\(folder)/view.js: missing or unreadable: expected the score view's view.js, installed beside choir")
    }
}
