/// A progress bar on standard error, for terminals.
public struct ProgressBar {
    private var shown = -1

    /// A bar not yet drawn.
    public init() {}

    /// Draws `done` of `total` as a percentage, when the whole percent has changed.
    public mutating func update(_ done: Int, of total: Int) {
        let percent = total > 0 ? done * 100 / total : 100
        guard percent != shown else { return }
        shown = percent
        let filled = percent * 30 / 100
        FileOutput.write(
            "\r[" + String(repeating: "█", count: filled) + String(repeating: " ", count: 30 - filled) + "] \(percent)%", to: 2)
    }

    /// Clears the bar's line.
    public func finish() {
        FileOutput.write("\r\u{1B}[2K", to: 2)
    }
}
