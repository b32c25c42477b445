import FoundationEssentials
import Glibc
import Synchronization

/// The learned tracker's weights: SwiftF0's network (MIT, Lars Nieradzik), converted once from the `swift-f0`
/// package's model.onnx by `Resources/PitchNet/convert-swiftf0.py` into a flat file of named tensors
/// (``publishedFileName``), and fine-tuned from it on singing heard through accompaniments by
/// `Resources/PitchNet/finetune-swiftf0.py` (``fileName``, what the tracker reads), each checked against the
/// shapes ``PitchNet`` expects when it is read. Each file is read once per process and shared.
public final class PitchNetWeights: Sendable {
    /// One named array: its shape and its numbers (floats, integers or doubles, as stored).
    struct Tensor: Sendable {
        var shape: [Int]
        var floats: [Float] = []
        var integers: [Int32] = []
        var doubles: [Double] = []
    }

    public let path: String
    let tensors: [String: Tensor]

    /// The file's name in the project's `Resources/PitchNet` and in an installed `share/choir`: the fine-tuned network.
    public static let fileName = "swiftf0-accompanied.weights"
    /// The published network's file in `Resources/PitchNet`, as converted: what the fine-tuning starts from, and
    /// what the tests that hold the port to the published model read.
    public static let publishedFileName = "swiftf0.weights"
    /// What rebuilds the file from the registry's package.
    public static let rebuild = "just net-weights"

    private static let loaded = Mutex<[String: PitchNetWeights]>([:])

    private init(path: String, tensors: [String: Tensor]) {
        self.path = path
        self.tensors = tensors
    }

    /// The weights at `path`, read and checked the first time they are asked for.
    public static func load(_ path: String) throws(PitchTrackerError) -> PitchNetWeights {
        if let weights = loaded.withLock({ $0[path] }) { return weights }
        let weights = try read(path)
        loaded.withLock { $0[path] = weights }
        return weights
    }

    /// The weights at `explicit`, else where ``locate(explicit:environment:)`` finds them in this process's
    /// environment, read and checked once.
    public static func located(explicit: String? = nil) throws(PitchTrackerError) -> PitchNetWeights {
        try load(locate(explicit: explicit, environment: ProcessInfo.processInfo.environment))
    }

    /// `explicit`, else `$CHOIR_PITCH_NET`, else ``fileName`` in `share/choir` beside the installed program, else
    /// the project's own `Resources/PitchNet/` ``fileName`` (a build run from the source tree). The path is
    /// returned even when no file is there, so that the error names where it was looked for.
    public static func locate(explicit: String?, environment: [String: String]) -> String {
        if let path = explicit ?? environment["CHOIR_PITCH_NET"].flatMap({ $0.isEmpty ? nil : $0 }) { return path }
        var candidates: [String] = []
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 {
            let program = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let bin = program.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            candidates.append(bin + "/../share/choir/" + fileName)
        }
        let source = resources + fileName
        candidates.append(source)
        return candidates.first { access($0, R_OK) == 0 } ?? source
    }

    /// The project's `Resources/PitchNet/` (a build run from the source tree).
    public static let resources =
        #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/") + "/Resources/PitchNet/"

    private static func read(_ path: String) throws(PitchTrackerError) -> PitchNetWeights {
        func fail(_ problem: String) -> PitchTrackerError {
            PitchTrackerError(
                description: "\(path): \(problem): expected SwiftF0's weights for --tracker net; rebuild them with `\(rebuild)`",
                isWeights: true)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw fail(access(path, F_OK) == 0 ? "cannot be read" : "no such file")
        }
        let bytes = [UInt8](data)
        var offset = 0
        func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, offset + count <= bytes.count else { return nil }
            defer { offset += count }
            return bytes[offset..<(offset + count)]
        }
        func integer(_ size: Int) -> Int? {
            take(size).map { $0.reversed().reduce(0) { $0 << 8 | Int($1) } }
        }
        guard take(8).map({ Array($0) }) == Array("CHPNET01".utf8), let count = integer(4) else {
            throw fail("not a choir pitch-net file (no CHPNET01 header)")
        }
        var tensors: [String: Tensor] = [:]
        for _ in 0..<count {
            guard let length = integer(2), let name = take(length), let kind = integer(1), let rank = integer(1), kind <= 2 else {
                throw fail("truncated or damaged at byte \(offset)")
            }
            var shape: [Int] = []
            for _ in 0..<rank {
                guard let dimension = integer(4) else { throw fail("truncated at byte \(offset)") }
                shape.append(dimension)
            }
            let elements = shape.reduce(1, *)
            guard let raw = take(elements * (kind == 2 ? 8 : 4)) else { throw fail("truncated at byte \(offset)") }
            var tensor = Tensor(shape: shape)
            raw.withUnsafeBytes { raw in
                switch kind {
                case 0:
                    tensor.floats = (0..<elements).map { raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self) }.map {
                        Float(bitPattern: UInt32(littleEndian: $0))
                    }
                case 1:
                    tensor.integers = (0..<elements).map { Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: Int32.self)) }
                default:
                    tensor.doubles = (0..<elements).map {
                        Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * $0, as: UInt64.self)))
                    }
                }
            }
            tensors[String(decoding: name, as: UTF8.self)] = tensor
        }
        guard offset == bytes.count else { throw fail("\(bytes.count - offset) bytes after the last tensor") }
        let weights = PitchNetWeights(path: path, tensors: tensors)
        for (name, shape) in PitchNet.expectedShapes {
            guard let found = tensors[name] else { throw fail("no tensor \(name)") }
            guard shape.isEmpty || found.shape == shape else {
                throw fail("\(name) is \(found.shape), not \(shape)")
            }
        }
        for size in PitchNet.transformSizes {
            let count = tensors["stft\(size).bin"]!.shape
            guard tensors["stft\(size).band"]!.shape == count, tensors["stft\(size).weight"]!.shape == count,
                tensors["stft\(size).bin"]!.integers.allSatisfy({ $0 >= 0 && $0 <= size / 2 }),
                tensors["stft\(size).band"]!.integers.allSatisfy({ $0 >= 0 && $0 < PitchNet.bands })
            else { throw fail("stft\(size)'s band map does not fit a \(size)-point transform onto \(PitchNet.bands) bands") }
        }
        return weights
    }

    func floats(_ name: String) -> [Float] { tensors[name]!.floats }
    func integers(_ name: String) -> [Int32] { tensors[name]!.integers }
    func doubles(_ name: String) -> [Double] { tensors[name]!.doubles }
}
