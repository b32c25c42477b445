import ChoirAudio
import ChoirPlayback
import FoundationEssentials

/// A score's mix written to a file, faster than real time.
public enum MixRender {
    /// Renders the mix of `resolved` into the WAV file `path`, which keeps what it held until the new mix is
    /// whole. `progress` hears the frames done and the total after each block.
    public static func wav(_ resolved: ResolvedPlayback, to path: String, sampleRate: Int, progress: (Int, Int) -> Void = { _, _ in })
        throws(SessionError)
    {
        let renderer: SynthRenderer
        do {
            renderer = try SynthRenderer(
                soundFont: resolved.soundFont, sampleRate: sampleRate, schedule: resolved.schedule,
                programs: resolved.programs, mixer: resolved.mixer, blockSize: 4096)
        } catch {
            throw SessionError(.input, "\(error)")
        }
        let writer: WAVWriter
        do { writer = try WAVWriter(path: path, channels: 2, sampleRate: sampleRate) } catch { throw SessionError(.output, "\(error)") }
        let block = 4096
        var left = [Float](repeating: 0, count: block), right = left
        while !renderer.isFinished {
            var failure: WAVFile.Failure?
            left.withUnsafeMutableBufferPointer { l in
                right.withUnsafeMutableBufferPointer { r in
                    let count = renderer.render(left: l.baseAddress!, right: r.baseAddress!, frames: block)
                    do throws(WAVFile.Failure) { try writer.append(left: l.baseAddress!, right: r.baseAddress!, frames: count) } catch { failure = error }
                }
            }
            if let failure { throw SessionError(.output, "\(failure)") }
            progress(renderer.position, renderer.totalFrames)
        }
        do { try writer.finish() } catch { throw SessionError(.output, "\(error)") }
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
