import ChoirModel

/// Why a scan stopped, in one line that names the file and what was expected.
public struct ScanError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable {
        /// A page file is missing or cannot be opened.
        case missing
        /// A page file is not a photograph or PDF that can be read.
        case input
        /// A tool the scan needs (pdftoppm) is not installed.
        case unavailable
        /// The model's server could not be asked, or refused.
        case model(ModelError.Kind)
        /// The model's MusicXML does not read even after the repair passes, or was cut off.
        case reply
        /// The output file cannot be written.
        case output
    }

    public var kind: Kind
    public var description: String
    /// The model's last reply when it could not be used, to be kept for the singer to look at.
    public var rejected: String?

    public init(_ kind: Kind, _ description: String, rejected: String? = nil) {
        self.kind = kind
        self.description = description
        self.rejected = rejected
    }

    init(_ error: ModelError) { self.init(.model(error.kind), error.description) }
}
