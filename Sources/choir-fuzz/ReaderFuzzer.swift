// Fuzzes the score reader with libFuzzer. Built with `just fuzz` (`-DFUZZING -sanitize=fuzzer`), it exports
// libFuzzer's entry point; built normally, it replays the files named on its command line, so that a
// crashing input can be checked without the fuzzer.
import ChoirScore
import Foundation

func readAnyway(_ bytes: [UInt8]) {
    guard let score = try? ScoreReader.read(data: bytes, file: "fuzz") else { return }
    // Exercise what is built on the model too.
    _ = Timeline(score).seconds
    _ = score.lines.map { $0.lowest }
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
                readAnyway(Array(data))
                print("\(path): ok")
            }
        }
    }
#endif
