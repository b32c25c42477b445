import Foundation
import Testing

@testable import ChoirAudio

struct WAVFileTests {
    /// A WAV file's bytes with the given format tag, bits and interleaved sample bytes.
    static func wav(tag: UInt16, channels: Int, rate: Int, bits: Int, body: [UInt8], extensible: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        func u16(_ v: Int) { out += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
        func u32(_ v: Int) {
            u16(v & 0xFFFF)
            u16((v >> 16) & 0xFFFF)
        }
        let fmtSize = extensible ? 40 : 16
        out += Array("RIFF".utf8)
        u32(4 + 8 + fmtSize + 8 + body.count)
        out += Array("WAVE".utf8)
        out += Array("fmt ".utf8)
        u32(fmtSize)
        u16(extensible ? 0xFFFE : Int(tag))
        u16(channels)
        u32(rate)
        u32(rate * channels * bits / 8)
        u16(channels * bits / 8)
        u16(bits)
        if extensible {
            u16(22)
            u16(bits)
            u32(0)
            u16(Int(tag))
            out += [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        }
        out += Array("LIST".utf8)
        u32(4)
        out += Array("INFO".utf8)  // a chunk readers must skip
        out += Array("data".utf8)
        u32(body.count)
        return out + body
    }

    static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }

    @Test func sixteenBitStereoIsMixedDown() throws {
        let body = [Int16(16384), Int16(-16384), Int16(32767), Int16(32767)].flatMap(Self.le)
        let audio = try WAVFile.read(data: Self.wav(tag: 1, channels: 2, rate: 44100, bits: 16, body: body), file: "a.wav")
        #expect(audio.sampleRate == 44100)
        #expect(audio.channels == 2)
        #expect(audio.samples == [0, Float(32767) / 32768])
    }

    @Test func twentyFourAndThirtyTwoBitIntegers() throws {
        let b24: [UInt8] = [0x00, 0x00, 0x40, 0x00, 0x00, 0xC0]  // +0.5, −0.5
        let a = try WAVFile.read(data: Self.wav(tag: 1, channels: 1, rate: 48000, bits: 24, body: b24), file: "a.wav")
        #expect(a.samples == [0.5, -0.5])
        let b32 = [Int32(1 << 30), Int32(-(1 << 30))].flatMap(Self.le)
        let b = try WAVFile.read(data: Self.wav(tag: 1, channels: 1, rate: 8000, bits: 32, body: b32, extensible: true), file: "b.wav")
        #expect(b.samples == [0.5, -0.5])
        #expect(b.sampleRate == 8000)
    }

    @Test func floatFilesRoundTrip() throws {
        let samples: [Float] = [0, 0.25, -0.75, 1]
        let bytes = WAVFile.encode(interleaved: samples, channels: 1, sampleRate: 96000, floatingPoint: true)
        let audio = try WAVFile.read(data: bytes, file: "f.wav")
        #expect(audio.samples == samples)
        #expect(audio.isFloat && audio.bitsPerSample == 32 && audio.sampleRate == 96000)
        let doubles = [0.5, -0.5].flatMap { Self.le($0.bitPattern) }
        #expect(
            try WAVFile.read(data: Self.wav(tag: 3, channels: 1, rate: 48000, bits: 64, body: doubles), file: "d.wav")
                .samples == [0.5, -0.5])
    }

