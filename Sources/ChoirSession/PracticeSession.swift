import ChoirAudio
import ChoirBase
import ChoirPitch
import ChoirPractice

/// A practice session: the mix out, the singer's voice in, every note judged on one clock whose zero is the first
/// beat of the practised range, and the session kept in the history as it goes.
///
/// A front end builds it from a ``PracticePlan`` (devices and files are opened there, so that their errors come
/// first), subscribes to its ``events()``, calls ``start()``, sends ``SessionCommand``s, may ``cancel()``, and gets the
/// report as the last event or from ``wait()``. The session runs on a thread of its own, which turns what the
/// real-time threads leave in their rings into events; every member may be used from any thread.
///
/// The session coordinates and makes the report; each job is a part it owns. `TakeInput` or `LiveInput` opens where
/// the singing comes from; on the session's thread `TakeRun` or `LiveRun` judges it, handing the history what is
/// new through a `HistoryFeed` and the front ends what changed through a `SessionPublisher`; commands and a cancel
/// reach the run through a `SessionInbox`.
public final class PracticeSession: @unchecked Sendable {
    /// How a session ended.
    public enum Ending: Sendable, Equatable {
        /// The range was sung to its end.
        case completed
        /// The singer sent ``SessionCommand/quit``.
        case quit
        /// ``cancel()`` was called (a signal, a closed window).
        case cancelled
        /// Something failed; what was judged until then is reported and kept all the same.
        case failed(SessionError)

        /// The failure that ended the session, if one did.
        public var failure: SessionError? { if case .failed(let error) = self { error } else { nil } }
    }

    /// A finished session: its report and how it ended.
    public struct Outcome: Sendable {
        public var report: SessionReport
        public var ending: Ending
        /// Why the history could not be kept, if it could not.
        public var historyFailure: String?
        /// The microphone's recording (``PracticePlan/record``): its file, its length in seconds, and why it
        /// stopped early, if it did.
        public var recording: RecordedTake?
        /// The file the mix was written to (``PracticePlan/output``), once it is in place.
        public var mixFile: String?

        /// What is left to say once the session has ended, in order: a history failure other than `known` (said as
        /// the session began), the failure that ended it, where the mix was written, and where its recording is
        /// with how to judge it again (``RecordedTake/notice(arguments:)``, from `arguments`, the session's command
        /// line).
        public func notices(known: String?, arguments: [String]) -> [String] {
            var notices: [String] = []
            if let failure = historyFailure, failure != known { notices.append("\(failure); the history stops here") }
            if let failure = ending.failure { notices.append("\(failure); the session ends here") }
            if let mixFile { notices.append("wrote the mix to \(mixFile)") }
            if let recording { notices.append(recording.notice(arguments: arguments)) }
            return notices
        }
    }

    public let plan: PracticePlan
    public let resolved: ResolvedPlayback
    /// The singer's notes in the range, on the score's clock (of a take, those it may hold).
    public let notes: [ExpectedNote]
    /// All the singer's notes in the range, a take's or not: what a take too short for them leaves unsung.
    private let range: [ExpectedNote]
    /// The report as it starts: what is practised, with no verdicts yet.
    public let header: SessionReport
    /// Seconds from the centre of the analysis window to its newest sample (live; 0 for a take).
    public let halfWindow: Double
    /// Why the history cannot be kept, when that is known at the start.
    public var historyFailure: String? { recorder?.failure }
    /// The session's number in the history (as `choir history` lists it), when it is kept there.
    public var historySession: Int64? { recorder?.stored }

    /// Seconds taken off the microphone's time (the round trip from loudspeaker to microphone), as judged.
    public let latency: Double
    private let source: Source
    private let recorder: SessionRecorder?
    private let broadcaster: EventBroadcaster<SessionEvent, SessionSnapshot>
    private let inbox = SessionInbox()
    private let result = Locked<Outcome?>(nil)
    private let thread = Locked<StreamThread?>(nil)

    /// Where the singing comes from: opened at construction, run on the session's thread.
    private enum Source {
        case take(TakeInput)
        case live(LiveInput)
    }

