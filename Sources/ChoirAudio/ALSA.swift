import CALSA

/// The ALSA library choir is linked against.
public enum ALSA {
    /// The run-time version of libasound, e.g. "1.2.8".
    public static var version: String { String(cString: snd_asoundlib_version()) }
}
