import ChoirPractice
import Dispatch
import FoundationEssentials
import ChoirAudio

/// Keeps a session in the practice history as it runs. The session's thread hands over verdicts and the sung
/// trace; a queue of the recorder's own writes them, so that a slow or locked database never holds up the thread
/// that drains the microphone. A history that cannot be used stops the recording and says why, once.
///
/// One recorder can take several runs (a drill's passes): each run's passes follow the ones before, its times
/// placed on the session's clock.
final class SessionRecorder: Sendable {
    private let history: PracticeHistory?
    private let session: Int64
    private let queue = DispatchQueue(label: "choir.history")
    private let state: Locked<State>

    private struct State {
        var failure: String?
        var passBase = 0
        var highestPass = 0
        var offset = 0.0
        var scale = 1.0
    }

    /// Opens the history at `path` and starts a session in it described by `header`.
    init(path: String, header: SessionReport) {
        var failure: String?
        var history: PracticeHistory?
        var session: Int64 = 0
        do {
            let opened = try PracticeHistory(path: path)
            session = try opened.begin(header)
            history = opened
        } catch {
            failure = "\(error)"
        }
        self.history = history
        self.session = session
        state = Locked(State(failure: failure))
    }

    /// The session's number in the history, if the history could be opened.
    var stored: Int64? { history == nil ? nil : session }

    /// Why the history is not being written, if it is not.
    var failure: String? { state.withLock { $0.failure } }

    /// Starts another run: its passes are numbered after those recorded so far, and its times (seconds from its
    /// range's first beat at its tempo) become `offset + scale × time` on the session's clock.
    func beginRun(offset: Double, scale: Double) {
        state.withLock {
            $0.passBase = $0.highestPass
            $0.offset = offset
            $0.scale = scale
        }
    }

    /// Queues results and trace points for writing.
    func add(_ results: some Collection<NoteResult>, trace: some Collection<TracePoint>) {
        guard let history, !results.isEmpty || !trace.isEmpty else { return }
        let (placedResults, placedTrace) = state.withLock { state -> ([NoteResult], [TracePoint]) in
            let placed = results.map { result in
                var placed = result
                placed.pass += state.passBase
                placed.note.onset = state.offset + state.scale * result.note.onset
                placed.note.duration = state.scale * result.note.duration
                state.highestPass = max(state.highestPass, placed.pass)
                return placed
            }
            return (placed, trace.map { TracePoint(time: state.offset + state.scale * $0.time, midi: $0.midi) })
        }
        let session = self.session
        queue.async { [self] in
            guard self.failure == nil else { return }
            do { try history.record(placedResults, trace: placedTrace, session: session) } catch { fail(error) }
        }
    }

    /// Marks the session ended, with how its audio fared (and where it stopped, if it was interrupted), and waits
    /// until everything queued is written.
    func finish(audio: AudioHealth?, interrupted: SessionReport.Interruption? = nil) {
        let session = self.session
        queue.sync { [self] in
            guard let history, self.failure == nil else { return }
            do { try history.finish(session: session, audio: audio, interrupted: interrupted) } catch { fail(error) }
        }
    }

    private func fail(_ error: any Error) {
        state.withLock { $0.failure = $0.failure ?? "\(error)" }
    }
}