    /// Resolves `plan` and opens its input and output.
    public convenience init(_ plan: PracticePlan) throws(SessionError) {
        let resolved = try plan.playback.resolve()
        let header = try Self.header(plan, resolved)
        try self.init(plan, resolved: resolved, header: header, recorder: plan.history.map { SessionRecorder(path: $0, header: header) })
    }

    /// A session whose results go to `recorder`, which may be shared by several sessions (a drill's passes).
    init(_ plan: PracticePlan, resolved: ResolvedPlayback, header: SessionReport, recorder: SessionRecorder?) throws(SessionError) {
        self.plan = plan
        self.resolved = resolved
        self.recorder = recorder
        let range = ExpectedNote.notes(of: resolved.singers, in: resolved.schedule, score: resolved.score, divisi: plan.divisi)
        var notes = range
        guard !notes.isEmpty else {
            throw SessionError(.usage, "\(plan.playback.score): \(resolved.part!) has no notes to sing in this range")
        }
        let rate = plan.sampleRate
        guard (8000...192_000).contains(rate) else { throw SessionError(.usage, "sample rate \(rate) Hz: expected 8000 to 192000 Hz") }
        switch plan.input {
        case .take(let path):
            guard plan.record == nil else {
                throw SessionError(.usage, "--record keeps what a live microphone hears: expected --input DEVICE, not a take")
            }
            latency = plan.latency ?? 0
            // The learned tracker's weights are read before the take, so that a missing file is said first.
            if plan.tracker.usesNetwork(accompanied: plan.accompanied) {
                do throws(PitchTrackerError) {
                    _ = try PitchNetWeights.located()
                } catch {
                    throw SessionError(.missing, "\(error)")
                }
            }
            let take = try TakeInput(path, plan: plan, resolved: resolved, latency: latency)
            // A take shorter than the range is judged up to its end: the notes it holds whole (a take moved to fit
            // the score may hold a few more or fewer, which the session finds once it has heard it).
            let end = take.audio.duration - resolved.schedule.preroll - latency + (plan.aligns ? TakeAlignment.reach : 0)
            let covered = notes.prefix { $0.onset + $0.duration <= end }
            guard !covered.isEmpty else {
                throw SessionError(
                    .input,
                    "\(path): the take is \(String(printf: "%.1f", take.audio.duration)) s long: expected at "
                        + "least \(String(printf: "%.1f", notes[0].onset + notes[0].duration + resolved.schedule.preroll + latency)) s, "
                        + "to the end of the first note of the practised range")
            }
            notes = Array(covered)
            source = .take(take)
            halfWindow = 0
        case .device(let device):
            // A calibrated round trip applies only when the mix is played: a written mix is on the capture's clock.
            var stored: Double?
            if case .device(let output) = plan.output { stored = LatencyStore.stored(output: output, input: device).map { $0 / 1000 } }
            latency = plan.latency ?? stored ?? 0
            let live = try LiveInput(device, plan: plan, resolved: resolved, notes: notes)
            source = .live(live)
            halfWindow = Double(live.configuration.window) / 2 / Double(rate)
        }
        self.notes = notes
        self.range = range
        self.header = header
        var start = SessionSnapshot()
        start.tempo = resolved.schedule.initialTempo
        start.locked = plan.locked
        start.passes = resolved.schedule.passes
        start.next = notes.first
        start.time = -resolved.schedule.preroll
        if case .live(let live) = source { start.judgeDelay = live.judging?.delay }
        broadcaster = EventBroadcaster(start)
    }

    /// The report of a session of `plan` before anything is judged.
    static func header(_ plan: PracticePlan, _ resolved: ResolvedPlayback) throws(SessionError) -> SessionReport {
        guard let part = resolved.part else {
            throw SessionError(.usage, "\(plan.playback.score): a practice session needs the singer's line: expected a line to sing")
        }
        var report = SessionReport(
            score: plan.playback.score, part: part, tempo: resolved.schedule.initialTempo,
            tempoPercent: plan.playback.tempoPercent ?? 100, options: plan.options, results: [], trace: [],
            measureStarts: resolved.schedule.measures.map {
                MeasureMark(number: resolved.score.measures[$0.index].number, time: $0.start)
            })
        report.title = resolved.title
        report.identity = resolved.identity
        report.transpose = plan.playback.transpose
        report.verse = plan.playback.verse
        report.lyrics = resolved.schedule.lyrics
        // Chords in the singer's own lines: one of their notes is judged, and the report says which.
        let chords = ExpectedNote.chords(of: resolved.singers, in: resolved.schedule).count { Set($0.map(\.midi)).count > 1 }
        if chords > 0 { report.divisi = SessionReport.DivisiChoice(note: plan.divisi, chords: chords) }
        report.kind = plan.input.isTake ? .file : .live
        // The singer's marks on these measures (a history that cannot be read has none to give).
        if let history = plan.history,
            let marks = try? PracticeHistory(path: history).marks(of: resolved.identity, lines: report.lines)
        {
            report.keep(marks)
        }
        return report
    }

