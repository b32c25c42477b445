// Fuzzes choir's readers of untrusted files with libFuzzer: the score reader, and a take's header (read from memory
// through libsndfile, as every take is read). Built with `just fuzz` (`-DFUZZING -sanitize=fuzzer`), it exports libFuzzer's
// entry point and fuzzes the reader `CHOIR_FUZZ` names (`score`, the default, or `take`); built normally, it replays
// the files named on its command line (a .wav file as a take), so that a crashing input can be checked without
// the fuzzer.
import ChoirAudio
import ChoirScore
import Foundation

func readAnyway(_ bytes: [UInt8]) {
    guard let score = try? ScoreReader.read(data: bytes, file: "fuzz") else { return }
    // Exercise what is built on the model too.
    _ = Timeline(score).seconds
    _ = score.lines.map { $0.lowest }
}

func readTakeAnyway(_ bytes: [UInt8]) {
    guard let take = try? AudioFile.read(data: bytes, file: "fuzz") else { return }
    _ = take.duration
}

#if FUZZING
    typealias Arguments = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>

    /// libFuzzer's driver, for executables that keep their own `main` (as SwiftPM's do).
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<Arguments?>,
        _ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    @_cdecl("choir_fuzz_main")
    func fuzzMain(_ argc: CInt, _ argv: Arguments?) -> CInt {
        var argc = argc
        var argv = argv
        if ProcessInfo.processInfo.environment["CHOIR_FUZZ"] == "take" {
            return runFuzzerDriver(&argc, &argv) { data, size in
                readTakeAnyway(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
                return 0
            }
        }
        return runFuzzerDriver(&argc, &argv) { data, size in
            readAnyway(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
            return 0
        }
    }
#else
    @main
    enum Replay {
        static func main() {
            for path in CommandLine.arguments.dropFirst() {
                guard let data = FileManager.default.contents(atPath: path) else {
                    print("\(path): cannot be read")
                    exit(1)
                }
                if path.lowercased().hasSuffix(".wav") { readTakeAnyway(Array(data)) } else { readAnyway(Array(data)) }
                print("\(path): ok")
            }
        }
    }
#endif
