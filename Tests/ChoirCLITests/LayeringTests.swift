import Foundation
import Testing

/// The modules' layering, read from the sources: lower modules never import higher ones, and the command line (with
/// the browser view it serves) is a front end that reaches audio devices, the synthesizer and the database only through ChoirSession's and
/// ChoirLibrary's APIs.
struct LayeringTests {
    /// Each module and the choir modules it may import.
    static let allowed: [String: Set<String>] = [
        // File names as bytes, below everything that opens a file.
        "ChoirFiles": [],
        "ChoirScore": ["ChoirFiles"],
        "ChoirAudio": ["ChoirFiles"],
        "ChoirPitch": [],
        // The local server knows nothing of music.
        "ChoirServer": [],
        // The model's client knows nothing of music; the scan writes its file through ChoirAudio's ReplacingFile.
        "ChoirModel": [],
        "ChoirScan": ["ChoirScore", "ChoirAudio", "ChoirFiles", "ChoirModel"],
        // The browser view is a front end on ChoirSession's API, as the command line is.
        "ChoirView": ["ChoirScore", "ChoirAudio", "ChoirPlayback", "ChoirPractice", "ChoirSession", "ChoirServer"],
        "choir": [
            "ChoirScore", "ChoirPlayback", "ChoirPitch", "ChoirPractice", "ChoirSession", "ChoirLibrary", "ChoirView", "ChoirFiles",
            "ChoirModel", "ChoirScan",
        ],
    ]

    static func sources(of module: String) throws -> [(name: String, text: String)] {
        let directory = CLI.root.appendingPathComponent("Sources/\(module)")
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }.map {
            ($0, try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8))
        }
    }

    @Test(arguments: allowed.keys.sorted())
    func importsOnlyLowerModules(module: String) throws {
        for (name, text) in try Self.sources(of: module) {
            let imported = text.split(separator: "\n").filter { $0.hasPrefix("import Choir") || $0.hasPrefix("@testable import Choir") }
                .map { String($0.split(separator: " ").last!) }
            for other in imported {
                #expect(Self.allowed[module]!.contains(other), "\(module)/\(name) imports \(other)")
            }
        }
    }

    @Test func theCommandLineTouchesNoDeviceSynthesizerOrDatabase() throws {
        let forbidden = [
            "import ChoirAudio", "import GRDB", "ALSACapture", "ALSAPlayback", "SPSCRing", "SynthRenderer", "new_fluid", "fluid_",
            "snd_pcm", "DatabaseQueue", "sqlite3", "WAVFile", "WAVWriter",
        ]
        for (name, text) in try Self.sources(of: "choir") {
            for word in forbidden { #expect(!text.contains(word), "choir/\(name) mentions \(word)") }
        }
    }
}
