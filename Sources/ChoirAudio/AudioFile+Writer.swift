import ChoirFiles
import CSndFile
import Glibc

extension AudioFile {
    /// A recording written as it comes, block by block, in the format its name's extension names: .flac (16-bit),
    /// .ogg (Vorbis), .opus, .mp3, .aiff or .wav (16-bit, or 32-bit float). It is written beside `path` until
    /// ``finish()`` renames it over `path`: `path` is never half-written. A writer dropped unfinished either keeps
    /// what it wrote as `path` + ".partial" (a take cut short, whole up to where it stopped) or removes it (a render
    /// abandoned, written as a ``ReplacingFile``), as it was told. WAV and AIFF count their sizes in 32 bits: a file that would pass 4 GiB is refused
    /// rather than given a header that wraps.
    public final class Writer {
        public let path: String
        public let channels: Int
        public let sampleRate: Int
        /// Frames written so far.
        public private(set) var frames = 0
        private var handle: OpaquePointer?
        /// Where a writer that does not keep an unfinished file writes.
        private var replacing: ReplacingFile?
        private let keepsUnfinished: Bool
        /// The most sample bytes the format's header can count, and the bytes a frame takes; nil for formats without
        /// such a limit.
        private let limit: (bytes: Int, perFrame: Int)?
        private var interleaved: [Float] = []
        private var partial: String { path + ".partial" }

        /// The most sample bytes a canonical WAV header can count: its RIFF size is 36 more, in 32 bits.
        static let maximumDataSize = Int(UInt32.max) - 36

        /// Starts writing `path` (beside it until ``finish()``).
        public convenience init(
            path: String, channels: Int = 1, sampleRate: Int, floatingPoint: Bool = false, keepsUnfinished: Bool = true
        ) throws(Failure) {
            try self.init(
                path: path, channels: channels, sampleRate: sampleRate, floatingPoint: floatingPoint, keepsUnfinished: keepsUnfinished,
                maximumDataSize: Self.maximumDataSize)
        }

        init(path: String, channels: Int, sampleRate: Int, floatingPoint: Bool, keepsUnfinished: Bool, maximumDataSize: Int)
            throws(Failure)
        {
            let pcm = floatingPoint ? SF_FORMAT_FLOAT : SF_FORMAT_PCM_16
            let formats: [String: Int] = [
                "flac": SF_FORMAT_FLAC | SF_FORMAT_PCM_16, "ogg": SF_FORMAT_OGG | SF_FORMAT_VORBIS,
                "opus": SF_FORMAT_OGG | SF_FORMAT_OPUS, "mp3": SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III,
                "aiff": SF_FORMAT_AIFF | pcm, "wav": SF_FORMAT_WAV | pcm,
            ]
            assert(Set(formats.keys) == Set(AudioFile.writable))
            self.path = path
            self.channels = channels
            self.sampleRate = sampleRate
            self.keepsUnfinished = keepsUnfinished
            let suffix = AudioFile.suffix(path)
            guard let format = formats[suffix] else {
                throw Failure(
                    file: path, message: "unknown audio format: expected a name ending in .flac, .ogg, .opus, .mp3, .aiff or .wav")
            }
            limit = suffix == "wav" || suffix == "aiff" ? (maximumDataSize, channels * (floatingPoint ? 4 : 2)) : nil
            var info = SF_INFO()
            info.samplerate = Int32(sampleRate)
            info.channels = Int32(channels)
            info.format = Int32(format)
            let opened: OpaquePointer?
            if keepsUnfinished {
                opened = FileName.withPath(partial) { sf_open($0, Int32(SFM_WRITE), &info) }
            } else {
                do { replacing = try ReplacingFile(path: path) } catch { throw Failure(file: path, message: error.message) }
                opened = sf_open_fd(replacing!.descriptor!, Int32(SFM_WRITE), &info, Int32(SF_FALSE))
            }
            guard let opened else { throw unwritable(String(cString: sf_strerror(nil))) }
            // Integer samples past ±1 are clipped, not wrapped round to the other end.
            sf_command(opened, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
            handle = opened
        }

        // An unfinished replacing file removes itself.
        deinit { if let handle { sf_close(handle) } }

        /// Appends interleaved samples, `channels` to a frame.
        public func append(interleaved samples: UnsafeBufferPointer<Float>) throws(Failure) {
            guard let handle, !samples.isEmpty else { return }
            let count = samples.count / channels
            if let limit, (frames + count) * limit.perFrame > limit.bytes {
                let seconds = limit.bytes / (limit.perFrame * sampleRate)
                let kind = AudioFile.suffix(path) == "wav" ? "a WAV" : "an AIFF"
                throw Failure(
                    file: path, message: "would pass 4 GiB, the most \(kind) file holds: expected at most \(seconds) s at \(sampleRate) Hz")
            }
            let written = sf_writef_float(handle, samples.baseAddress, sf_count_t(count))
            // What was written before stays, in the partial file.
            guard written == sf_count_t(count) else { throw unwritable(String(cString: sf_strerror(handle)), keeping: true) }
            frames += count
        }

        /// Appends `count` stereo frames from two planar buffers.
        public func append(left: UnsafePointer<Float>, right: UnsafePointer<Float>, frames count: Int) throws(Failure) {
            precondition(channels == 2)
            if interleaved.count < 2 * count { interleaved = [Float](repeating: 0, count: 2 * count) }
            for i in 0..<count {
                interleaved[2 * i] = left[i]
                interleaved[2 * i + 1] = right[i]
            }
            try interleaved.withUnsafeBufferPointer { (buffer) throws(Failure) in
                try append(interleaved: UnsafeBufferPointer(rebasing: buffer[..<(2 * count)]))
            }
        }

        /// Appends `count` frames of silence.
        public func appendSilence(_ count: Int) throws(Failure) {
            let block = 4096
            if interleaved.count < block * channels { interleaved = [Float](repeating: 0, count: block * channels) }
            var left = count
            while left > 0 {
                let n = min(left, block)
                for i in 0..<(n * channels) { interleaved[i] = 0 }
                try interleaved.withUnsafeBufferPointer { (buffer) throws(Failure) in
                    try append(interleaved: UnsafeBufferPointer(rebasing: buffer[..<(n * channels)]))
                }
                left -= n
            }
        }

        /// Closes the file, with its sizes in its header, and renames it over `path`.
        public func finish() throws(Failure) {
            guard let handle else { return }
            self.handle = nil
            sf_close(handle)
            if let replacing {
                do { try replacing.commit() } catch { throw Failure(file: path, message: error.message) }
            } else if FileName.withPath(partial, { from in FileName.withPath(path) { rename(from, $0) } }) != 0 {
                throw unwritable(String(cString: strerror(errno)))
            }
        }

        private func unwritable(_ reason: String, keeping: Bool = false) -> Failure {
            if let handle { sf_close(handle) }
            handle = nil
            replacing = nil
            if keepsUnfinished && !keeping { _ = FileName.withPath(partial, unlink) }
            return Failure(file: path, message: "cannot be written (\(reason)): expected a writable path")
        }
    }
}
