import ChoirBase
import ChoirPlayback
import ChoirPractice

/// What a singer is told of what comes next while a session plays: when their line enters, the next phrase's first
/// notes and words, and their pencil marks as their measures near. Every front end shows the same words.
public struct LiveCues: Sendable {
    /// The singer's notes and the words they sing, on the score's clock.
    public var notes: [ExpectedNote]
    public var lyrics: [Schedule.SungSyllable]
    /// The measures played, on the score's clock: where each starts and how many beats it has.
    public var bars: [Bar]
    /// The singer's marks, each where its measure is played: shown from the bar before it to its end.
    public var marks: [Pencil]
    /// Cents from the note within which the singer is in tune: the judge's tolerance (`--tolerance`), so that the
    /// needle shows in tune what the judge will call right.
    public var tolerance: Double

    /// A measure as played: where it starts on the score's clock, and its beats.
    public struct Bar: Sendable {
        public var start: Double
        public var beats: Int

        public init(start: Double, beats: Int) {
            self.start = start
            self.beats = beats
        }
    }

    /// A mark at a measure as played: its start and end on the score's clock, and its words.
    public struct Pencil: Sendable {
        public var start: Double
        public var end: Double
        public var measure: String
        public var text: String

        public init(start: Double, end: Double, measure: String, text: String) {
            self.start = start
            self.end = end
            self.measure = measure
            self.text = text
        }
    }

    /// Cues from the singer's notes and words; without `bars` there is no countdown in bars or beats, without
    /// `marks` no pencil.
    public init(
        notes: [ExpectedNote], lyrics: [Schedule.SungSyllable], bars: [Bar] = [], marks: [Pencil] = [],
        tolerance: Double = NoteComparator.Options().toleranceCents
    ) {
        self.tolerance = tolerance
        self.notes = notes
        self.lyrics = lyrics
        self.bars = bars
        self.marks = marks
    }

    /// The cues of `session`: its notes, words and measures as played, and the marks on them.
    public init(_ session: PracticeSession) {
        let resolved = session.resolved, placed = resolved.schedule.measures
        let marks = placed.indices.flatMap { index in
            let number = resolved.score.measures[placed[index].index].number
            let end = index + 1 < placed.count ? placed[index + 1].start : resolved.schedule.length
            return session.header.marks.filter { $0.measure == number }.map {
                Pencil(start: placed[index].start, end: end, measure: number, text: $0.text)
            }
        }
        self.init(
            notes: session.notes, lyrics: resolved.schedule.lyrics,
            bars: placed.map { Bar(start: $0.start, beats: resolved.score.measures[$0.index].time.beats.reduce(0, +)) }, marks: marks,
            tolerance: session.plan.options.toleranceCents)
    }

    /// What comes next for the singer: while they rest, when they come in ("enters in 5 bars", then the beats); near
    /// the end of a phrase, the next phrase's first notes and words.
    public func cue(at time: Double) -> String? {
        guard let next = notes.firstIndex(where: { $0.onset > time + 0.05 }) else { return nil }
        let resting = !notes.contains { $0.onset <= time + 0.05 && time < $0.end }
        if resting {
            let wait = notes[next].onset - time
            let barLines = bars.count { $0.start > time + 0.05 && $0.start <= notes[next].onset + 0.05 }
            if barLines >= 2 { return "enters in \(barLines) bars" }
            guard let bar = bars.last(where: { $0.start <= time + 0.05 }) else { return nil }
            let end = bars.first { $0.start > bar.start }?.start ?? bar.start + 4
            let beat = (end - bar.start) / Double(max(1, bar.beats))
            let beats = Int((wait / beat).rounded(.up))
            return beats <= 1 ? "enters on the next beat" : "enters in \(beats) beats"
        }
        // The phrase sung now ends where the next one (the next note after a rest) starts.
        guard let phrase = notes[next...].firstIndex(where: { $0.previousMIDI == nil }), notes[phrase - 1].end - time < 2 else {
            return nil
        }
        let phraseEnd = notes[(phrase + 1)...].firstIndex { $0.previousMIDI == nil }.map { notes[$0].onset } ?? .infinity
        let firstNotes = notes[phrase...].prefix(3).map(\.name).joined(separator: " ")
        var words = lyrics.filter { $0.start >= notes[phrase].onset - 0.05 && $0.start < phraseEnd }.prefix(8)
            .map { $0.text + ($0.continues ? "-" : " ") }.joined()
        while words.hasSuffix(" ") { words.removeLast() }
        return "next: " + firstNotes + (words.isEmpty ? "" : "  " + words)
    }

    /// The marks on the measure played and the next one, as the singer wrote them.
    public func pencil(at time: Double) -> String? {
        // Up to the end of the next bar.
        let next = bars.first { $0.start > time + 0.05 }?.start ?? .infinity
        let horizon = bars.first { $0.start > next }?.start ?? .infinity
        let near = marks.filter { $0.end > time && $0.start < horizon }
        return near.isEmpty ? nil : near.map { "✎ m. \($0.measure): \($0.text)" }.joined(separator: " · ")
    }
}
