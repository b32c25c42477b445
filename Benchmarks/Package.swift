// swift-tools-version: 6.1
// Speed and memory benchmarks for choir (ordo-one/benchmark). Run with `just bench`.
import PackageDescription

let package = Package(
    name: "choir-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "choir", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "PitchDetection",
            dependencies: [
                .product(name: "ChoirPitch", package: "choir"),
                .product(name: "ChoirTestSupport", package: "choir"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/PitchDetection",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "Playback",
            dependencies: [
                .product(name: "ChoirPlayback", package: "choir"),
                .product(name: "ChoirScore", package: "choir"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Playback",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "Judging",
            dependencies: [
                .product(name: "ChoirPractice", package: "choir"),
                .product(name: "ChoirPlayback", package: "choir"),
                .product(name: "ChoirTestSupport", package: "choir"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Judging",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "make-singing-signals",
            dependencies: [
                .product(name: "ChoirTestSupport", package: "choir"),
                .product(name: "ChoirAudio", package: "choir"),
            ],
            path: "Sources/make-singing-signals"),
        .executableTarget(
            name: "ScoreReading",
            dependencies: [
                .product(name: "ChoirScore", package: "choir"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ScoreReading",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "Library",
            dependencies: [
                .product(name: "ChoirLibrary", package: "choir"),
                .product(name: "ChoirScore", package: "choir"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Library",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ]
)
