import ChoirAudio
import Foundation
import Testing

@testable import ChoirAudio

/// Recordings and renders written block by block through libsndfile, never half-written under their own name.
struct AudioFileWriterTests {
    @Test func stereoBlocksWrittenOneByOneReadBackAsOneFile() throws {
        let path = AudioFileTests.temporary("mix.wav")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try AudioFile.Writer(path: path, channels: 2, sampleRate: 44100, keepsUnfinished: false)
        let left: [Float] = [0.5, -0.5, 1, 2], right: [Float] = [0.5, -0.5, -1, -2]
        for start in [0, 2] {
            try left.withUnsafeBufferPointer { l in
                try right.withUnsafeBufferPointer { r in
                    try writer.append(left: l.baseAddress! + start, right: r.baseAddress! + start, frames: 2)
                }
            }
        }
        #expect(writer.frames == 4)
        try writer.finish()
        let audio = try AudioFile.read(contentsOf: path)
        #expect(audio.sampleRate == 44100 && audio.channels == 2)
        // Channels are averaged on reading; samples past ±1 were clipped to ±1 on writing, not wrapped.
        #expect(audio.samples.count == 4)
        #expect(abs(audio.samples[0] - 0.5) < 1e-4 && abs(audio.samples[1] + 0.5) < 1e-4)
        #expect(abs(audio.samples[2]) < 1e-4 && abs(audio.samples[3]) < 1e-4)
    }

    @Test func floatWAVKeepsEverySample() throws {
        let path = AudioFileTests.temporary("float.wav")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let samples: [Float] = [0, 0.25, -0.75, 1, 0.123456789]
        try AudioFile.write(samples, sampleRate: 96000, to: path, floatingPoint: true)
        let audio = try AudioFile.read(contentsOf: path)
        #expect(audio.samples == samples && audio.sampleRate == 96000)
    }

    @Test func anUnwritablePathIsOneLine() throws {
        let error = try #require(throws: AudioFile.Failure.self) {
            _ = try AudioFile.Writer(path: "/nonexistent-dir/x.wav", sampleRate: 8000)
        }
        #expect(error.description.hasPrefix("/nonexistent-dir/x.wav: cannot be written ("))
        #expect(error.description.hasSuffix("): expected a writable path") && !error.description.contains("\n"))
    }

    @Test func theTargetKeepsItsContentsUntilTheNewFileIsWhole() throws {
        let directory = AudioFileTests.temporary("replacing")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/mix.wav"
        try Data("the old mix".utf8).write(to: URL(fileURLWithPath: path))
        let samples: [Float] = [0.25, -0.25]
        do {
            let writer = try AudioFile.Writer(path: path, sampleRate: 8000, keepsUnfinished: false)
            try samples.withUnsafeBufferPointer { try writer.append(interleaved: $0) }
            // Half-way, the target is untouched; a render dropped unfinished leaves nothing beside it.
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "the old mix")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["mix.wav"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "the old mix")
        let writer = try AudioFile.Writer(path: path, sampleRate: 8000, keepsUnfinished: false)
        try samples.withUnsafeBufferPointer { try writer.append(interleaved: $0) }
        try writer.finish()
        #expect(try AudioFile.read(contentsOf: path).samples.count == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["mix.wav"])
    }

    /// A take cut short (the session stopped, the writer never finished) is kept whole up to where it stopped.
    @Test func aTakeCutShortIsKeptAsThePartialFile() throws {
        let path = AudioFileTests.temporary("take.wav")
        defer { try? FileManager.default.removeItem(atPath: path + ".partial") }
        do {
            let writer = try AudioFile.Writer(path: path, sampleRate: 48_000)
            try AudioFileTests.sine.withUnsafeBufferPointer { try writer.append(interleaved: UnsafeBufferPointer(rebasing: $0[..<48_000])) }
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        let kept = try AudioFile.read(contentsOf: path + ".partial")
        #expect(kept.samples.count == 48_000)
        #expect(zip(kept.samples, AudioFileTests.sine).allSatisfy { abs($0 - $1) <= 1.0 / 32768 + 1e-6 })
    }

    @Test func aFilePastTheHeadersLimitIsRefusedNotWrapped() throws {
        let path = AudioFileTests.temporary("limit.wav")
        // The real limit is 4 GiB; the same check with a limit of 8 bytes (two stereo 16-bit frames).
        let writer = try AudioFile.Writer(
            path: path, channels: 2, sampleRate: 8000, floatingPoint: false, keepsUnfinished: false, maximumDataSize: 8)
        let block: [Float] = [0.1, 0.2]
        try block.withUnsafeBufferPointer { l in try writer.append(left: l.baseAddress!, right: l.baseAddress!, frames: 2) }
        let error = try #require(throws: AudioFile.Failure.self) {
            try block.withUnsafeBufferPointer { l in try writer.append(left: l.baseAddress!, right: l.baseAddress!, frames: 1) }
        }
        #expect(error.description == "\(path): would pass 4 GiB, the most a WAV file holds: expected at most 0 s at 8000 Hz")
        #expect(writer.frames == 2)
        #expect(AudioFile.Writer.maximumDataSize == 4_294_967_259)
    }
}
