import ChoirAudio
import ChoirScore

/// Why a session, a render or a calibration could not go on: one line for a person, and a kind a front end can
/// branch on.
public struct SessionError: Error, CustomStringConvertible, Equatable, Sendable {
    public enum Kind: Sendable, Equatable {
        /// An option is out of range, names what the score does not have, or conflicts with another.
        case usage
        /// An input file (a score or a take) is missing or cannot be read.
        case missing
        /// A score or a take was read and is not usable.
        case input
        /// An audio device cannot be opened: practise from files instead, or pick another device.
        case deviceUnavailable
        /// An audio device failed while it ran.
        case audio
        /// A file cannot be written.
        case output
        /// Calibration did not hear its sweeps clearly.
        case calibration
    }

    public var kind: Kind
    public var message: String
    public var description: String { message }

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// A score that could not be used: ``Kind/missing`` when it could not be opened, ``Kind/input`` otherwise.
    init(reading error: ScoreError) {
        self.init(error.unreadable ? .missing : .input, "\(error)")
    }

    /// A take that could not be used: ``Kind/missing`` when it could not be opened, ``Kind/input`` otherwise.
    init(reading error: AudioFile.Failure) {
        self.init(error.unreadable ? .missing : .input, "\(error)")
    }
}
