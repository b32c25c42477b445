/// A score that cannot be read, with where and what was expected: printed on one line as
/// `FILE:LINE:COLUMN: message` (or `FILE: message` where there is no position).
public struct ScoreError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var line: Int?
    public var column: Int?
    public var message: String
    /// The file could not be opened at all (missing or not readable), rather than read and found wrong.
    public var unreadable: Bool

    public init(file: String, line: Int? = nil, column: Int? = nil, message: String, unreadable: Bool = false) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.unreadable = unreadable
    }

    /// An error at a byte offset of a UTF-8 document, located by line and column (in characters).
    init(file: String, document: [UInt8], offset: Int, message: String) {
        var line = 1, column = 1
        var i = 0
        let end = min(offset, document.count)
        while i < end {
            let b = document[i]
            if b == 0x0A || (b == 0x0D && (i + 1 >= document.count || document[i + 1] != 0x0A)) {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 && b != 0x0D {
                column += 1
            }
            i += 1
        }
        self.init(file: file, line: line, column: column, message: message)
    }

    public var description: String {
        var where_ = file
        if let line { where_ += ":\(line)" }
        if let column { where_ += ":\(column)" }
        return "\(where_): \(message)"
    }
}
