// swift-tools-version: 6.1
// Speed and memory benchmarks for choir (ordo-one/benchmark). Run with `just bench`. Built by hand, it needs
// CHOIR_BENCHMARKS=1, which gives it choir's test support (ChoirTestSupport, otherwise no product of choir's).
import PackageDescription

/// A benchmark target under Benchmarks/NAME, measuring choir's `products`.
func benchmark(_ name: String, using products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: products.map { .product(name: $0, package: "choir") } + [.product(name: "Benchmark", package: "benchmark")],
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")])
}

let package = Package(
    name: "choir-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "choir", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        benchmark("PitchDetection", using: ["ChoirBase", "ChoirPitch", "ChoirTestSupport"]),
        benchmark("Playback", using: ["ChoirPlayback", "ChoirScore"]),
        benchmark("Judging", using: ["ChoirPractice", "ChoirPlayback", "ChoirTestSupport"]),
        .executableTarget(
            name: "make-singing-signals",
            dependencies: [
                .product(name: "ChoirTestSupport", package: "choir"),
                .product(name: "ChoirAudio", package: "choir"),
                .product(name: "ChoirBase", package: "choir"),
            ],
            path: "Sources/make-singing-signals"),
        benchmark("ScoreReading", using: ["ChoirScore"]),
        benchmark("Library", using: ["ChoirLibrary", "ChoirScore"]),
        // choir's release build and Chromium: the studio's page (first paint, memory) and the delay to it.
        benchmark("StudioPage", using: []),
    ]
)
