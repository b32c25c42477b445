import ChoirFiles
import CSndFile
import FoundationEssentials
import Glibc

/// Recordings in whatever format a singer has them (WAV in any of its encodings, FLAC, Ogg Vorbis, Opus, MP3,
/// AIFF and the rest), read and written through libsndfile alone.
public enum AudioFile {
    static let expected = "expected an audio file (WAV, FLAC, Ogg Vorbis, Opus or MP3)"

    /// A decoded recording, mixed down to mono.
    public struct Audio: Sendable {
        public var sampleRate: Int
        /// Mono samples in −1…1, the channels averaged.
        public var samples: [Float]
        /// The channels the file held.
        public var channels: Int

        public var duration: Double { Double(samples.count) / Double(sampleRate) }
    }

    /// A file that could not be read or written, with what was expected.
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

    /// Reads and mixes down the recording at `path`. The file is read into memory first rather than mapped: a mapped
    /// file that another program shortens while it is read would end choir with SIGBUS.
    public static func read(contentsOf path: String) throws(Failure) -> Audio {
        let descriptor = FileName.withPath(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else {
            let reason = FileName.exists(path) ? "cannot be read" : "no such file"
            throw Failure(file: path, message: "\(reason): \(expected)", unreadable: true)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw Failure(file: path, message: "cannot be read: \(expected)", unreadable: true)
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else {
                throw Failure(file: path, message: "cannot be read (\(String(cString: strerror(errno)))): \(expected)", unreadable: true)
            }
            if got == 0 { break }
            filled += got
        }
        // A file shortened since it was measured is read as far as it now goes.
        bytes.removeLast(bytes.count - filled)
        return try read(data: bytes, file: path)
    }

    /// Decodes a recording's bytes, read as a file is; `file` names them in errors.
    public static func read(data: [UInt8], file: String) throws(Failure) -> Audio {
        try data.withUnsafeBytes { bytes in Result { () throws(Failure) in try read(bytes, file: file) } }.get()
    }

    private static func read(_ bytes: UnsafeRawBufferPointer, file: String) throws(Failure) -> Audio {
        guard !bytes.isEmpty else { throw Failure(file: file, message: "empty file: \(expected)") }
        let memory = try MemoryFile(bytes, file: file)
        var io = MemoryFile.callbacks
        var info = SF_INFO()
        return try withExtendedLifetime(memory) { () throws(Failure) in
            let handle = sf_open_virtual(&io, Int32(SFM_READ), &info, Unmanaged.passUnretained(memory).toOpaque())
            return try decode(handle, info, file: file)
        }
    }

    /// Reads what libsndfile opened as `handle` (nil when it could not), mixing the channels down.
    private static func decode(_ handle: OpaquePointer?, _ info: SF_INFO, file: String) throws(Failure) -> Audio {
        guard let handle else {
            let reason = String(cString: sf_strerror(nil))
            throw Failure(file: file, message: "not an audio file libsndfile can read (\(reason)): \(expected)")
        }
        defer { sf_close(handle) }
        let channels = Int(info.channels)
        guard channels > 0, info.samplerate > 0 else { throw Failure(file: file, message: "no channels or no sample rate: \(expected)") }
        guard (1000...768_000).contains(Int(info.samplerate)) else {
            throw Failure(file: file, message: "sample rate \(info.samplerate): expected 1000 to 768000 Hz")
        }
        // libsndfile reads a file cut short as far as it goes, and says so only in its log (as sndfile-info shows it).
        if let truncated = truncation(handle) {
            throw Failure(
                file: file,
                message: "truncated: the data chunk declares \(truncated.declared) bytes but only \(truncated.present) are present")
        }
        // Read in blocks until the end: a compressed stream's frame count is an estimate.
        var samples: [Float] = []
        samples.reserveCapacity(max(0, min(Int(info.frames), 1 << 28)))
        let block = 8192
        var interleaved = [Float](repeating: 0, count: block * channels)
        let scale = 1 / Float(channels)
        while true {
            let frames = Int(sf_readf_float(handle, &interleaved, sf_count_t(block)))
            if frames <= 0 { break }
            for frame in 0..<frames {
                var sum: Float = 0
                for channel in 0..<channels { sum += interleaved[frame * channels + channel] }
                samples.append(sum * scale)
            }
        }
        if sf_error(handle) != 0 {
            throw Failure(file: file, message: "damaged (\(String(cString: sf_strerror(handle)))): \(expected)")
        }
        guard !samples.isEmpty else { throw Failure(file: file, message: "no audio in the file: \(expected)") }
        return Audio(sampleRate: Int(info.samplerate), samples: samples, channels: channels)
    }

    /// The sizes of a data chunk (WAV's `data`, AIFF's `SSND`) that the file is too short for, from libsndfile's log
    /// of the header, where it writes "data : 19200 (should be 18200)".
    static func truncation(_ handle: OpaquePointer) -> (declared: Int, present: Int)? {
        var log = [CChar](repeating: 0, count: 16384)
        _ = sf_command(handle, Int32(SFC_GET_LOG_INFO), &log, Int32(log.count))
        let text = log.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        for line in text.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count == 6, words[0] == "data" || words[0] == "SSND", words[1] == ":", words[3] == "(should", words[4] == "be",
                words[5].hasSuffix(")"), let declared = Int(words[2]), let present = Int(words[5].dropLast())
            else { continue }
            return (declared, max(0, present))
        }
        return nil
    }

