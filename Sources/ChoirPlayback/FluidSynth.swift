import CFluidSynth

/// The FluidSynth library choir is linked against.
public enum FluidSynth {
    /// The run-time version of libfluidsynth, e.g. "2.3.1".
    public static var version: String { String(cString: fluid_version_str()) }
}
