import ChoirBase
import ChoirPractice
import Dispatch
import FoundationEssentials
import ChoirAudio

/// Keeps a session in the practice history as it runs. The session's thread hands over verdicts and the sung
/// trace; a queue of the recorder's own writes them, so that a slow or locked database never holds up the thread
/// that drains the microphone. A history that cannot be used stops the recording and says why, once.
///
/// Only a session in which something is sung is kept: the session is begun in the history at the first note heard
/// or pitch traced, with what was judged before it; one that never gets so far (no take, no device, nothing sung)
/// leaves nothing.
///
/// One recorder can take several runs (a drill's passes): each run's passes follow the ones before, its times
/// placed on the session's clock.
final class SessionRecorder: Sendable {
    private let history: PracticeHistory?
    private let header: SessionReport
    private let started = Date()
    private let queue = DispatchQueue(label: "choir.history")
    private let state: Locked<State>

    private struct State {
        var failure: String?
        var passBase = 0
        var highestPass = 0
        var offset = 0.0
        var scale = 1.0
        /// The session's number, once begun.
        var session: Int64?
        /// What was judged before anything was sung, kept for when something is.
        var waiting: (results: [NoteResult], trace: [TracePoint]) = ([], [])
    }

    /// Opens the history at `path`, for a session described by `header`; one that could not be written now is
    /// said at once.
    init(path: String, header: SessionReport) {
        var failure: String?
        do {
            let opened = try PracticeHistory(path: path)
            try opened.checkWritable()
            history = opened
        } catch {
            history = nil
            failure = "\(error)"
        }
        self.header = header
        state = Locked(State(failure: failure))
    }

    /// The session's number in the history, once something was sung and it was kept.
    var stored: Int64? { state.withLock { $0.session } }

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
        queue.async { [self] in
            guard self.failure == nil else { return }
            // Before anything is sung the results wait; the first sung note or traced pitch begins the session.
            let (session, results, trace) = state.withLock { state -> (Int64?, [NoteResult], [TracePoint]) in
                state.waiting.results += placedResults
                state.waiting.trace += placedTrace
                let sung = !state.waiting.trace.isEmpty || state.waiting.results.contains { $0.verdict != .missing }
                guard state.session != nil || sung else { return (nil, [], []) }
                defer { state.waiting = ([], []) }
                return (state.session, state.waiting.results, state.waiting.trace)
            }
            guard !results.isEmpty || !trace.isEmpty else { return }
            do {
                let id = try session ?? history.begin(header, started: started)
                state.withLock { $0.session = id }
                try history.record(results, trace: trace, session: id)
            } catch { fail(error) }
        }
    }

    /// Marks the session ended, with how its audio fared and, if it ended before its range was done, where it
    /// stopped (it is kept as interrupted, with what was sung), and waits until everything queued is written; a
    /// session in which nothing was sung is not kept.
    func finish(audio: AudioHealth?, interrupted: SessionReport.Interruption? = nil, aligned: Double? = nil) {
        queue.sync { [self] in
            guard let history, self.failure == nil, let session = stored else { return }
            do { try history.finish(session: session, audio: audio, interrupted: interrupted, aligned: aligned) } catch { fail(error) }
        }
    }

    private func fail(_ error: any Error) {
        state.withLock { $0.failure = $0.failure ?? "\(error)" }
    }
}