    /// Writes mono `samples` to `path` in the format its extension names (``Writer``). The file is written beside
    /// `path` and renamed over it when whole.
    public static func write(_ samples: [Float], sampleRate: Int, to path: String, floatingPoint: Bool = false) throws(Failure) {
        let writer = try Writer(path: path, sampleRate: sampleRate, floatingPoint: floatingPoint, keepsUnfinished: false)
        try samples.withUnsafeBufferPointer { (buffer) throws(Failure) in try writer.append(interleaved: buffer) }
        try writer.finish()
    }
}

/// Bytes in memory as libsndfile's virtual file. A WAV file is shown with only the chunks its audio needs (`fmt `,
/// `fact`, `data`, and nothing after the data): libsndfile 1.2's parser of metadata chunks (LIST, INFO) can spin for minutes on a size that lies
/// (libsndfile issue #1118; choir's fuzzer found a 228-byte file that held `sf_open` for over a minute), and choir
/// reads no metadata. Every other format is shown as it is.
private final class MemoryFile {
    /// The WAV header made of the chunks kept, before `rest`; empty for other formats.
    let head: [UInt8]
    /// The bytes after `head`: the data chunk's samples (as many as there are), or the whole file.
    let rest: UnsafeRawBufferPointer
    var offset = 0
    var count: Int { head.count + rest.count }

    /// Throws for a WAV file whose chunks cannot be followed to its data, saying which chunk runs past the end.
    init(_ bytes: UnsafeRawBufferPointer, file: String) throws(AudioFile.Failure) {
        func id(_ at: Int) -> String { String(decoding: bytes[at..<(at + 4)], as: UTF8.self) }
        func u32(_ at: Int) -> Int { Int(bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian) }
        guard bytes.count >= 12, id(0) == "RIFF", id(8) == "WAVE" else {
            (head, rest) = ([], bytes)
            return
        }
        var kept: [UInt8] = [], hasFormat = false, at = 12
        while at + 8 <= bytes.count {
            let name = id(at), size = u32(at + 4), body = at + 8
            if name == "data" && hasFormat {
                var head = Array("RIFF".utf8)
                withUnsafeBytes(of: UInt32(truncatingIfNeeded: 4 + kept.count + 8 + size).littleEndian) { head += $0 }
                head += Array("WAVE".utf8) + kept + bytes[at..<body]
                (self.head, rest) = (head, UnsafeRawBufferPointer(rebasing: bytes[body..<min(body + size, bytes.count)]))
                return
            }
            guard size <= bytes.count - body else {
                let shown = String(name.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
                let message = "damaged: its \"\(shown)\" chunk declares \(size) bytes but only \(bytes.count - body) remain"
                throw AudioFile.Failure(file: file, message: message + ": " + AudioFile.expected)
            }
            let end = body + size + (size & 1)
            if name == "fmt " || name == "fact" {
                kept += bytes[at..<min(end, bytes.count)]
                if end > bytes.count { kept.append(0) }
                hasFormat = hasFormat || name == "fmt "
            }
            at = end
        }
        throw AudioFile.Failure(file: file, message: "not a whole WAV file (no data chunk after a fmt chunk): \(AudioFile.expected)")
    }

    static func of(_ user: UnsafeMutableRawPointer?) -> MemoryFile { Unmanaged<MemoryFile>.fromOpaque(user!).takeUnretainedValue() }

    static let callbacks = SF_VIRTUAL_IO(
        get_filelen: { sf_count_t(MemoryFile.of($0).count) },
        seek: { offset, whence, user in
            let file = MemoryFile.of(user)
            let base = whence == SEEK_CUR ? file.offset : whence == SEEK_END ? file.count : 0
            let target = base + Int(offset)
            guard target >= 0 else { return -1 }
            file.offset = target
            return sf_count_t(target)
        },
        read: { destination, count, user in
            let file = MemoryFile.of(user)
            var copied = 0
            while copied < Int(count) && file.offset < file.count {
                let n: Int
                if file.offset < file.head.count {
                    n = min(Int(count) - copied, file.head.count - file.offset)
                    file.head.withUnsafeBytes {
                        destination!.advanced(by: copied).copyMemory(from: $0.baseAddress! + file.offset, byteCount: n)
                    }
                } else {
                    let at = file.offset - file.head.count
                    n = min(Int(count) - copied, file.rest.count - at)
                    destination!.advanced(by: copied).copyMemory(from: file.rest.baseAddress! + at, byteCount: n)
                }
                copied += n
                file.offset += n
            }
            return sf_count_t(copied)
        },
        write: { _, _, _ in 0 },
        tell: { sf_count_t(MemoryFile.of($0).offset) })
}
