import ChoirAudio
import ChoirFiles
import ChoirPlayback

/// A score's mix written to a file, faster than real time.
public enum MixRender {
    /// What a mix file holds, by its name's extension.
    public enum Format: Sendable {
        case wav, midi

        /// The format a file named `path` is written in: `.wav`, or `.mid`/`.midi`; nil for any other name.
        public init?(file path: String) {
            let path = path.lowercased()
            if path.hasSuffix(".mid") || path.hasSuffix(".midi") {
                self = .midi
            } else if path.hasSuffix(".wav") {
                self = .wav
            } else {
                return nil
            }
        }
    }

    /// Writes the mix of `resolved` to `path` as `format` says (``wav(_:to:sampleRate:progress:)``,
    /// ``midi(_:to:)``).
    public static func write(
        _ resolved: ResolvedPlayback, as format: Format, to path: String, sampleRate: Int, progress: (Int, Int) -> Void = { _, _ in }
    ) throws(SessionError) {
        switch format {
        case .wav: try wav(resolved, to: path, sampleRate: sampleRate, progress: progress)
        case .midi: try midi(resolved, to: path)
        }
    }

    /// Renders the mix of `resolved` into the WAV file `path`, which keeps what it held until the new mix is
    /// whole. `progress` hears the frames done and the total as it goes.
    public static func wav(_ resolved: ResolvedPlayback, to path: String, sampleRate: Int, progress: (Int, Int) -> Void = { _, _ in })
        throws(SessionError)
    {
        let mix = try MixOutput(.file(path), resolved: resolved, sampleRate: sampleRate)
        let total = mix.renderer!.totalFrames
        var done = 0
        while done < total {
            done = min(total, done + sampleRate)
            try mix.advance(toFrame: done)
            progress(done, total)
        }
        try mix.finish()
    }

    /// Writes the same mix as a standard MIDI file, whole or not at all.
    public static func midi(_ resolved: ResolvedPlayback, to path: String) throws(SessionError) {
        let bytes = MIDIFile.encode(
            resolved.schedule, lineNames: resolved.lines.map(\.name), programs: resolved.programs, mixer: resolved.mixer)
        do {
            let file = try ReplacingFile(path: path)
            try file.write(bytes)
            try file.commit()
        } catch {
            throw SessionError(.output, "\(error)")
        }
    }
}
