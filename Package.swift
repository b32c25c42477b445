// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "choir",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "choir", targets: ["choir"]),
        // What every module may use: the lock, JSON, formatting, pitch arithmetic.
        .library(name: "ChoirBase", targets: ["ChoirBase"]),
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
        // The terminal front end: raw keys, signals, and the live screen, tuner and status lines drawn as text.
        .library(name: "ChoirTerminal", targets: ["ChoirTerminal"]),
        // The local server the browser front ends talk to: HTTP/1.1 and WebSocket on loopback, behind a token.
        .library(name: "ChoirServer", targets: ["ChoirServer"]),
        // A chat-completions client for the model the singer brings (OpenRouter or any compatible server).
        .library(name: "ChoirModel", targets: ["ChoirModel"]),
        // Photographs and PDFs of sheet music to MusicXML, through that model, checked by choir's reader.
        .library(name: "ChoirScan", targets: ["ChoirScan"]),
    ]
        // Singers with planted mistakes and the rest of what the tests and benchmarks judge choir with: no part of
        // the engine, and not a product of choir's. SwiftPM lets a package use only another's products, so
        // choir's own benchmarks (Benchmarks/, a package of their own) see it when `just bench` builds them with
        // CHOIR_BENCHMARKS=1, and nothing else that depends on choir does.
        + (Context.environment["CHOIR_BENCHMARKS"] == "1" ? [.library(name: "ChoirTestSupport", targets: ["ChoirTestSupport"])] : []),
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CFluidSynth", pkgConfig: "fluidsynth",
            providers: [.apt(["libfluidsynth-dev"]), .brew(["fluid-synth"])]),
        .systemLibrary(
            name: "CALSA", pkgConfig: "alsa",
            providers: [.apt(["libasound2-dev"])]),
        // Part of the C library: only the header Swift's Glibc module leaves out.
        .systemLibrary(name: "CEventFD"),
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
        // HTTPS for the model's server, through the field's library (Foundation's URLSession would bring libcurl
        // all the same, and more).
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        // Photographs in (JPEG, with DCT scaling for a quick downscale) and pages out as JPEG.
        .systemLibrary(
            name: "CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"]), .brew(["jpeg-turbo"])]),
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        // File names as bytes, from the command line to the system's calls.
        .target(name: "ChoirFiles"),
        // Small utilities every module may import, and nothing of music or devices beyond pitch arithmetic.
        .target(name: "ChoirBase"),
        .target(name: "ChoirScore", dependencies: ["CZlib", "ChoirBase", "ChoirFiles"]),
        .target(name: "ChoirAudio", dependencies: ["CALSA", "CEventFD", "CSndFile", "ChoirFiles"]),
        .target(name: "ChoirPlayback", dependencies: ["ChoirScore", "ChoirAudio", "ChoirFiles", "CFluidSynth"]),
        // Optimised in debug builds too: unoptimised, the learned tracker's network runs slower than real time, and the
        // tests that practise whole takes with it would outlast their time limits.
        .target(
            name: "ChoirPitch", dependencies: ["ChoirBase", "CFFTW", "CSpeexDSP"],
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // Optimised in debug builds too: the judge runs in nearly every test, and unoptimised its generic code took
        // four times as long (the planted-mistake tests' judging, 240 s of CPU of a 900 s test run).
        .target(
            name: "ChoirPractice",
            dependencies: [
                "ChoirBase", "ChoirScore", "ChoirAudio", "ChoirFiles", "ChoirPlayback", "ChoirPitch",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .target(
            name: "ChoirSession",
            dependencies: [
                "ChoirBase", "ChoirScore", "ChoirAudio", "ChoirFiles", "ChoirPlayback", "ChoirPitch", "ChoirPractice", "ChoirLibrary",
                "ChoirModel", "ChoirScan",
            ]),
        // The singer's scores, with what each is (a scanned one's doubts and source too), in the history's database: listed,
        // searched, named by title.
        .target(
            name: "ChoirLibrary",
            dependencies: [
                "ChoirBase", "ChoirScore", "ChoirFiles", "ChoirPractice", "ChoirScan", "ChoirModel",
                .product(name: "GRDB", package: "GRDB.swift"), "TOMLKit",
            ]),
        // On POSIX sockets alone, so that every limit a client meets is choir's own (and no networking library is linked).
        .target(name: "ChoirServer"),
        // The page and the engraving's script are files under Resources/View, copied beside the program as
        // choir_ChoirView.resources (SwiftPM takes resources outside the target's folder from tools 5.11 on).
        .target(
            name: "ChoirView",
            dependencies: ["ChoirBase", "ChoirScore", "ChoirPractice", "ChoirSession", "ChoirLibrary", "ChoirServer"],
            resources: [.copy("../../Resources/View")]),
        // The terminal's plumbing (raw mode, keys, signals, the locale's output) and its drawing of a session's events:
        // a front end, on ChoirSession's API alone.
        .target(name: "ChoirTerminal", dependencies: ["ChoirBase", "ChoirFiles", "ChoirScore", "ChoirPractice", "ChoirSession"]),
        .target(name: "ChoirModel", dependencies: ["CCurl", "TOMLKit"]),
        .target(
            name: "ChoirScan", dependencies: ["ChoirBase", "ChoirScore", "ChoirFiles", "ChoirModel", "CTurboJPEG", "CPNG"]),
        // The command line: arguments, the terminal view and keys; the engine is ChoirSession's.
        .executableTarget(
            name: "choir",
            dependencies: [
                "ChoirBase", "ChoirScore", "ChoirPractice", "ChoirSession", "ChoirLibrary", "ChoirView", "ChoirTerminal", "ChoirFiles",
                "ChoirModel", "ChoirScan", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // Optimised in debug builds too, as ChoirPitch and ChoirPractice are: unoptimised, synthesizing the planted-mistake
        // tests' singers (a voice's harmonics, sample by sample) took most of the test run's time.
        .target(
            name: "ChoirTestSupport",
            dependencies: [
                "ChoirBase", "ChoirScore", "ChoirAudio", "ChoirPlayback", "ChoirPitch", "ChoirPractice", "CFFTW", "CRubberBand",
                "CSpeexDSP",
            ],
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .executableTarget(name: "choir-fuzz", dependencies: ["ChoirScore", "ChoirAudio"]),
        .executableTarget(
            name: "make-demo-take",
            dependencies: ["ChoirScore", "ChoirAudio", "ChoirPlayback", "ChoirPractice", "ChoirTestSupport"]),
        // How the judge fares on every planted-mistake performance, in both sets: `swift run -c release judge-figures`.
        .executableTarget(name: "judge-figures", dependencies: ["ChoirPitch", "ChoirPractice", "ChoirTestSupport"]),
        // The singer of the real-time tests, in a process of its own like a person at a microphone.
        .executableTarget(name: "take-singer", dependencies: ["ChoirAudio"]),
        // A front end of the real-time tests that drives a live session through ChoirSession's API alone.
        .executableTarget(name: "session-driver", dependencies: ["ChoirPractice", "ChoirSession"]),
        .testTarget(name: "ChoirBaseTests", dependencies: ["ChoirBase"]),
        .testTarget(name: "ChoirScoreTests", dependencies: ["ChoirScore", "CZlib"]),
        .testTarget(name: "ChoirAudioTests", dependencies: ["ChoirAudio", "ChoirFiles", "ChoirTestSupport"]),
        .testTarget(name: "ChoirPitchTests", dependencies: ["ChoirPitch", "ChoirAudio", "ChoirTestSupport"]),
        .testTarget(name: "ChoirPlaybackTests", dependencies: ["ChoirPlayback", "ChoirScore", "ChoirPitch"]),
        .testTarget(name: "ChoirServerTests", dependencies: ["ChoirServer", "ChoirTestSupport"]),
        .testTarget(name: "ChoirScanTests", dependencies: ["ChoirScan", "ChoirModel", "ChoirScore", "CPNG"]),
        .testTarget(name: "ChoirViewTests", dependencies: ["ChoirView", "ChoirSession"]),
        .testTarget(name: "ChoirTerminalTests", dependencies: ["ChoirTerminal", "ChoirSession", "ChoirPractice", "ChoirScore", "ChoirTestSupport"]),
        .testTarget(name: "ChoirLibraryTests", dependencies: ["ChoirLibrary", "ChoirScore", "ChoirPractice", "ChoirTestSupport"]),
        .testTarget(
            name: "ChoirSessionTests",
            dependencies: ["ChoirSession", "ChoirLibrary", "ChoirPitch", "ChoirModel", "ChoirScan", "ChoirTestSupport"]),
        .testTarget(
            name: "ChoirPracticeTests",
            dependencies: [
                "ChoirPractice", "ChoirPlayback", "ChoirScore", "ChoirPitch", "ChoirTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "ChoirCLITests",
            dependencies: [
                "choir", "take-singer", "session-driver", "ChoirAudio", "ChoirBase", "ChoirPitch", "ChoirPlayback", "ChoirPractice", "ChoirScore",
                "ChoirTestSupport", "CZlib",
            ]),
    ]
)
