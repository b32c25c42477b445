import CFluidSynth

/// The FluidSynth library choir is linked against.
public enum FluidSynth {
    /// The run-time version of libfluidsynth, e.g. "2.3.1".
    public static var version: String { String(cString: fluid_version_str()) }

    /// Silences FluidSynth's own messages. It would print from the audio thread (a stolen voice, a full
    /// event queue), and every failure choir cares about it reports itself, as one line.
    static let silenced: Void = {
        for level in 0..<Int32(LAST_LOG_LEVEL.rawValue) { fluid_set_log_function(level, nil, nil) }
    }()
}
