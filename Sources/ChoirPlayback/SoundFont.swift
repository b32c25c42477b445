import ChoirFiles
import Glibc

/// Finding a General MIDI SoundFont.
public enum SoundFont {
    /// Where Debian's and other distributions' GM SoundFont packages put theirs.
    public static let systemPaths = [
        "/usr/share/sounds/sf2/FluidR3_GM.sf2", "/usr/share/sounds/sf2/default-GM.sf2",
        "/usr/share/soundfonts/default.sf2", "/usr/share/soundfonts/FluidR3_GM.sf2",
        "/usr/share/sounds/sf2/TimGM6mb.sf2",
    ]

    /// `explicit`, else `$CHOIR_SOUNDFONT`, else the first system path that exists.
    public static func locate(explicit: String?, environment: [String: String]) throws(PlaybackError) -> String {
        if let path = explicit ?? environment["CHOIR_SOUNDFONT"].flatMap({ $0.isEmpty ? nil : $0 }) {
            guard FileName.withPath(path, { access($0, R_OK) }) == 0 else {
                throw PlaybackError("\(path): no such SoundFont: expected a readable .sf2 file")
            }
            return path
        }
        if let found = systemPaths.first(where: { access($0, R_OK) == 0 }) { return found }
        throw PlaybackError(
            "no SoundFont found: expected one named explicitly, in CHOIR_SOUNDFONT, or installed with "
                + "`sudo apt-get install fluid-soundfont-gm`")
    }
}
