import ChoirAudio
import ChoirPitch

/// Pitch tracks of recordings.
public enum PitchFile {
    /// Reads the WAV file at `path` and tracks it with `configuration(sampleRate)`; returns its sample rate, the
    /// configuration used and the frames.
    public static func track(_ path: String, configuration: (Int) -> PitchTrackerConfiguration) throws(SessionError)
        -> (sampleRate: Int, configuration: PitchTrackerConfiguration, frames: [PitchFrame])
    {
        let audio: AudioFile.Audio
        do { audio = try AudioFile.read(contentsOf: path) } catch { throw SessionError(reading: error) }
        let used = configuration(audio.sampleRate)
        do throws(PitchTrackerError) {
            return (audio.sampleRate, used, try PitchTrackers.track(signal: audio.samples, configuration: used))
        } catch {
            throw error.isWeights ? SessionError(.missing, "\(error)") : SessionError(.usage, "\(path): \(error)")
        }
    }
}
