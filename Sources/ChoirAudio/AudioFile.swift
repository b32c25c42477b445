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

    /// The extension of `path`'s file name, lower-cased; empty when it has none.
    private static func suffix(_ path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        return name.contains(".") ? name.split(separator: ".").last!.lowercased() : ""
    }

    /// Reads and mixes down the recording at `path`.
    public static func read(contentsOf path: String) throws(WAVFile.Failure) -> WAVFile.Audio {
        guard let file = fopen(path, "rb") else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file"
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
        let formats: [String: Int] = [
            "flac": SF_FORMAT_FLAC | SF_FORMAT_PCM_16, "ogg": SF_FORMAT_OGG | SF_FORMAT_VORBIS,
            "opus": SF_FORMAT_OGG | SF_FORMAT_OPUS, "mp3": SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III,
            "aiff": SF_FORMAT_AIFF | SF_FORMAT_PCM_16, "wav": SF_FORMAT_WAV | SF_FORMAT_PCM_16,
        ]
        guard let format = formats[suffix(path)] else {
            throw WAVFile.Failure(file: path, message: "unknown audio format: expected a name ending in .flac, .ogg, .opus, .mp3, .aiff or .wav")
        }
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = 1
        info.format = Int32(format)
        let partial = path + ".partial"
        func unwritable(_ reason: String) -> WAVFile.Failure {
            unlink(partial)
            return WAVFile.Failure(file: path, message: "cannot be written (\(reason)): expected a writable path")
        }
        guard let handle = sf_open(partial, Int32(SFM_WRITE), &info) else { throw unwritable(String(cString: sf_strerror(nil))) }
        let written = samples.withUnsafeBufferPointer { sf_writef_float(handle, $0.baseAddress, sf_count_t($0.count)) }
        let problem = written == sf_count_t(samples.count) ? nil : String(cString: sf_strerror(handle))
        sf_close(handle)
        if let problem { throw unwritable(problem) }
        guard rename(partial, path) == 0 else { throw unwritable(String(cString: strerror(errno))) }
    }

    private static func decode(_ path: String) throws(WAVFile.Failure) -> WAVFile.Audio {
        var info = SF_INFO()
        guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
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
