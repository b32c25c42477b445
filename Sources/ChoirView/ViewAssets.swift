import ChoirServer
import ChoirSession
import Foundation

/// The view's files that are not Swift, kept under `Resources/View` where editors and linters read them as what
/// they are: the page (`view.html`, `view.css`, `view.js`, all from choir: no fonts, scripts or styles from elsewhere,
/// so it works offline) and the engraving's script (`engrave.py`).
///
/// SwiftPM copies them into `choir_ChoirView.resources`, beside the program it builds; `just install` installs that
/// folder beside the installed program. They are looked for there and nowhere else (not through `Bundle.module`,
/// whose fallback is the build folder's absolute path and which stops the program when the folder is missing), so
/// an installed choir never reads a build folder's page and a missing file is an error, not a crash.
enum ViewAssets {
    /// The folder SwiftPM gives ChoirView's resources.
    static let bundle = "choir_ChoirView.resources"

    /// Where the running program's assets are: its folder (symbolic links resolved, so a link to choir from
    /// elsewhere finds them), then `bundle`, then `View`, the folder copied from `Resources`.
    static var folder: String {
        let program = Bundle.main.executableURL?.resolvingSymlinksInPath() ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return program.deletingLastPathComponent().appendingPathComponent(bundle).appendingPathComponent("View").path
    }

    /// The text of the asset `name` in `folder`.
    static func text(_ name: String, in folder: String = folder) throws(SessionError) -> String {
        let path = "\(folder)/\(name)"
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw SessionError(.missing, "\(path): missing or unreadable: expected the score view's \(name), installed beside choir")
        }
        return text
    }
}

extension Router {
    /// Serves the asset `page` at `prefix` and each of `files` at `prefix` followed by its name, typed by their
    /// extensions; each read once, here, so that a missing file stops the server before it serves anything.
    mutating func serve(page: String, files: [String], at prefix: String = "") throws(SessionError) {
        get(prefix, Self.text(try ViewAssets.text(page), type: Self.type(of: page)))
        for name in files { get(prefix + name, Self.text(try ViewAssets.text(name), type: Self.type(of: name))) }
    }

    /// Answers with `text`, as `type`.
    static func text(_ text: String, type: String) -> Handler {
        { _ in HTTPResponse(contentType: type, body: Array(text.utf8)) }
    }

    private static func type(of name: String) -> String {
        switch name.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}
