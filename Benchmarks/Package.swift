// swift-tools-version: 6.1
// Speed and memory benchmarks for choir (ordo-one/benchmark). Run with `just bench`.
import PackageDescription

let package = Package(
    name: "choir-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "PitchDetection",
            dependencies: [
                .product(name: "ChoirPitch", package: "main"),
                .product(name: "ChoirTestSupport", package: "main"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/PitchDetection",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "Playback",
            dependencies: [
                .product(name: "ChoirPlayback", package: "main"),
                .product(name: "ChoirScore", package: "main"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Playback",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "make-singing-signals",
            dependencies: [
                .product(name: "ChoirTestSupport", package: "main"),
                .product(name: "ChoirAudio", package: "main"),
                .product(name: "ChoirPitch", package: "main"),
            ],
            path: "Sources/make-singing-signals"),
        .executableTarget(
            name: "ScoreReading",
            dependencies: [
                .product(name: "ChoirScore", package: "main"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ScoreReading",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "Library",
            dependencies: [
                .product(name: "ChoirLibrary", package: "main"),
                .product(name: "ChoirScore", package: "main"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Library",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ]
)
