import Foundation
import Glibc

/// What a child process prints, line by line, each with the moment it arrived: for comparing when two processes
/// said something, on one clock.
final class StampedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var partial = Data()
    private var stamped: [(seconds: Double, line: String)] = []
    private var ended = false

    /// Starts reading `pipe` as it fills.
    init(_ pipe: Pipe) {
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            let now = Self.now()
            guard let self else { return }
            if data.isEmpty { handle.readabilityHandler = nil }
            self.lock.withLock {
                self.partial.append(data)
                while let newline = self.partial.firstIndex(of: 0x0A) {
                    self.stamped.append((now, String(decoding: self.partial[..<newline], as: UTF8.self)))
                    self.partial.removeSubrange(...newline)
                }
                self.ended = data.isEmpty
            }
        }
    }

    /// The lines read so far, with the moment each arrived (seconds on the monotonic clock).
    var lines: [(seconds: Double, line: String)] { lock.withLock { stamped } }

    /// Waits up to `seconds` for the lines read so far to satisfy `condition`; returns whether they did.
    @discardableResult
    func wait(within seconds: Double = 10, _ condition: ([String]) -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while !condition(lines.map(\.line)) {
            guard Date() < end else { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }

    /// Everything the pipe carried, once its writers have closed it (waiting up to `seconds` for that), a line
    /// ending in "\n" and an unfinished one as it was.
    func text(within seconds: Double = 10) -> String {
        let end = Date().addingTimeInterval(seconds)
        while !lock.withLock({ ended }) && Date() < end { Thread.sleep(forTimeInterval: 0.01) }
        return lock.withLock { stamped.map { $0.line + "\n" }.joined() + String(decoding: partial, as: UTF8.self) }
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
