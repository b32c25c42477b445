import ChoirAudio
import ChoirBase

/// What a live session's microphone heard, kept in a file on the mix's time line: its sample 0 is the mix's
/// first frame (the count-in's first click, when there is one), as a take read with `--input` is, so that
/// judging the file again with the session's latency gives the session's verdicts. Written by the session's
/// analysis thread as each hop arrives, before the loudspeakers' echo is taken out of it; never by a real-time
/// thread.
final class TakeRecording {
    private let writer: AudioFile.Writer
    private let sampleRate: Int
    /// Mix frames written so far.
    private var reached = 0
    private var failure: String?

    init(path: String, sampleRate: Int) throws(SessionError) {
        do { writer = try AudioFile.Writer(path: path, sampleRate: sampleRate) } catch { throw SessionError(.output, "\(error)") }
        self.sampleRate = sampleRate
    }

    /// Adds a hop of captured samples whose first was heard at mix frame `frame`. A gap (samples the capture ring
    /// dropped, or the streams' offset moving on) is kept as silence and an overlap left out, so that the file
    /// stays on the mix's time line; what came before the mix's first frame is left out.
    func add(_ hop: UnsafeBufferPointer<Float>, at frame: Int) {
        guard failure == nil, frame + hop.count > reached else { return }
        do {
            if frame > reached { try writer.appendSilence(frame - reached) }
            let skip = max(0, reached - frame)
            try writer.append(interleaved: UnsafeBufferPointer(rebasing: hop[skip...]))
            reached = frame + hop.count
        } catch {
            failure = "\(error)"
        }
    }

    /// Closes the file under its name; the session judged it `latency` seconds early.
    func finish(latency: Double) -> RecordedTake {
        if failure == nil {
            do { try writer.finish() } catch { failure = "\(error)" }
        }
        // Cut short, what was written is kept under the partial name.
        let path = failure == nil ? writer.path : writer.path + ".partial"
        return RecordedTake(path: path, seconds: Double(writer.frames) / Double(sampleRate), latency: latency, failure: failure)
    }
}

/// A live session's recording, as it ended.
public struct RecordedTake: Sendable, Equatable {
    /// Where it is: the name asked for, or that name with ".partial" when it stopped early.
    public var path: String
    /// Its length, from the mix's first frame.
    public var seconds: Double
    /// The latency the session judged it with, in seconds: judged again with it, it gets the same verdicts.
    public var latency: Double
    /// Why the recording stopped before the session did, if it did (what was written is kept beside `path`).
    public var failure: String?

    public init(path: String, seconds: Double, latency: Double, failure: String?) {
        self.path = path
        self.seconds = seconds
        self.latency = latency
        self.failure = failure
    }

    /// Where the recording is, and the command that judges it again: the session's (`arguments`, its command line
    /// after `choir`), with the recording as its input, the session's latency, no alignment (the recording is on the
    /// session's clock already: a singer steadily late must stay late), and no mix or recording of its own.
    public func notice(arguments: [String]) -> String {
        let replaced: Set<String> = ["--record", "--input", "--input-device", "--output", "--device", "--latency"]
        var kept: [String] = []
        var skipNext = false
        for argument in arguments {
            if skipNext {
                skipNext = false
            } else if replaced.contains(argument) {
                skipNext = true
            } else if !replaced.contains(where: { argument.hasPrefix($0 + "=") }) {
                kept.append(argument)
            }
        }
        let milliseconds = String(printf: "%.1f", latency * 1000)
        let align = kept.contains("--no-align") ? [] : ["--no-align"]
        let again = (["choir"] + kept + ["--input", path, "--latency=\(milliseconds)", "--output", "none"] + align).map(\.shellQuoted)
            .joined(separator: " ")
        let stopped = failure.map { "; it stopped early: \($0)" } ?? ""
        return "recorded \(String(printf: "%.1f", seconds)) s to \(path)\(stopped); judge it again with: \(again)"
    }
}
