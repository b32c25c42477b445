import Glibc

/// Writes a WAV file block by block, so that a long render never sits in memory whole.
///
/// The file is written beside `path` and takes its place in ``finish()``, with its sizes patched into the
/// header: `path` is never half-written, and a writer that is never finished leaves it as it was. A canonical
/// WAV's sizes stop at 4 GiB; a longer file is refused rather than given a header that wraps.
public final class WAVWriter {
    public let path: String
    public let channels: Int
    public let sampleRate: Int
    /// Frames written so far.
    public private(set) var frames = 0
    private let format: WAVFile.SampleFormat
    private let file: ReplacingFile
    private let maximumDataSize: Int
    private var bytes: [UInt8] = []

    /// The most sample bytes a canonical WAV header can count: its RIFF size is 36 more, in 32 bits.
    static let maximumDataSize = Int(UInt32.max) - 36

    /// Starts writing `path` (in a file beside it until ``finish()``) with a header.
    public convenience init(path: String, channels: Int, sampleRate: Int, floatingPoint: Bool = false) throws(WAVFile.Failure) {
        try self.init(
            path: path, channels: channels, sampleRate: sampleRate, floatingPoint: floatingPoint, maximumDataSize: Self.maximumDataSize)
    }

    init(path: String, channels: Int, sampleRate: Int, floatingPoint: Bool, maximumDataSize: Int) throws(WAVFile.Failure) {
        self.path = path
        self.channels = channels
        self.sampleRate = sampleRate
        self.maximumDataSize = maximumDataSize
        format = WAVFile.SampleFormat(floatingPoint: floatingPoint)
        do {
            file = try ReplacingFile(path: path)
        } catch {
            throw WAVFile.Failure(file: path, message: error.message)
        }
        try write(WAVFile.header(channels: channels, sampleRate: sampleRate, format: format, dataSize: 0))
    }

    /// Appends `frames` stereo frames from two planar buffers.
    public func append(left: UnsafePointer<Float>, right: UnsafePointer<Float>, frames count: Int) throws(WAVFile.Failure) {
        precondition(channels == 2)
        bytes.removeAll(keepingCapacity: true)
        for i in 0..<count {
            format.append(left[i], to: &bytes)
            format.append(right[i], to: &bytes)
        }
        try write(bytes, frames: count)
    }

    /// Appends interleaved samples (`channels` per frame).
    public func append(interleaved samples: UnsafeBufferPointer<Float>) throws(WAVFile.Failure) {
        bytes.removeAll(keepingCapacity: true)
        format.append(samples, to: &bytes)
        try write(bytes, frames: samples.count / channels)
    }

    /// Writes the final sizes into the header and puts the file in place.
    public func finish() throws(WAVFile.Failure) {
        let dataSize = frames * channels * format.width
        do {
            try file.seek(to: 0)
            try file.write(WAVFile.header(channels: channels, sampleRate: sampleRate, format: format, dataSize: dataSize))
            try file.commit()
        } catch {
            throw WAVFile.Failure(file: path, message: error.message)
        }
    }

    private func write(_ data: [UInt8], frames count: Int = 0) throws(WAVFile.Failure) {
        guard (frames + count) * channels * format.width <= maximumDataSize else {
            let seconds = maximumDataSize / (channels * format.width * sampleRate)
            throw WAVFile.Failure(
                file: path, message: "would pass 4 GiB, the most a WAV file holds: expected at most \(seconds) s at \(sampleRate) Hz")
        }
        do { try file.write(data) } catch { throw WAVFile.Failure(file: path, message: error.message) }
        frames += count
    }
}
