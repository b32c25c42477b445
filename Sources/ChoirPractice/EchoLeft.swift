import ChoirPitch
import Glibc

/// How much of the mix's echo is left in the microphone once it has been taken out, as a share of the echo
/// taken out: the running median, over frames where nobody sings (not confidently voiced) and the echo taken out
/// was as loud as singing, of what the microphone still heard there over the echo taken out. A frame must stand
/// above what is left to be the singer (``NoteComparator/isSung(_:)``).
public struct EchoLeft: Sendable, Equatable {
    /// The share, 0.5 until learned.
    public private(set) var share = 0.5

    public init() {}

    /// Learns from `frame`, whose ``PitchFrame/accompaniment`` is the RMS of the echo taken out over its window;
    /// `floor` is the quietest the singer sings (``LevelGate/threshold``): a fainter echo says little.
    public mutating func learn(from frame: PitchFrame, floor: Double) {
        guard frame.confidence < 0.5, frame.accompaniment > max(floor, 1e-6), frame.level > 0 else { return }
        // A step towards the frame's share, always the same size: the share settles where as many frames lie
        // above it as below, their median.
        share = min(1, max(0.01, share * (frame.level / frame.accompaniment > share ? 1.02 : 1 / 1.02)))
    }

}