    @Test(arguments: [
        ([UInt8](), "x.wav: empty file: expected a WAV file"),
        (Array("hello, world".utf8), "x.wav: not a WAV file: expected a RIFF/WAVE header"),
    ])
    func notWAV(bytes: [UInt8], message: String) {
        #expect(throws: WAVFile.Failure.self) { try WAVFile.read(data: bytes, file: "x.wav") }
        do { _ = try WAVFile.read(data: bytes, file: "x.wav") } catch { #expect(error.description == message) }
    }

    @Test func truncatedAndUnsupported() {
        let full = Self.wav(tag: 1, channels: 1, rate: 48000, bits: 16, body: Array(repeating: 0, count: 100))
        do { _ = try WAVFile.read(data: Array(full.dropLast(10)), file: "t.wav") } catch {
            #expect(error.description == "t.wav: truncated: the data chunk declares 100 bytes but only 90 are present")
        }
        do { _ = try WAVFile.read(data: Array(full.prefix(40)), file: "t.wav") } catch {
            #expect(error.description == "t.wav: no data chunk: the file is truncated")
        }
        let alaw = Self.wav(tag: 6, channels: 1, rate: 8000, bits: 8, body: [0, 0])
        do { _ = try WAVFile.read(data: alaw, file: "u.wav") } catch {
            #expect(error.description == "u.wav: format 6 with 8 bits: expected 16/24/32-bit integer or 32/64-bit float PCM")
        }
    }

    @Test func missingFile() {
        do { _ = try WAVFile.read(contentsOf: "/nonexistent/take.wav") } catch {
            #expect(error.description == "/nonexistent/take.wav: no such file: expected a WAV file")
        }
    }
}

struct WAVWriterTests {
    @Test func blocksWrittenOneByOneReadBackAsOneFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(getpid()).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try WAVWriter(path: path, channels: 2, sampleRate: 44100)
        let left: [Float] = [0.5, -0.5, 1, 2], right: [Float] = [0.5, -0.5, -1, -2]
        for start in [0, 2] {
            try left.withUnsafeBufferPointer { l in
                try right.withUnsafeBufferPointer { r in
                    try writer.append(left: l.baseAddress! + start, right: r.baseAddress! + start, frames: 2)
                }
            }
        }
        try writer.finish()
        let audio = try WAVFile.read(contentsOf: path)
        #expect(audio.sampleRate == 44100 && audio.channels == 2 && audio.bitsPerSample == 16)
        // Channels are averaged on reading; out-of-range samples were clipped to ±1 before.
        #expect(audio.samples.count == 4)
        #expect(abs(audio.samples[0] - 0.5) < 1e-4 && abs(audio.samples[1] + 0.5) < 1e-4)
        #expect(abs(audio.samples[2]) < 1e-4 && abs(audio.samples[3]) < 1e-4)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == 44 + 4 * 2 * 2)
    }

    @Test func unwritablePathIsOneLine() {
        #expect(throws: WAVFile.Failure.self) {
            _ = try WAVWriter(path: "/nonexistent-dir/x.wav", channels: 1, sampleRate: 8000)
        }
    }

    @Test func theTargetKeepsItsContentsUntilTheNewFileIsWhole() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replacing-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/mix.wav"
        try Data("the old mix".utf8).write(to: URL(fileURLWithPath: path))
        let samples: [Float] = [0.25, -0.25]
        do {
            let writer = try WAVWriter(path: path, channels: 1, sampleRate: 8000)
            try samples.withUnsafeBufferPointer { try writer.append(interleaved: $0) }
            // Half-way, the target is untouched; a writer dropped unfinished leaves nothing beside it.
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "the old mix")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["mix.wav"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "the old mix")
        let writer = try WAVWriter(path: path, channels: 1, sampleRate: 8000)
        try samples.withUnsafeBufferPointer { try writer.append(interleaved: $0) }
        try writer.finish()
        #expect(try WAVFile.read(contentsOf: path).samples.count == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["mix.wav"])
    }

    @Test func aFilePastTheHeadersLimitIsRefusedNotWrapped() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("limit-\(getpid()).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // The real limit is 4 GiB; the same check with a limit of 8 bytes (two stereo 16-bit frames).
        let writer = try WAVWriter(path: path, channels: 2, sampleRate: 8000, floatingPoint: false, maximumDataSize: 8)
        let block: [Float] = [0.1, 0.2]
        try block.withUnsafeBufferPointer { l in try writer.append(left: l.baseAddress!, right: l.baseAddress!, frames: 2) }
        #expect(throws: WAVFile.Failure.self) {
            try block.withUnsafeBufferPointer { l in try writer.append(left: l.baseAddress!, right: l.baseAddress!, frames: 1) }
        }
        #expect(WAVWriter.maximumDataSize == 4_294_967_259)
        do {
            try block.withUnsafeBufferPointer { l in try writer.append(left: l.baseAddress!, right: l.baseAddress!, frames: 1) }
        } catch {
            #expect("\(error)" == "\(path): would pass 4 GiB, the most a WAV file holds: expected at most 0 s at 8000 Hz")
        }
    }
}
