import ChoirFiles
import CSndFile
import FoundationEssentials
import Glibc

/// Reads a recording in whatever format a singer has it: WAV through choir's own reader, whose errors say
/// exactly what is wrong with a damaged file (libsndfile reads a truncated WAV without a word), and FLAC,
/// Ogg Vorbis, Opus, MP3, AIFF and the rest through libsndfile.
public enum AudioFile {
    static let expected = "expected an audio file (WAV, FLAC, Ogg Vorbis, Opus or MP3)"

    /// Whether `path` names a recording by its extension, as a front end tells a file from a device name.
    public static func isRecording(_ path: String) -> Bool {
        ["wav", "flac", "ogg", "oga", "opus", "mp3", "aiff", "aif"].contains(suffix(path))
    }

    /// The extensions a recording can be written with (``Writer``), as a person would list them.
    public static let writable = ["flac", "ogg", "opus", "mp3", "aiff", "wav"]

    /// The extension of `path`'s file name, lower-cased; empty when it has none.
    public static func suffix(_ path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        return name.contains(".") ? name.split(separator: ".").last!.lowercased() : ""
    }

    /// Reads and mixes down the recording at `path`.
    public static func read(contentsOf path: String) throws(WAVFile.Failure) -> WAVFile.Audio {
        guard let file = FileName.withPath(path, { fopen($0, "rb") }) else {
            let reason = FileName.exists(path) ? "cannot be read" : "no such file"
            throw WAVFile.Failure(file: path, message: "\(reason): \(expected)", unreadable: true)
        }
        var header = [UInt8](repeating: 0, count: 12)
        let count = fread(&header, 1, 12, file)
        fclose(file)
        guard count > 0 else { throw WAVFile.Failure(file: path, message: "empty file: \(expected)") }
        if count == 12, header[0..<4].elementsEqual("RIFF".utf8), header[8..<12].elementsEqual("WAVE".utf8) {
            return try WAVFile.read(contentsOf: path)
        }
        return try decode(path)
    }

    /// Writes mono `samples` to `path` in the format its extension names: .flac, .ogg (Vorbis), .opus, .mp3,
    /// .aiff or .wav (16-bit). The file is written beside `path` and renamed over it when whole.
    public static func write(_ samples: [Float], sampleRate: Int, to path: String) throws(WAVFile.Failure) {
        let writer = try Writer(path: path, sampleRate: sampleRate)
        try samples.withUnsafeBufferPointer { (buffer) throws(WAVFile.Failure) in try writer.append(buffer) }
        try writer.finish()
    }

    /// A mono recording written as it comes, in the format its name's extension names (``write(_:sampleRate:to:)``),
    /// beside `path` until ``finish()`` renames it over `path`: a recording cut short is left whole up to where it
    /// stopped, as `path` + ".partial".
    public final class Writer {
        public let path: String
        /// Samples written so far.
        public private(set) var frames = 0
        private var handle: OpaquePointer?
        private let silence = [Float](repeating: 0, count: 4096)
        private var partial: String { path + ".partial" }

        public init(path: String, sampleRate: Int) throws(WAVFile.Failure) {
            let formats: [String: Int] = [
                "flac": SF_FORMAT_FLAC | SF_FORMAT_PCM_16, "ogg": SF_FORMAT_OGG | SF_FORMAT_VORBIS,
                "opus": SF_FORMAT_OGG | SF_FORMAT_OPUS, "mp3": SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III,
                "aiff": SF_FORMAT_AIFF | SF_FORMAT_PCM_16, "wav": SF_FORMAT_WAV | SF_FORMAT_PCM_16,
            ]
            self.path = path
            assert(Set(formats.keys) == Set(AudioFile.writable))
            guard let format = formats[AudioFile.suffix(path)] else {
                throw WAVFile.Failure(
                    file: path, message: "unknown audio format: expected a name ending in .flac, .ogg, .opus, .mp3, .aiff or .wav")
            }
            var info = SF_INFO()
            info.samplerate = Int32(sampleRate)
            info.channels = 1
            info.format = Int32(format)
            guard let opened = FileName.withPath(partial, { sf_open($0, Int32(SFM_WRITE), &info) }) else {
                throw unwritable(String(cString: sf_strerror(nil)))
            }
            handle = opened
        }

        deinit { if let handle { sf_close(handle) } }

        /// Appends `samples`.
        public func append(_ samples: UnsafeBufferPointer<Float>) throws(WAVFile.Failure) {
            guard let handle, !samples.isEmpty else { return }
            let written = sf_writef_float(handle, samples.baseAddress, sf_count_t(samples.count))
            // What was written before stays, as the partial file.
            guard written == sf_count_t(samples.count) else { throw unwritable(String(cString: sf_strerror(handle)), keeping: true) }
            frames += samples.count
        }

        /// Appends `count` samples of silence.
        public func appendSilence(_ count: Int) throws(WAVFile.Failure) {
            var left = count
            while left > 0 {
                let n = min(left, silence.count)
                try silence.withUnsafeBufferPointer { (buffer) throws(WAVFile.Failure) in
                    try append(UnsafeBufferPointer(rebasing: buffer[..<n]))
                }
                left -= n
            }
        }

        /// Closes the file and renames it over `path`.
        public func finish() throws(WAVFile.Failure) {
            guard let handle else { return }
            self.handle = nil
            sf_close(handle)
            guard FileName.withPath(partial, { from in FileName.withPath(path) { rename(from, $0) } }) == 0 else {
                throw unwritable(String(cString: strerror(errno)))
            }
        }

        private func unwritable(_ reason: String, keeping: Bool = false) -> WAVFile.Failure {
            if let handle { sf_close(handle) }
            handle = nil
            if !keeping { _ = FileName.withPath(partial, unlink) }
            return WAVFile.Failure(file: path, message: "cannot be written (\(reason)): expected a writable path")
        }
    }

    private static func decode(_ path: String) throws(WAVFile.Failure) -> WAVFile.Audio {
        var info = SF_INFO()
        guard let handle = FileName.withPath(path, { sf_open($0, Int32(SFM_READ), &info) }) else {
            let reason = String(cString: sf_strerror(nil))
            throw WAVFile.Failure(file: path, message: "not an audio file libsndfile can read (\(reason)): \(expected)")
        }
        defer { sf_close(handle) }
        let channels = Int(info.channels)
        guard channels > 0, info.samplerate > 0 else {
            throw WAVFile.Failure(file: path, message: "no channels or no sample rate: \(expected)")
        }
        // Read in blocks until the end: a compressed stream's frame count is an estimate.
        var samples: [Float] = []
        samples.reserveCapacity(max(0, min(Int(info.frames), 1 << 28)))
        let block = 8192
        var interleaved = [Float](repeating: 0, count: block * channels)
        while true {
            let frames = Int(sf_readf_float(handle, &interleaved, sf_count_t(block)))
            if frames <= 0 { break }
            for frame in 0..<frames {
                var sum: Float = 0
                for channel in 0..<channels { sum += interleaved[frame * channels + channel] }
                samples.append(sum / Float(channels))
            }
        }
        if sf_error(handle) != 0 {
            throw WAVFile.Failure(file: path, message: "damaged (\(String(cString: sf_strerror(handle)))): \(expected)")
        }
        guard !samples.isEmpty else { throw WAVFile.Failure(file: path, message: "no audio in the file: \(expected)") }
        return WAVFile.Audio(
            sampleRate: Int(info.samplerate), samples: samples, channels: channels, bitsPerSample: 32, isFloat: true)
    }
}
