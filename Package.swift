// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "choir",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "choir", targets: ["choir"]),
        .library(name: "ChoirScore", targets: ["ChoirScore"]),
        .library(name: "ChoirAudio", targets: ["ChoirAudio"]),
        .library(name: "ChoirPlayback", targets: ["ChoirPlayback"]),
        .library(name: "ChoirPitch", targets: ["ChoirPitch"]),
        .library(name: "ChoirPractice", targets: ["ChoirPractice"]),
        // The practice engine for front ends: plans, sessions, snapshots, transport, history, calibration.
        .library(name: "ChoirSession", targets: ["ChoirSession"]),
        .library(name: "ChoirLibrary", targets: ["ChoirLibrary"]),
        // The browser view: the engraved score (Verovio), served on loopback, in step with a session.
        .library(name: "ChoirView", targets: ["ChoirView"]),
        // Singers with planted mistakes and the rest of what the tests and benchmarks judge choir with; no part
        // of the engine.
        .library(name: "ChoirTestSupport", targets: ["ChoirTestSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CFluidSynth", pkgConfig: "fluidsynth",
            providers: [.apt(["libfluidsynth-dev"]), .brew(["fluid-synth"])]),
        .systemLibrary(
            name: "CALSA", pkgConfig: "alsa",
            providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(
            name: "CFFTW", pkgConfig: "fftw3f",
            providers: [.apt(["libfftw3-dev"]), .brew(["fftw"])]),
        // Takes in any format singers record in (FLAC, Ogg Vorbis, Opus, MP3), through the field's library.
        .systemLibrary(
            name: "CSndFile", pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"]), .brew(["libsndfile"])]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .systemLibrary(
            name: "CRubberBand", pkgConfig: "rubberband",
            providers: [.apt(["librubberband-dev"]), .brew(["rubberband"])]),
        .systemLibrary(
            name: "CSpeexDSP", pkgConfig: "speexdsp",
            providers: [.apt(["libspeexdsp-dev"]), .brew(["speexdsp"])]),
        .target(name: "ChoirScore", dependencies: ["CZlib"]),
        .target(name: "ChoirAudio", dependencies: ["CALSA", "CSndFile"]),
        .target(name: "ChoirPlayback", dependencies: ["ChoirScore", "ChoirAudio", "CFluidSynth"]),
        // Optimised in debug builds too: unoptimised, the learned tracker's network runs slower than real time, and the
        // tests that practise whole takes with it would outlast their time limits.
        .target(
            name: "ChoirPitch", dependencies: ["CFFTW", "CSpeexDSP"],
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .target(
            name: "ChoirPractice",
            dependencies: [
                "ChoirScore", "ChoirAudio", "ChoirPlayback", "ChoirPitch", .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .target(name: "ChoirSession", dependencies: ["ChoirScore", "ChoirAudio", "ChoirPlayback", "ChoirPitch", "ChoirPractice"]),
        // The singer's scores, with what each is, in the history's database: listed, searched, named by title.
        .target(
            name: "ChoirLibrary",
            dependencies: ["ChoirScore", "ChoirPractice", .product(name: "GRDB", package: "GRDB.swift"), "TOMLKit"]),
        .target(
            name: "ChoirView",
            dependencies: ["ChoirScore", "ChoirAudio", "ChoirPlayback", "ChoirPractice", "ChoirSession", .product(name: "FlyingFox", package: "FlyingFox")]),
        // The command line: arguments, the terminal view and keys; the engine is ChoirSession's.
        .executableTarget(
            name: "choir",
            dependencies: [
                "ChoirScore", "ChoirPlayback", "ChoirPitch", "ChoirPractice", "ChoirSession", "ChoirLibrary", "ChoirView",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .target(
            name: "ChoirTestSupport",
            dependencies: ["ChoirScore", "ChoirAudio", "ChoirPlayback", "ChoirPitch", "ChoirPractice", "CFFTW", "CRubberBand", "CSpeexDSP"]),
        .executableTarget(name: "choir-fuzz", dependencies: ["ChoirScore"]),
        .executableTarget(
            name: "make-demo-take",
            dependencies: ["ChoirScore", "ChoirAudio", "ChoirPlayback", "ChoirPractice", "ChoirTestSupport"]),
        // How the judge fares on every planted-mistake performance, in both sets: `swift run -c release judge-figures`.
        .executableTarget(name: "judge-figures", dependencies: ["ChoirPitch", "ChoirPractice", "ChoirTestSupport"]),
        // The singer of the real-time tests, in a process of its own like a person at a microphone.
        .executableTarget(name: "take-singer", dependencies: ["ChoirAudio"]),
        // A front end of the real-time tests that drives a live session through ChoirSession's API alone.
        .executableTarget(name: "session-driver", dependencies: ["ChoirPractice", "ChoirSession"]),
        .testTarget(name: "ChoirScoreTests", dependencies: ["ChoirScore", "CZlib"]),
        .testTarget(name: "ChoirAudioTests", dependencies: ["ChoirAudio"]),
        .testTarget(name: "ChoirPitchTests", dependencies: ["ChoirPitch", "ChoirAudio", "ChoirTestSupport"]),
        .testTarget(name: "ChoirPlaybackTests", dependencies: ["ChoirPlayback", "ChoirScore", "ChoirPitch"]),
        .testTarget(name: "ChoirSessionTests", dependencies: ["ChoirSession", "ChoirPitch", "ChoirTestSupport"]),
        .testTarget(
            name: "ChoirPracticeTests",
            dependencies: [
                "ChoirPractice", "ChoirPlayback", "ChoirScore", "ChoirPitch", "ChoirTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "ChoirCLITests",
            dependencies: [
                "choir", "take-singer", "session-driver", "ChoirAudio", "ChoirPitch", "ChoirPlayback", "ChoirPractice", "ChoirScore",
                "ChoirTestSupport", "CZlib",
            ]),
    ]
)
