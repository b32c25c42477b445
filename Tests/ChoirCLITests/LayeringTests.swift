import Foundation
import Testing

/// The module map, read from the sources: lower modules never import higher ones, ChoirBase lies under every module,
/// and the front ends (the command line and its terminal, the browser view it serves, the real-time tests' session driver) reach audio
/// devices, the synthesizer, the pitch tracker and the database only through ChoirSession's and ChoirLibrary's APIs.
struct LayeringTests {
    /// Each module (a folder under `Sources`, C libraries aside) and the choir modules it may import besides
    /// ChoirBase, which every module may import.
    static let allowed: [String: Set<String>] = [
        // Small utilities (the lock, JSON, formatting, pitch arithmetic), below everything.
        "ChoirBase": [],
        // File names as bytes, and files written whole or not at all, below everything that opens a file.
        "ChoirFiles": [],
        "ChoirScore": ["ChoirFiles"],
        "ChoirAudio": ["ChoirFiles"],
        "ChoirPitch": [],
        "ChoirPlayback": ["ChoirScore", "ChoirAudio", "ChoirFiles"],
        "ChoirPractice": ["ChoirScore", "ChoirAudio", "ChoirFiles", "ChoirPitch", "ChoirPlayback"],
        // The engine's API for front ends; it runs the library's rehearsal plans, and says what kind of failure (as an exit
        // status) any module's error is.
        "ChoirSession": [
            "ChoirScore", "ChoirAudio", "ChoirFiles", "ChoirPitch", "ChoirPlayback", "ChoirPractice", "ChoirLibrary", "ChoirModel",
            "ChoirScan",
        ],
        // A scanned score's summary says what its scan doubted, and its entry which model made it.
        "ChoirLibrary": ["ChoirScore", "ChoirFiles", "ChoirPractice", "ChoirScan", "ChoirModel"],
        // The local server knows nothing of music.
        "ChoirServer": [],
        // The model's client knows nothing of music, nor the scan of sound.
        "ChoirModel": [],
        "ChoirScan": ["ChoirScore", "ChoirFiles", "ChoirModel"],
        // The front ends.
        // The studio lists, searches and adds to the library.
        "ChoirView": ["ChoirScore", "ChoirPractice", "ChoirSession", "ChoirLibrary", "ChoirServer"],
        // The terminal draws a session's events and reads its keys: it drives the engine through ChoirSession alone, and
        // reads the score's and the judge's values that the events carry.
        "ChoirTerminal": ["ChoirScore", "ChoirFiles", "ChoirPractice", "ChoirSession"],
        "choir": [
            "ChoirScore", "ChoirFiles", "ChoirPractice", "ChoirSession", "ChoirLibrary", "ChoirView", "ChoirTerminal", "ChoirModel",
            "ChoirScan",
        ],
        "session-driver": ["ChoirPractice", "ChoirSession"],
        // The tests' and benchmarks' tools.
        "ChoirTestSupport": ["ChoirScore", "ChoirAudio", "ChoirPitch", "ChoirPlayback", "ChoirPractice"],
        "choir-fuzz": ["ChoirScore", "ChoirAudio"],
        "take-singer": ["ChoirAudio"],
        "make-demo-take": ["ChoirScore", "ChoirAudio", "ChoirPlayback", "ChoirPractice", "ChoirTestSupport"],
        "judge-figures": ["ChoirPitch", "ChoirPractice", "ChoirTestSupport"],
    ]

    /// Pairs the map must never allow, however it grows: a front end touches no stream, device, synthesizer or
    /// tracker of its own.
    static let forbidden: [(module: String, imported: String)] = ["ChoirView", "ChoirTerminal", "choir", "session-driver"].flatMap {
        front in
        ["ChoirAudio", "ChoirPlayback", "ChoirPitch"].map { (front, $0) }
    }

    static func sources(of module: String) throws -> [(name: String, text: String)] {
        let directory = CLI.root.appendingPathComponent("Sources/\(module)")
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }.map {
            ($0, try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8))
        }
    }

    /// The choir modules that `text` imports.
    static func imports(in text: String) -> [String] {
        text.split(separator: "\n").filter { $0.hasPrefix("import Choir") || $0.hasPrefix("@testable import Choir") }
            .map { String($0.split(separator: " ").last!) }
    }

    @Test(arguments: allowed.keys.sorted())
    func importsOnlyLowerModules(module: String) throws {
        for (name, text) in try Self.sources(of: module) {
            for other in Self.imports(in: text) {
                #expect(other == "ChoirBase" || Self.allowed[module]!.contains(other), "\(module)/\(name) imports \(other)")
            }
        }
    }

    /// A module added under `Sources` gets its place on the map before anything may import it.
    @Test func everyModuleIsOnTheMap() throws {
        let modules = try FileManager.default.contentsOfDirectory(atPath: CLI.root.appendingPathComponent("Sources").path)
            .filter { !($0.first == "C" && $0.dropFirst().first?.isUppercase == true) && !$0.hasPrefix(".") }
        #expect(Set(modules) == Set(Self.allowed.keys))
        #expect(Self.allowed.values.allSatisfy { $0.isSubset(of: Set(Self.allowed.keys)) && !$0.contains("ChoirBase") })
    }

    @Test func theFrontEndsTouchNoStreamSynthesizerOrTracker() {
        for (module, imported) in Self.forbidden {
            #expect(!Self.allowed[module]!.contains(imported), "the map lets \(module) import \(imported)")
        }
    }

    /// Lower modules never import higher ones: the map has no cycle, so it orders the modules in layers.
    @Test func theMapHasLayers() {
        var placed: Set<String> = []
        while placed.count < Self.allowed.count {
            let next = Self.allowed.filter { !placed.contains($0.key) && $0.value.isSubset(of: placed) }.map(\.key)
            #expect(!next.isEmpty, "a cycle among \(Set(Self.allowed.keys).subtracting(placed).sorted())")
            if next.isEmpty { return }
            placed.formUnion(next)
        }
    }

    @Test(arguments: ["choir", "ChoirView", "ChoirTerminal", "session-driver"])
    func theFrontEndsTouchNoDeviceSynthesizerOrDatabase(module: String) throws {
        let forbidden = [
            "import ChoirAudio", "import GRDB", "ALSACapture", "ALSAPlayback", "SPSCRing", "SynthRenderer", "new_fluid", "fluid_",
            "snd_pcm", "sf_open", "DatabaseQueue", "sqlite3", "AudioFile", "PitchTrackers",
        ]
        for (name, text) in try Self.sources(of: module) {
            for word in forbidden { #expect(!text.contains(word), "\(module)/\(name) mentions \(word)") }
        }
    }
}
