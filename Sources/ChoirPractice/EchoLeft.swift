import ChoirPitch
import Glibc

/// How much of the mix's echo is left in the microphone once it has been taken out, as a share of the echo
/// taken out: the running median, over frames where nobody sings and the echo taken out was as loud as singing,
/// of what the microphone still heard there over the echo taken out. Nobody sings in the singer's rests, and
/// where nothing periodic is heard (not confidently voiced: the room between notes, or breath and consonants,
/// which only make the share larger, and the judge stricter). A frame must stand above what is left to be the
/// singer (``NoteComparator/isSung(_:)``).
public struct EchoLeft: Sendable, Equatable {
    /// The share: all of it, until learned otherwise.
    public private(set) var share = 1.0

    public init() {}

    /// Learns from `frame`, whose ``PitchFrame/accompaniment`` is the RMS of the echo taken out over its window, if
    /// nobody sings in it: the singer `resting`, or nothing periodic heard. `floor` is the quietest the singer
    /// sings (``LevelGate/threshold``): a fainter echo says little.
    public mutating func learn(from frame: PitchFrame, resting: Bool, floor: Double) {
        guard resting || frame.confidence < 0.5, frame.accompaniment > max(floor, 1e-6), frame.level > 0 else { return }
        // A step towards the frame's share, always the same size: the share settles where as many frames lie
        // above it as below, their median.
        share = min(1, max(0.01, share * (frame.level / frame.accompaniment > share ? 1.02 : 1 / 1.02)))
    }

}
