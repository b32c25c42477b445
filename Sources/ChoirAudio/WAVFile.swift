import ChoirFiles
import FoundationEssentials

/// Reading and writing RIFF/WAVE files: 16-, 24- and 32-bit integer or 32- and 64-bit float PCM, any number
/// of channels, any sample rate.
public enum WAVFile {
    /// A decoded file, mixed down to mono.
    public struct Audio: Sendable {
        public var sampleRate: Int
        /// Mono samples in −1…1, the channels averaged.
        public var samples: [Float]
        public var channels: Int
        public var bitsPerSample: Int
        public var isFloat: Bool

        public var duration: Double { Double(samples.count) / Double(sampleRate) }
    }

    /// A file that is not a WAV file choir can read, with what was expected.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var file: String
        public var message: String
        /// The file could not be opened at all (missing or not readable), rather than read and found wrong.
        public var unreadable = false
        public var description: String { "\(file): \(message)" }

        public init(file: String, message: String, unreadable: Bool = false) {
            self.file = file
            self.message = message
            self.unreadable = unreadable
        }
    }

    /// Reads and mixes down the WAV file at `path`.
    public static func read(contentsOf path: String) throws(Failure) -> Audio {
        guard let data = FileName.contents(path) else {
            let reason = FileName.exists(path) ? "cannot be read" : "no such file"
            throw Failure(file: path, message: "\(reason): expected a WAV file", unreadable: true)
        }
        return try read(data: data, file: path)
    }

    /// Decodes WAV bytes; `file` names them in errors.
    public static func read(data: [UInt8], file: String) throws(Failure) -> Audio {
        func fail(_ message: String) -> Failure { Failure(file: file, message: message) }
        guard !data.isEmpty else { throw fail("empty file: expected a WAV file") }
        guard data.count >= 12, data[0..<4].elementsEqual("RIFF".utf8), data[8..<12].elementsEqual("WAVE".utf8) else {
            throw fail("not a WAV file: expected a RIFF/WAVE header")
        }
        var format: (tag: UInt16, channels: Int, rate: Int, bits: Int)?
        var at = 12
        while at + 8 <= data.count {
            let id = String(decoding: data[at..<(at + 4)], as: UTF8.self)
            let size = Int(u32(data, at + 4))
            let body = at + 8
            if id == "fmt " {
                guard size >= 16, body + 16 <= data.count else { throw fail("truncated fmt chunk") }
                var tag = u16(data, body)
                if tag == 0xFFFE, size >= 40, body + 26 <= data.count {
                    // WAVE_FORMAT_EXTENSIBLE: the real format is the first two bytes of the subformat GUID.
                    tag = u16(data, body + 24)
                }
                format = (tag, Int(u16(data, body + 2)), Int(u32(data, body + 4)), Int(u16(data, body + 14)))
            } else if id == "data" {
                guard let format else { throw fail("data before the fmt chunk: expected fmt first") }
                let available = data.count - body
                guard size <= available else {
                    throw fail("truncated: the data chunk declares \(size) bytes but only \(available) are present")
                }
                return try decode(data[body..<(body + size)], format: format, fail: fail)
            }
            at = body + size + (size & 1)
        }
        throw fail(format == nil ? "no fmt chunk: expected a WAV file" : "no data chunk: the file is truncated")
    }

    private static func decode(
        _ bytes: ArraySlice<UInt8>, format: (tag: UInt16, channels: Int, rate: Int, bits: Int),
        fail: (String) -> Failure
    ) throws(Failure) -> Audio {
        let (tag, channels, rate, bits) = format
        guard (1...64).contains(channels) else { throw fail("\(channels) channels: expected 1 to 64") }
        guard (1000...768_000).contains(rate) else { throw fail("sample rate \(rate): expected 1000 to 768000 Hz") }
        let isFloat: Bool
        switch (tag, bits) {
        case (1, 16), (1, 24), (1, 32): isFloat = false
        case (3, 32), (3, 64): isFloat = true
        default:
            throw fail("format \(tag) with \(bits) bits: expected 16/24/32-bit integer or 32/64-bit float PCM")
        }
        let width = bits / 8
        let frames = bytes.count / (width * channels)
        var samples = [Float](repeating: 0, count: frames)
        let scale = 1 / Float(channels)
        bytes.withUnsafeBytes { raw in
            for frame in 0..<frames {
                var sum: Float = 0
                for channel in 0..<channels {
                    let at = (frame * channels + channel) * width
                    switch (isFloat, bits) {
                    case (false, 16): sum += Float(raw.loadUnaligned(fromByteOffset: at, as: Int16.self)) / 32768
                    case (false, 24):
                        let value = Int32(raw[at]) | Int32(raw[at + 1]) << 8 | Int32(Int8(bitPattern: raw[at + 2])) << 16
                        sum += Float(value) / 8_388_608
                    case (false, _): sum += Float(Double(raw.loadUnaligned(fromByteOffset: at, as: Int32.self)) / 2_147_483_648)
                    case (true, 32): sum += raw.loadUnaligned(fromByteOffset: at, as: Float.self)
                    default: sum += Float(raw.loadUnaligned(fromByteOffset: at, as: Double.self))
                    }
                }
                samples[frame] = sum * scale
            }
        }
        return Audio(sampleRate: rate, samples: samples, channels: channels, bitsPerSample: bits, isFloat: isFloat)
    }

    /// Encodes interleaved samples as 16-bit integer (`floatingPoint: false`) or 32-bit float PCM.
    public static func encode(interleaved samples: [Float], channels: Int, sampleRate: Int, floatingPoint: Bool = false)
        -> [UInt8]
    {
        let format = SampleFormat(floatingPoint: floatingPoint)
        var out = header(channels: channels, sampleRate: sampleRate, format: format, dataSize: samples.count * format.width)
        out.reserveCapacity(out.count + samples.count * format.width)
        samples.withUnsafeBufferPointer { format.append($0, to: &out) }
        return out
    }

    /// How samples are stored in a written file.
    struct SampleFormat {
        var floatingPoint: Bool
        var width: Int { floatingPoint ? 4 : 2 }

        /// Appends `samples` in this format, clipping integers to −1…1.
        func append(_ samples: UnsafeBufferPointer<Float>, to out: inout [UInt8]) {
            for sample in samples { append(sample, to: &out) }
        }

        func append(_ sample: Float, to out: inout [UInt8]) {
            if floatingPoint {
                withUnsafeBytes(of: sample.bitPattern.littleEndian) { out += $0 }
            } else {
                let value = UInt16(bitPattern: Int16((max(-1, min(1, sample)) * 32767).rounded()))
                out.append(UInt8(value & 0xFF))
                out.append(UInt8(value >> 8))
            }
        }
    }

    /// The 44-byte canonical header for `dataSize` bytes of samples.
    static func header(channels: Int, sampleRate: Int, format: SampleFormat, dataSize: Int) -> [UInt8] {
        var out: [UInt8] = []
        func u16(_ v: Int) { out += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
        func u32(_ v: Int) {
            u16(v & 0xFFFF)
            u16((v >> 16) & 0xFFFF)
        }
        let width = format.width
        out += Array("RIFF".utf8)
        u32(36 + dataSize)
        out += Array("WAVE".utf8)
        out += Array("fmt ".utf8)
        u32(16)
        u16(format.floatingPoint ? 3 : 1)
        u16(channels)
        u32(sampleRate)
        u32(sampleRate * channels * width)
        u16(channels * width)
        u16(width * 8)
        out += Array("data".utf8)
        u32(dataSize)
        return out
    }

    private static func u16(_ data: [UInt8], _ at: Int) -> UInt16 { UInt16(data[at]) | UInt16(data[at + 1]) << 8 }
    private static func u32(_ data: [UInt8], _ at: Int) -> UInt32 {
        UInt32(u16(data, at)) | UInt32(u16(data, at + 2)) << 16
    }
}
