/// Why a session, a render or a calibration could not go on: one line for a person, and a kind a front end can
/// branch on.
public struct SessionError: Error, CustomStringConvertible, Equatable, Sendable {
    public enum Kind: Sendable, Equatable {
        /// The score, a line, an option of the plan or a take is not usable.
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
}