    /// Starts the session on its own thread.
    public func start() throws(SessionError) {
        do {
            let started = try StreamThread("session") { [self] in finish(run()) }
            thread.withLock { $0 = started }
        } catch {
            // The session's subscribers (a drill waiting on its pass, a page) hear that it ended, as they would
            // had it failed on its thread.
            let failure = SessionError(.audio, "\(error)")
            let outcome = Outcome(report: header, ending: .failed(failure), historyFailure: recorder?.failure, recording: nil)
            result.withLock { $0 = outcome }
            broadcaster.finish(with: .ended(outcome))
            throw failure
        }
    }

    /// What happens in the session from now on, as it happens: each call gives a stream of its own (see
    /// ``EventBroadcaster`` for how much a slow subscriber may fall behind).
    public func events() -> AsyncStream<SessionEvent> { broadcaster.subscribe() }

    /// The monotonic clock of ``SessionSnapshot/heard``, now, in nanoseconds.
    public static func clock() -> Int { AudioClock.now() }

    /// Queues a command for the session's thread.
    public func send(_ command: SessionCommand) { inbox.send(command) }

    /// Ends the session as sung so far; ``wait()`` then returns its report.
    public func cancel() { inbox.cancel() }

    /// Waits for the session to end and returns its report; every verdict is in the history by then.
    public func wait() -> Outcome {
        thread.withLock { $0 }?.joinWhenDone()
        if let outcome = result.withLock({ $0 }) { return outcome }
        // Never started: nothing was judged.
        return Outcome(report: header, ending: .cancelled, historyFailure: recorder?.failure, recording: nil)
    }

    /// Runs the session on its thread, until the range is sung, it is quit or cancelled, or it fails.
    private func run() -> SessionRun {
        let (feed, publisher) = (HistoryFeed(recorder), SessionPublisher(broadcaster, resolved: resolved, notes: notes))
        switch source {
        case .take(let take):
            var run = TakeRun(
                input: take, plan: plan, resolved: resolved, notes: notes, range: range, latency: latency, inbox: inbox, feed: feed,
                publisher: publisher)
            return run.run()
        case .live(let live):
            var run = LiveRun(
                input: live, plan: plan, resolved: resolved, notes: notes, latency: latency, inbox: inbox, feed: feed,
                publisher: publisher)
            return run.run()
        }
    }

    /// Makes the report of `run`, closes the history, and publishes what is left and the outcome last.
    private func finish(_ run: SessionRun) {
        var report = header
        report.results = run.results
        report.trace = run.trace
        report.audio = run.audio
        report.alignment = run.alignment
        report.unsung = run.unsung
        // Ended before its range was done (quit, a signal, a closed window, a failure), the session is kept as
        // interrupted with what was sung, saying where it stopped.
        if run.ending != .completed, let place = run.place {
            report.interruption = SessionReport.Interruption(
                measure: place.measure, pass: place.pass, passes: resolved.schedule.passes, notes: range.count
            )
        }
        recorder?.finish(audio: run.audio, interrupted: report.interruption, aligned: run.alignment)
        let outcome = Outcome(
            report: report, ending: run.ending, historyFailure: recorder?.failure, recording: run.recording, mixFile: run.mixFile)
        result.withLock { $0 = outcome }
        for judged in run.results[min(run.published, run.results.count)...] { broadcaster.publish(.judged(judged)) }
        if let audio = run.audio { broadcaster.publish(.audio(audio)) }
        broadcaster.finish(with: .ended(outcome))
    }
}
