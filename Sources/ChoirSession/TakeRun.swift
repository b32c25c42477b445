import ChoirBase
import ChoirPractice

/// Judges a recorded take on the session's thread, as fast as it can be read: moves it to fit the score if asked,
/// judges the notes it holds whole, writes or plays the mix beside it, and every quarter second of the take hands
/// the history and the front ends what is new and hears a cancel or a quit.
struct TakeRun {
    let input: TakeInput
    let plan: PracticePlan
    let resolved: ResolvedPlayback
    /// The notes the take may hold, and all the singer's notes in the range.
    let notes: [ExpectedNote]
    let range: [ExpectedNote]
    let latency: Double
    let inbox: SessionInbox
    var feed: HistoryFeed
    var publisher: SessionPublisher

    mutating func run() -> SessionRun {
        var offset = resolved.schedule.preroll + latency
        let analysis: TakeAnalysis
        do {
            analysis = try TakeAnalysis(
                samples: input.audio.samples, sampleRate: Double(input.audio.sampleRate), notes: notes, start: offset,
                mix: input.heard?.mix, singersLine: input.heard?.singersLine, tracker: plan.tracker, accompanied: plan.accompanied)
        } catch {
            return SessionRun(ending: .failed(SessionError(.input, "\(input.path): \(error)")))
        }
        var run = SessionRun(ending: .completed)
        if plan.aligns {
            let shift = analysis.alignment(of: notes, options: plan.options, start: offset)
            offset += shift
            if shift != 0 { run.alignment = shift }
        }
        // A take shorter than the range is judged up to its end: the notes it holds whole. One that starts after
        // the first beat (cut) cannot be heard coming in on the notes it cuts into.
        let end = input.audio.duration - offset
        let notes = self.notes.prefix { $0.onset + $0.duration <= end }.map { note in
            var heard = note
            if note.onset + offset < 0 { heard.isEntrance = false }
            return heard
        }
        if notes.count < range.count {
            run.unsung = SessionReport.Unsung(notes: range.count - notes.count, measure: range[notes.count].measure)
        }
        guard !notes.isEmpty else {
            run.ending = .failed(
                SessionError(
                    .input,
                    "\(input.path): the take is \(String(printf: "%.1f", input.audio.duration)) s long"
                        + (run.alignment.map { ", its singing moved \(String(printf: "%+.2f", $0)) s to fit the score" } ?? "")
                        + ": expected at least \(String(printf: "%.1f", range[0].onset + range[0].duration + offset)) s, "
                        + "to the end of the first note of the practised range"))
            return run
        }
        var judge = analysis.judge(Array(notes), options: plan.options)
        var ending = PracticeSession.Ending.completed
        var lastSave = -Double.infinity
        let mix = input.mix
        do throws(SessionError) {
            try mix.start()
            try analysis.feed(&judge, offset: offset) { (judge, time) throws(SessionError) -> Bool in
                try mix.advance(to: time + resolved.schedule.preroll)
                guard time - lastSave >= 0.25 else { return true }
                feed.save(results: resolved.numbered(judge.results), trace: judge.trace)
                publisher.publish(at: time, pass: resolved.pass(at: time), results: judge.results, trace: judge.trace)
                lastSave = time
                if inbox.isCancelled { ending = .cancelled }
                if inbox.take().contains(.quit) { ending = .quit }
                return ending == .completed
            }
            if ending == .completed {
                _ = judge.finish()
                run.mixFile = try mix.finish()
            } else {
                mix.abandon()
            }
        } catch {
            mix.abandon()
            ending = .failed(error)
        }
        feed.save(results: resolved.numbered(judge.results), trace: judge.trace)
        run.results = resolved.numbered(judge.results)
        run.trace = judge.trace
        run.published = publisher.published
        run.ending = ending
        run.place = (resolved.position(at: lastSave).measure, resolved.pass(at: lastSave))
        return run
    }
}
