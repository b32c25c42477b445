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
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
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
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(name: "ChoirScore", dependencies: ["CZlib"]),
        .target(name: "ChoirAudio", dependencies: ["CALSA"]),
        .target(name: "ChoirPlayback", dependencies: ["ChoirScore", "ChoirAudio", "CFluidSynth"]),
        .target(name: "ChoirPitch", dependencies: ["CFFTW"]),
        .target(
            name: "ChoirPractice",
            dependencies: [
                "ChoirScore", "ChoirAudio", "ChoirPlayback", "ChoirPitch", .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .executableTarget(
            name: "choir",
            dependencies: [
                "ChoirScore", "ChoirAudio", "ChoirPlayback", "ChoirPitch", "ChoirPractice",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "choir-fuzz", dependencies: ["ChoirScore"]),
        .executableTarget(
            name: "make-demo-take", dependencies: ["ChoirScore", "ChoirAudio", "ChoirPlayback", "ChoirPractice"]),
        // The singer of the real-time tests, in a process of its own like a person at a microphone.
        .executableTarget(name: "take-singer", dependencies: ["ChoirAudio"]),
        .testTarget(name: "ChoirScoreTests", dependencies: ["ChoirScore", "CZlib"]),
        .testTarget(name: "ChoirAudioTests", dependencies: ["ChoirAudio"]),
        .testTarget(name: "ChoirPitchTests", dependencies: ["ChoirPitch"]),
        .testTarget(name: "ChoirPlaybackTests", dependencies: ["ChoirPlayback", "ChoirScore", "ChoirPitch"]),
        .testTarget(
            name: "ChoirPracticeTests",
            dependencies: ["ChoirPractice", "ChoirPlayback", "ChoirScore", "ChoirPitch", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(
            name: "ChoirCLITests",
            dependencies: ["choir", "take-singer", "ChoirAudio", "ChoirPitch", "ChoirPlayback", "ChoirPractice", "ChoirScore", "CZlib"]),
    ]
)
