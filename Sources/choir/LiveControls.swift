import ChoirAudio
import ChoirPlayback
import ChoirPractice
import ChoirScore
import FoundationEssentials
import Glibc

/// The singer's side of a live session: keys that steer the mix, and what is shown while it runs, the live
/// view on a terminal or one line per measure otherwise.
struct LiveControls {
    let resolved: PlaybackArguments.Resolved
    let notes: [ExpectedNote]
    let renderer: SynthRenderer?
    let sampleRate: Int
    /// Performance lock: only space and q work.
    let locked: Bool
    private let terminal: RawTerminal?
    private let view: LiveView
    private(set) var quit = false
    private var paused = false
    private var percent = 100
    private var looping: ClosedRange<Int>?
    private var mineMuted: Bool
    private var lastDrawn = 0
    private var shownMeasure = ""
    /// How long after its newest sample reached the converter each drawn frame was on screen: counts per ms.
    private var lags = [Int](repeating: 0, count: 1000)

    var zeroSample: Int { renderer?.zeroSample ?? Int((resolved.schedule.preroll * Double(sampleRate)).rounded()) }

    init(resolved: PlaybackArguments.Resolved, notes: [ExpectedNote], renderer: SynthRenderer?, sampleRate: Int, locked: Bool) {
        self.resolved = resolved
        self.notes = notes
        self.renderer = renderer
        self.sampleRate = sampleRate
        self.locked = locked
        mineMuted = resolved.singer.map { resolved.mixer.gains[$0] == 0 } ?? false
        terminal = isatty(1) == 1 ? RawTerminal() : nil
        terminal?.enterFullScreen()
        let part = resolved.singer.map { resolved.lines[$0].name } ?? ""
        view = LiveView(title: "\(resolved.score.title ?? "choir") — \(part)", notes: notes, lyrics: resolved.schedule.lyrics)
    }

    /// Reads the keys pressed since the last call and acts on them.
    mutating func poll() {
        while let key = terminal?.readPress() {
            switch key {
            case .character(UInt8(ascii: "q")): quit = true
            case .character(UInt8(ascii: " ")):
                paused.toggle()
                renderer?.send(.pause(paused))
            case _ where locked: break
            case .left, .right: step(measures: key == .left ? -1 : 1)
            case .character(UInt8(ascii: "l")): toggleLoop()
            case .character(UInt8(ascii: "+")), .character(UInt8(ascii: "=")), .up: changeTempo(by: 5)
            case .character(UInt8(ascii: "-")), .down: changeTempo(by: -5)
            case .character(UInt8(ascii: "m")): toggleMute()
            case .character(UInt8(ascii: "p")): soundNextNote()
            default: break
            }
        }
    }

    /// The score time being heard, from the schedule's time of the last heard frame.
    private var scoreTime = 0.0

    private mutating func step(measures delta: Int) {
        let measures = resolved.schedule.measures
        guard let renderer, !measures.isEmpty else { return }
        let current = measures.lastIndex { $0.start <= scoreTime + 0.05 } ?? 0
        // Going back from the middle of a measure first returns to its start, as a player's "previous" does.
        let started = scoreTime - (measures[current].start) > 0.5
        let target = max(0, min(measures.count - 1, current + delta + (delta < 0 && started ? 1 : 0)))
        // Moving away from a loop ends it; otherwise it would pull the music straight back.
        if looping != nil {
            looping = nil
            renderer.send(.loop(from: 0, to: 0))
        }
        renderer.send(.seek(sample: sample(measures[target].start)))
    }

    /// Loops the phrase being sung: the singer's notes between rests, at most four measures, from the start
    /// of its first measure to the end of its last. Pressed again, the loop ends.
    private mutating func toggleLoop() {
        guard let renderer else { return }
        if looping != nil {
            looping = nil
            renderer.send(.loop(from: 0, to: 0))
            return
        }
        guard let phrase = Self.phrase(around: scoreTime, in: notes, schedule: resolved.schedule) else { return }
        looping = phrase.measures
        renderer.send(.loop(from: sample(phrase.start), to: sample(phrase.end)))
    }

    /// The phrase at `time`: see ``toggleLoop()``. Returns its measures (indices into the schedule's) and times.
    static func phrase(around time: Double, in notes: [ExpectedNote], schedule: Schedule)
        -> (measures: ClosedRange<Int>, start: Double, end: Double)?
    {
        guard var first = notes.firstIndex(where: { $0.end > time }) ?? notes.indices.last else { return nil }
        var last = first
        while first > 0 && notes[first].onset - notes[first - 1].end < 0.05 { first -= 1 }
        while last + 1 < notes.count && notes[last + 1].onset - notes[last].end < 0.05 { last += 1 }
        let measures = schedule.measures
        func measure(_ t: Double) -> Int { measures.lastIndex { $0.start <= t + 1e-6 } ?? 0 }
        let current = measure(max(time, notes[first].onset))
        var from = measure(notes[first].onset), to = measure(notes[last].end - 1e-3)
        // A long phrase is cut to the four measures around where the singer is.
        if to - from >= 4 {
            from = max(from, current - 1)
            to = min(to, from + 3)
        }
        let end = to + 1 < measures.count ? measures[to + 1].start : schedule.length
        return (from...to, measures[from].start, end)
    }

