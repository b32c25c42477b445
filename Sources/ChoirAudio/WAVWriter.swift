import Glibc

/// Writes a WAV file block by block, so that a long render never sits in memory whole.
///
/// The header's sizes are patched in ``finish()``; a writer that is never finished leaves a file whose
/// header claims no samples.
public final class WAVWriter {
    public let path: String
    public let channels: Int
    public let sampleRate: Int
    /// Frames written so far.
    public private(set) var frames = 0
    private let format: WAVFile.SampleFormat
    private var file: UnsafeMutablePointer<FILE>?
    private var bytes: [UInt8] = []

    /// Creates (or truncates) `path` and writes a header.
    public init(path: String, channels: Int, sampleRate: Int, floatingPoint: Bool = false) throws(WAVFile.Failure) {
        self.path = path
        self.channels = channels
        self.sampleRate = sampleRate
        format = WAVFile.SampleFormat(floatingPoint: floatingPoint)
        guard let file = fopen(path, "wb") else {
            throw WAVFile.Failure(file: path, message: "cannot be written (\(String(cString: strerror(errno)))): expected a writable path")
        }
        self.file = file
        try write(WAVFile.header(channels: channels, sampleRate: sampleRate, format: format, dataSize: 0))
    }

    deinit { if let file { fclose(file) } }

    /// Appends `frames` stereo frames from two planar buffers.
    public func append(left: UnsafePointer<Float>, right: UnsafePointer<Float>, frames count: Int) throws(WAVFile.Failure) {
        precondition(channels == 2)
        bytes.removeAll(keepingCapacity: true)
        for i in 0..<count {
            format.append(left[i], to: &bytes)
            format.append(right[i], to: &bytes)
        }
        try write(bytes)
        frames += count
    }

    /// Appends interleaved samples (`channels` per frame).
    public func append(interleaved samples: UnsafeBufferPointer<Float>) throws(WAVFile.Failure) {
        bytes.removeAll(keepingCapacity: true)
        format.append(samples, to: &bytes)
        try write(bytes)
        frames += samples.count / channels
    }

    /// Writes the final sizes into the header and closes the file.
    public func finish() throws(WAVFile.Failure) {
        guard let file else { return }
        let dataSize = frames * channels * format.width
        let header = WAVFile.header(channels: channels, sampleRate: sampleRate, format: format, dataSize: dataSize)
        fseek(file, 0, SEEK_SET)
        try write(header)
        let closed = fclose(file)
        self.file = nil
        guard closed == 0 else { throw failure() }
    }

    private func write(_ data: [UInt8]) throws(WAVFile.Failure) {
        guard let file else { return }
        let written = data.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == data.count else { throw failure() }
    }

    private func failure() -> WAVFile.Failure {
        WAVFile.Failure(file: path, message: "cannot be written (\(String(cString: strerror(errno)))): expected a writable path with free space")
    }
}
