import ChoirPractice
import FoundationEssentials

/// A drill: the weakest passages of the singer's latest session (or of a first pass), each looped with a count-in
/// from a slower tempo, a step faster after every pass sung well enough, until a pass at the full tempo is; at most
/// eight passes a passage. Every pass is a live ``PracticeSession``, and all of them are one session in the history,
/// pass after pass, placed on the whole range's clock. ``DrillSession`` runs it.
final class PracticeDrill: @unchecked Sendable {
    let plan: PracticePlan
    /// The singer's line's name.
    let part: String
    /// The passages to drill, weakest first; empty until known (see ``needsFirstPass``).
    private(set) var passages: [Drill.Passage] = []
    /// Whether no session of the line was in the history to learn the passages from.
    let needsFirstPass: Bool
    private let resolved: ResolvedPlayback
    private let header: SessionReport
    private let recorder: SessionRecorder?
    /// Each passage's ladder as it starts: the start tempo, the step, the pass mark, the most passes.
    private let ladder: Drill
    private var current = 0
    private var drill: Drill
    /// The recordings still to judge, one per pass, when the singer is not the capture device.
    private var takes: [String]
    private let recordings: Int

    /// Prepares a drill of `plan`'s line, each passage climbing `ladder` (from its tempo, in percent of the plan's),
    /// sung into the plan's capture device or, given `takes`, recorded one per pass. Given a `passage`, that one
    /// alone is drilled; else the weakest of the latest session in the history, or of a first pass.
    init(_ plan: PracticePlan, ladder: Drill, passage: Drill.Passage?, takes: [String]) throws(SessionError) {
        guard case .device = plan.input else {
            throw SessionError(.usage, "--drill needs a live microphone: expected --input DEVICE, not a take")
        }
        self.takes = takes
        recordings = takes.count
        self.plan = plan
        self.ladder = ladder
        drill = ladder
        resolved = try plan.playback.resolve()
        var header = try PracticeSession.header(plan, resolved)
        header.kind = .drill
        self.header = header
        part = header.part
        if let passage {
            // A passage the score does not have is refused now, in the words of `--from`/`--to`.
            var chosen = plan.playback
            (chosen.from, chosen.to) = (passage.first, passage.last)
            _ = try chosen.resolve()
            passages = [passage]
        } else if let path = plan.history, FileManager.default.fileExists(atPath: path),
            let latest = try? PracticeHistory(path: path).latestReport(of: resolved.identity, part: header.part)
        {
            passages = Drill.passages(of: latest)
        }
        needsFirstPass = passages.isEmpty
        recorder = plan.history.map { SessionRecorder(path: $0, header: header) }
    }

    /// Why the history is not being written, if it is not.
    var historyFailure: String? { recorder?.failure }

    /// A session over the whole range, to find the weakest measures; give its report to ``learn(from:)``.
    func firstPass() throws(SessionError) -> PracticeSession {
        var pass = plan
        pass.input = try input()
        recorder?.beginRun(offset: 0, scale: 1)
        return try PracticeSession(pass, resolved: resolved, header: header, recorder: recorder)
    }

    /// Takes the passages to drill from a first pass.
    func learn(from report: SessionReport) {
        passages = Drill.passages(of: report)
        current = 0
    }

    /// The passage being drilled and the tempo of its next pass, in percent of the plan's.
    var upcoming: (passage: Drill.Passage, tempo: Double)? {
        current < passages.count ? (passages[current], drill.tempo) : nil
    }

    /// The next pass, a session of its own over the passage; nil once every passage is done.
    func nextPass() throws(SessionError) -> PracticeSession? {
        guard let (passage, tempo) = upcoming else { return nil }
        var pass = plan
        pass.playback.from = passage.first
        pass.playback.to = passage.last
        pass.playback.passes = 1
        pass.playback.countIn = true
        pass.playback.tempoPercent = (plan.playback.tempoPercent ?? 100) * tempo / 100
        pass.history = nil
        pass.input = try input()
        let passResolved = try pass.playback.resolve()
        let passHeader = try PracticeSession.header(pass, passResolved)
        // At tempo% of the session's speed, a second of the pass is tempo/100 of a second of the whole range.
        let start = header.measureStarts.first { $0.number == passage.first }?.time ?? 0
        recorder?.beginRun(offset: start, scale: tempo / 100)
        return try PracticeSession(pass, resolved: passResolved, header: passHeader, recorder: recorder)
    }

    /// Records a pass's report and says what comes next (after `done` or `movedOn`, the next passage), with the
    /// passage's ladder so far, this pass included.
    func record(_ report: SessionReport) -> (next: Drill.Next, ladder: [Drill.Step]) {
        let next = drill.record(accuracy: report.accuracy)
        let steps = drill.ladder
        if next == .done || next == .movedOn {
            current += 1
            drill = ladder
        }
        return (next, steps)
    }

    /// The singer of the next pass: the capture device, or the next recording.
    private func input() throws(SessionError) -> PracticePlan.Input {
        guard recordings > 0 else { return plan.input }
        guard !takes.isEmpty else {
            throw SessionError(.usage, "the drill goes on after its \(recordings) recordings: expected one per pass")
        }
        return .take(takes.removeFirst())
    }

    /// Passes sung of the current passage.
    var passesOfPassage: Int { drill.passes }
}