    private mutating func changeTempo(by step: Int) {
        percent = max(25, min(200, percent + step))
        renderer?.send(.speed(Double(percent) / 100))
    }

    private mutating func toggleMute() {
        guard let singer = resolved.singer else { return }
        mineMuted.toggle()
        let written = resolved.mixer.gains[singer]
        renderer?.send(.gain(line: singer, gain: mineMuted ? 0 : (written > 0 ? written : 1)))
    }

    private func soundNextNote() {
        guard let next = notes.first(where: { $0.onset >= scoreTime - 0.05 }) ?? notes.last else { return }
        renderer?.send(.sound(key: next.midi, frames: sampleRate * 4 / 5))
    }

    private func sample(_ scoreSeconds: Double) -> Int { zeroSample + Int((scoreSeconds * Double(sampleRate)).rounded()) }

    /// Shows where the session is, at most 30 times a second on a terminal, or a line when a measure is done.
    /// `heard` is when the newest sample of the window the latest decided pitch comes from was at the microphone's
    /// converter, in monotonic nanoseconds.
    mutating func show(judge: SteeredJudge, at time: Double, sung: (time: Double, midi: Double)?, heard: Int?) {
        guard let segment = judge.segment(at: time) else { return }
        scoreTime = segment.scoreTime(at: time)
        let results = judge.results
        guard let terminal else {
            if let last = results.last, last.note.measure != shownMeasure {
                shownMeasure = last.note.measure
                let correct = results.count { $0.verdict.isCorrect }
                FileOutput.write("measure \(shownMeasure): \(results.count { $0.note.measure == shownMeasure }) notes judged, running accuracy "
                    + String(printf: "%.0f%%", 100 * Double(correct) / Double(results.count)) + "\n")
            }
            return
        }
        let now = Int(AudioClock.now() / 1_000_000)
        guard now - lastDrawn >= 33 else { return }
        lastDrawn = now
        let (width, height) = terminal.size
        terminal.draw(view.render(state(judge, sung: sung, time: time), width: width, height: height, colour: Choir.Practice.colour))
        if let heard { lags[max(0, min(lags.count - 1, (AudioClock.now() - heard) / 1_000_000))] += 1 }
    }

    /// The time from a captured sample to the screen that shows it, as drawn: median, 95th percentile and
    /// maximum in ms; nil when nothing was drawn.
    var lag: (median: Int, percentile95: Int, maximum: Int)? {
        let total = lags.reduce(0, +)
        guard total > 0 else { return nil }
        func percentile(_ share: Double) -> Int {
            var seen = 0
            for (ms, count) in lags.enumerated() {
                seen += count
                if Double(seen) >= share * Double(total) { return ms }
            }
            return lags.count - 1
        }
        return (percentile(0.5), percentile(0.95), lags.lastIndex { $0 > 0 }!)
    }

    private func state(_ judge: SteeredJudge, sung: (time: Double, midi: Double)?, time: Double) -> LiveView.State {
        let position = PositionClock(schedule: resolved.schedule, score: resolved.score, sampleRate: sampleRate, zeroSample: 0)
            .position(at: Int(scoreTime * Double(sampleRate)))
        var flags: [String] = []
        if paused { flags.append("paused") }
        if let looping {
            let numbers = resolved.schedule.measures.map { resolved.score.measures[$0.index].number }
            flags.append("loop mm. \(numbers[looping.lowerBound])–\(numbers[looping.upperBound])")
        }
        if mineMuted { flags.append("my part muted") }
        if locked { flags.append("locked") }
        var verdicts: [Int: Verdict] = [:]
        for result in judge.results { verdicts[result.note.index] = result.verdict }
        let recent = judge.trace.suffix(400).filter { $0.time > scoreTime - 10 }
        return LiveView.State(
            time: scoreTime, measure: position.measure, beat: position.beat,
            tempo: resolved.schedule.initialTempo * Double(percent) / 100, tempoPercent: percent, flags: flags,
            sung: sung.flatMap { time - $0.time < 0.15 ? $0.midi : nil }, trace: Array(recent), verdicts: verdicts,
            correct: judge.results.count { $0.verdict.isCorrect }, judged: judge.results.count, locked: locked)
    }

    func close() { terminal?.restore() }
}
