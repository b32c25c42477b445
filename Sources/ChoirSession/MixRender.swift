import ChoirAudio
import ChoirPlayback

/// A score's mix written to a file, faster than real time.
public enum MixRender {
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
