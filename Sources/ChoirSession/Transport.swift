import ChoirPlayback
import ChoirPractice
import ChoirScore

/// The singer's hold on a live session's playback: pause, steps by measure, a phrase looped, the tempo, their own
/// line muted, their next note sounded. Commands go to the renderer through its ring; what they changed is kept
/// here for the snapshots.
struct Transport {
    let resolved: ResolvedPlayback
    let notes: [ExpectedNote]
    let renderer: SynthRenderer?
    let sampleRate: Int
    /// Performance lock: only pause and quit are obeyed.
    let locked: Bool
    private(set) var paused = false
    private(set) var percent = 100
    /// The looped phrase's measures, as indices into the schedule's.
    private(set) var looping: ClosedRange<Int>?
    private(set) var mineMuted: Bool
    /// Whether the renderer holds at the end of the music (``SynthRenderer/holdsAtEnd``), paused there.
    private var heldAtEnd = false
    /// The score time being heard, from the range's first beat.
    var scoreTime = 0.0

    /// Steers `renderer`; with `paused`, it has been told to wait for the singer.
    init(resolved: ResolvedPlayback, notes: [ExpectedNote], renderer: SynthRenderer?, sampleRate: Int, locked: Bool, paused: Bool = false) {
        self.resolved = resolved
        self.notes = notes
        self.renderer = renderer
        self.sampleRate = sampleRate
        self.locked = locked
        self.paused = paused
        mineMuted = !resolved.singers.isEmpty && resolved.singers.allSatisfy { resolved.mixer.gains[$0] == 0 }
    }

    /// The renderer has reached the end of the music and paused there.
    mutating func holdAtEnd() {
        paused = true
        heldAtEnd = true
    }

    /// What the singer has set, as an event gives it.
    var state: SessionEvent.TransportState {
        let score = resolved.score, measures = resolved.schedule.measures
        let number = { (played: Int) in score.measures[measures[played].index].number }
        return SessionEvent.TransportState(
            paused: paused, tempo: resolved.schedule.initialTempo * Double(percent) / 100, tempoPercent: percent,
            loop: looping.map { SessionEvent.MeasureSpan(first: number($0.lowerBound), last: number($0.upperBound)) }, mineMuted: mineMuted)
    }

    var zeroSample: Int { renderer?.zeroSample ?? Int((resolved.schedule.preroll * Double(sampleRate)).rounded()) }

    /// Acts on a command; returns whether the singer asked to stop.
    mutating func apply(_ command: SessionCommand) -> Bool {
        switch command {
        case .quit: return true
        case .togglePause:
            // Played again from the end, the music starts from the top, as a player's play button does.
            if heldAtEnd { seek(measure: 0) }
            paused.toggle()
            renderer?.send(.pause(paused))
        case _ where locked: break
        case .step(let measures): step(measures: measures)
        case .seek(let measure): seek(measure: measure)
        case .toggleLoop: toggleLoop()
        case .loop(let measures): loop(measures)
        case .tempo(let step):
            percent = max(25, min(200, percent + step))
            renderer?.send(.speed(Double(percent) / 100))
        case .toggleMute: toggleMute()
        case .promptNextNote:
            guard let next = notes.first(where: { $0.onset >= scoreTime - 0.05 }) ?? notes.last else { break }
            renderer?.send(.sound(key: next.midi, frames: sampleRate * 4 / 5))
        }
        return false
    }

    private mutating func step(measures delta: Int) {
        let measures = resolved.schedule.measures
        guard renderer != nil, !measures.isEmpty else { return }
        let current = measures.lastIndex { $0.start <= scoreTime + 0.05 } ?? 0
        // Going back from the middle of a measure first returns to its start, as a player's "previous" does.
        let started = scoreTime - measures[current].start > 0.5
        seek(measure: current + delta + (delta < 0 && started ? 1 : 0))
    }

    private mutating func seek(measure: Int) {
        let measures = resolved.schedule.measures
        guard let renderer, !measures.isEmpty else { return }
        let target = max(0, min(measures.count - 1, measure))
        heldAtEnd = false
        // Moving away from a loop ends it; otherwise it would pull the music straight back.
        if looping != nil {
            looping = nil
            renderer.send(.loop(from: 0, to: 0))
        }
        renderer.send(.seek(sample: sample(measures[target].start)))
    }

    /// Loops the phrase being sung (see ``phrase(around:in:schedule:)``); pressed again, the loop ends.
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

    /// Loops `measures` (indices into the schedule's), or ends the loop. Music outside them goes to their start: a
    /// loop ahead of it would otherwise wait, and one behind it would never come round.
    private mutating func loop(_ measures: ClosedRange<Int>?) {
        let all = resolved.schedule.measures
        guard let renderer, !all.isEmpty else { return }
        guard let measures else {
            if looping != nil { renderer.send(.loop(from: 0, to: 0)) }
            looping = nil
            return
        }
        let clamp = { (index: Int) in max(0, min(all.count - 1, index)) }
        let range = clamp(measures.lowerBound)...clamp(measures.upperBound)
        let start = all[range.lowerBound].start
        let end = range.upperBound + 1 < all.count ? all[range.upperBound + 1].start : resolved.schedule.length
        looping = range
        renderer.send(.loop(from: sample(start), to: sample(end)))
        if scoreTime < start - 0.05 || scoreTime >= end - 0.05 {
            heldAtEnd = false
            renderer.send(.seek(sample: sample(start)))
        }
    }

    /// The phrase at `time`: the singer's notes between rests, at most four measures, from the start of its first
    /// measure to the end of its last. Returns its measures (indices into the schedule's) and times.
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

    private mutating func toggleMute() {
        guard !resolved.singers.isEmpty else { return }
        mineMuted.toggle()
        for singer in resolved.singers {
            let written = resolved.mixer.gains[singer]
            renderer?.send(.gain(line: singer, gain: mineMuted ? 0 : (written > 0 ? written : 1)))
        }
    }

    private func sample(_ scoreSeconds: Double) -> Int { zeroSample + Int((scoreSeconds * Double(sampleRate)).rounded()) }
}
