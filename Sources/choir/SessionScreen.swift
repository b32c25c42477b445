import ChoirPractice
import ChoirSession
import FoundationEssentials
import Glibc

/// What a singer sees and presses while a live session runs: on a terminal the live view and the keys; otherwise
/// one line per measure judged. A recorded take is judged without a screen.
final class SessionScreen {
    private var terminal: RawTerminal?
    private var view = LiveView(title: "", notes: [], lyrics: [])
    private var shownMeasure = ""
    private var lastDrawn = 0
    /// How long after its newest sample reached the converter each drawn frame was on screen.
    private var lags = DelayTally()

    /// The analysis window's newest sample to its centre, in ms, for the delay summary.
    private(set) var halfWindowMilliseconds = 0

    /// The session's marks where their measures are played.
    static func pencils(_ session: PracticeSession) -> [LiveView.Pencil] {
        let placed = session.resolved.schedule.measures
        return placed.indices.flatMap { index in
            let number = session.resolved.score.measures[placed[index].index].number
            let end = index + 1 < placed.count ? placed[index + 1].start : session.resolved.schedule.length
            return session.header.marks.filter { $0.measure == number }.map {
                LiveView.Pencil(start: placed[index].start, end: end, measure: number, text: $0.text)
            }
        }
    }

    /// Runs `session` to its end: keys become commands, snapshots are drawn (with `context`, what the session is part
    /// of: a drill's passage, pass and tempo, or a plan's item), and `stop` (a signal's arrival) cancels it. Returns its outcome.
    func run(_ session: PracticeSession, context: String? = nil, stop: () -> Bool) throws -> PracticeSession.Outcome {
        let resolved = session.resolved
        view = LiveView(
            title: "\(resolved.score.title ?? "choir") — \(session.header.part)", notes: session.notes,
            lyrics: resolved.schedule.lyrics,
            bars: resolved.schedule.measures.map {
                LiveView.Bar(start: $0.start, beats: resolved.score.measures[$0.index].time.beats.reduce(0, +))
            },
            context: context, marks: Self.pencils(session))
        halfWindowMilliseconds = Int(session.halfWindow * 1000 + 1e-6)
        guard case .device = session.plan.input else {
            do { try session.start() } catch { throw fail(error) }
            while !session.hasEnded {
                if stop() { session.cancel() }
                usleep(15_000)
            }
            return session.wait()
        }
        // Each session has the screen while it runs; between a drill's passes the terminal shows their lines.
        terminal = RawTerminal()
        terminal?.enterFullScreen()
        defer { close() }
        do { try session.start() } catch { throw fail(error) }
        while !session.hasEnded {
            if stop() { session.cancel() }
            while let key = terminal?.readPress() {
                if let command = Self.command(for: key) { session.send(command) }
            }
            show(session.snapshot)
            // Until a key is pressed, or the next frame is due.
            var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            if terminal != nil { _ = poll(&descriptor, 1, 15) } else { usleep(15_000) }
        }
        return session.wait()
    }

    static func command(for key: RawTerminal.KeyPress) -> SessionCommand? {
        switch key {
        case .character(UInt8(ascii: "q")): .quit
        case .character(UInt8(ascii: " ")): .togglePause
        case .left: .step(measures: -1)
        case .right: .step(measures: 1)
        case .character(UInt8(ascii: "l")): .toggleLoop
        case .character(UInt8(ascii: "+")), .character(UInt8(ascii: "=")), .up: .tempo(by: 5)
        case .character(UInt8(ascii: "-")), .down: .tempo(by: -5)
        case .character(UInt8(ascii: "m")): .toggleMute
        case .character(UInt8(ascii: "p")): .promptNextNote
        default: nil
        }
    }

    /// Draws the snapshot, at most 30 times a second on a terminal, or prints a line when a measure is done.
    private func show(_ snapshot: SessionSnapshot) {
        let results = snapshot.results
        guard let terminal else {
            if let last = results.last, last.note.measure != shownMeasure {
                shownMeasure = last.note.measure
                let correct = results.count { $0.verdict.isCorrect }
                let judged = results.count { $0.note.measure == shownMeasure }
                FileOutput.write(
                    "measure \(shownMeasure): \(judged) note\(judged == 1 ? "" : "s") judged, running accuracy "
                        + String(printf: "%.0f%%", 100 * Double(correct) / Double(results.count)) + "\n")
            }
            return
        }
        let now = Int(PracticeSession.clock() / 1_000_000)
        guard now - lastDrawn >= 33 else { return }
        lastDrawn = now
        let (width, height) = terminal.size
        terminal.draw(view.render(Self.state(snapshot), width: width, height: height, colour: FileOutput.colour))
        if let heard = snapshot.heard { lags.add(nanoseconds: PracticeSession.clock() - heard) }
    }

    /// What differs from playing on: paused, a loop, the singer's line muted, the performance lock.
    static func flags(_ snapshot: SessionSnapshot) -> [String] {
        var flags: [String] = []
        if snapshot.paused { flags.append("paused") }
        if let loop = snapshot.loop { flags.append("loop mm. \(loop.first)–\(loop.last)") }
        if snapshot.mineMuted { flags.append("my part muted") }
        if snapshot.locked { flags.append("locked") }
        return flags
    }

    private static func state(_ snapshot: SessionSnapshot) -> LiveView.State {
        let flags = flags(snapshot)
        var verdicts: [Int: Verdict] = [:]
        for result in snapshot.results { verdicts[result.note.index] = result.verdict }
        return LiveView.State(
            time: snapshot.time, measure: snapshot.measure, beat: snapshot.beat, tempo: snapshot.tempo,
            tempoPercent: snapshot.tempoPercent, flags: flags, sung: snapshot.sung, trace: snapshot.trace, verdicts: verdicts,
            correct: snapshot.results.count { $0.verdict.isCorrect }, judged: snapshot.results.count, locked: snapshot.locked,
            judgeDelay: snapshot.judgeDelay)
    }

    /// The time from a captured sample to the screen that shows it, as drawn: median, 95th percentile and maximum
    /// in ms; nil when nothing was drawn.
    var lag: (median: Int, percentile95: Int, maximum: Int)? { lags.summary }

    /// Gives the terminal back: cooked mode and the normal screen.
    func close() {
        terminal?.restore()
        terminal = nil
    }
}
