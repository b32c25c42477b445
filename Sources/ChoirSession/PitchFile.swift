import ChoirAudio
import ChoirPitch

/// Pitch tracks of recordings.
public enum PitchFile {
    /// Reads the WAV file at `path` and tracks it with `configuration(sampleRate)`; returns its sample rate, the
    /// configuration used and the frames.
    public static func track(_ path: String, configuration: (Int) -> PitchTracker.Configuration) throws(SessionError)
        -> (sampleRate: Int, configuration: PitchTracker.Configuration, frames: [PitchFrame])
    {
        let audio: WAVFile.Audio
        do { audio = try AudioFile.read(contentsOf: path) } catch { throw SessionError(reading: error) }
        let used = configuration(audio.sampleRate)
        do {
            return (audio.sampleRate, used, try PitchTracker.track(signal: audio.samples, configuration: used))
        } catch {
            throw SessionError(.usage, "\(path): \(error)")
        }
    }
}
