import ChoirAudio
import ChoirPitch
import ChoirPlayback

/// The libraries under the engine, for a front end's version line.
public enum Engine {
    public static var libraries: String { "FluidSynth \(FluidSynth.version), ALSA \(ALSA.version), \(FFTW.version)" }
}
