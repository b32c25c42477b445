import ChoirPractice
import Glibc

/// A real recorded phrase made into a score and sung from it: the notes the singer held become the written
/// line, at the semitones they were nearest, over an accompaniment of held chords. A performance moves each held note, by ``PitchShifter``, to its written pitch (or to
/// the planted mistake), gliding between notes where the singer glided; a missing note is cut out, and a late
/// entrance comes in later than the singer did. Everything else (the voice, the vowels, the slides, the vibrato
/// and its wavering) is the singer's own.
public struct PhraseSinger: PlantingSinger, Sendable {
    /// A held note of the recording.
    struct Held: Sendable {
        /// The written note's span, in seconds.
        var start: Double, end: Double
        /// Where the singer held it steadily.
        var steadyStart: Double, steadyEnd: Double
        /// The median pitch held, in cents from A4, and the semitone nearest it.
        var cents: Double
        var midi: Int
    }

    public let take: String
    let samples: [Float]
    public let sampleRate: Double
    /// The sung pitch, frame by frame, in cents from A4.
    let sung: [(time: Double, cents: Double)]
    let held: [Held]
    public var seed: UInt64
    public var mistakeShare = 0.25

    public init(take: String, seed: UInt64) throws {
        let audio = try RealVoices.take(take)
        self.take = take
        samples = audio.samples
        sampleRate = Double(audio.sampleRate)
        sung = RealVoices.sungCents(audio.samples, rate: audio.sampleRate)
        held = Self.heldNotes(sung)
        self.seed = seed
    }

    /// The notes held for 0.3 s or more: each run of singing is cut where the pitch leaves the semitone it was
    /// nearest by more than 70 cents for 45 ms or more.
    static func heldNotes(_ sung: [(time: Double, cents: Double)]) -> [Held] {
        guard sung.count > 1 else { return [] }
        let hop = zip(sung.dropFirst(), sung).map { $0.time - $1.time }.min() ?? 0.005
        // The pitch, smoothed by a median over seven frames.
        let smooth = sung.indices.map { i in RealVoices.median(sung[max(0, i - 3)...min(sung.count - 1, i + 3)].map(\.cents)) }
        var result: [Held] = []
        var runStart = 0
        while runStart < sung.count {
            var runEnd = runStart + 1
            while runEnd < sung.count && sung[runEnd].time - sung[runEnd - 1].time <= 3.5 * hop { runEnd += 1 }
            // Pieces of the run at one semitone each.
            var pieces: [(from: Int, to: Int, semitone: Double)] = []
            var from = runStart
            var semitone = (RealVoices.median(Array(smooth[runStart..<min(runEnd, runStart + 8)])) / 100).rounded()
            var i = runStart
            while i < runEnd {
                guard abs(smooth[i] - 100 * semitone) > 70 else {
                    i += 1
                    continue
                }
                var j = i
                while j < runEnd && abs(smooth[j] - 100 * semitone) > 70 { j += 1 }
                if sung[j - 1].time - sung[i].time >= 0.045 {
                    pieces.append((from, i, semitone))
                    from = i
                    semitone = (RealVoices.median(Array(smooth[i..<j])) / 100).rounded()
                }
                i = j
            }
            pieces.append((from, runEnd, semitone))
            // Held notes: long pieces, neighbours at the same semitone merged.
            var kept: [(from: Int, to: Int, semitone: Double)] = []
            for piece in pieces where sung[piece.to - 1].time - sung[piece.from].time >= 0.3 {
                if let last = kept.last, last.semitone == piece.semitone {
                    kept[kept.count - 1].to = piece.to
                } else {
                    kept.append(piece)
                }
            }
            for (k, piece) in kept.enumerated() {
                let steadyStart = sung[piece.from].time, steadyEnd = sung[piece.to - 1].time
                // The written note: from a twentieth of a second before the singer held it (the approach, which the
                // judge's grace allows for) to as long after, no further than halfway to the neighbours. Longer
                // glides lie between the written notes, and are not judged.
                let before = k == 0 ? sung[runStart].time : (sung[kept[k - 1].to - 1].time + steadyStart) / 2
                let after = k == kept.count - 1 ? sung[runEnd - 1].time : (steadyEnd + sung[kept[k + 1].from].time) / 2
                let start = max(before, steadyStart - 0.05), end = min(after, steadyEnd + 0.05)
                let count = piece.to - piece.from
                let middle = Array(smooth[(piece.from + count / 5)..<(piece.to - count / 5)])
                let cents = RealVoices.median(middle.isEmpty ? Array(smooth[piece.from..<piece.to]) : middle)
                result.append(
                    Held(
                        start: start, end: end, steadyStart: steadyStart, steadyEnd: steadyEnd, cents: cents,
                        midi: 69 + Int((cents / 100).rounded())))
            }
            runStart = runEnd
        }
        return result
    }

    /// The written lines: the singer's ("Voice", first) and three of chords.
    public var parts: [ScoreWriter.Part] {
        let voice = held.map { ScoreWriter.Note(onset: $0.start, duration: $0.end - $0.start, midi: $0.midi) }
        guard let first = voice.first, let last = voice.last else { return [ScoreWriter.Part(name: "Voice", notes: [])] }
        // An accompaniment of held chords, a new one every two seconds from a second before the singer to a second
        // after: the lowest note sung in those two seconds an octave and a sixth below, and a fifth and a third
        // over that, going on through the singer's rests as an accompaniment does.
        var chords: [[ScoreWriter.Note]] = [[], [], []]
        var start = max(0, first.onset - 1)
        var root = first.midi - 21
        while start < last.onset + last.duration + 1 {
            let sung = voice.filter { $0.onset < start + 2 && $0.onset + $0.duration > start }.map(\.midi)
            if let lowest = sung.min() { root = lowest - 21 }
            for (k, interval) in [0, 7, 16].enumerated() {
                chords[k].append(ScoreWriter.Note(onset: start, duration: 2, midi: root + interval))
            }
            start += 2
        }
        return [ScoreWriter.Part(name: "Voice", notes: voice)]
            + zip(["Chord 1", "Chord 2", "Chord 3"], chords).map { ScoreWriter.Part(name: $0, notes: $1) }
    }

    /// The phrase as a MusicXML score.
    public var score: String { ScoreWriter.musicXML(title: take, parts: parts) }

    /// Late and early entrances only after a rest (one long enough to come in early into): the recording has
    /// nothing to hold over into a legato note, nor to leave early.
    public func plan(_ notes: [ExpectedNote], kinds: [PlantedMistake]) -> [Int: PlantedMistake] {
        PlantedMistake.plan(
            notes, share: mistakeShare, seed: seed &* 0x9E37_79B9 &+ 11, kinds: kinds,
            canComeInLate: { $0.previousMIDI == nil && $0.duration >= 0.45 },
            canComeInEarly: { note, before in
                note.previousMIDI == nil && before.map { note.onset - $0.end >= 0.45 } ?? (note.onset >= 0.45)
            })
    }

    /// `notes` must be the score's "Voice" line, in order.
    public func perform(_ notes: [ExpectedNote], mistakes: [Int: PlantedMistake], length: Double) -> [Float] {
        precondition(notes.count == held.count, "the notes of this phrase's score")
        var random = SplitMix(seed: seed)
        let offsets = notes.map { mistakes[$0.index]?.offset(random: &random, octaveUp: $0.midi < 57) ?? 0 }
        // Cents to move by: each held note onto its written pitch (plus the mistake), its slow drift taken out,
        // gliding from one to the next where the singer glided.
        let courses = held.map { note in RealVoices.slowCourse(sung.filter { $0.time >= note.steadyStart && $0.time <= note.steadyEnd }) }
        let targets = held.indices.map { Double(held[$0].midi - 69) * 100 + offsets[$0] }
        func shift(_ note: Int, at time: Double) -> Double {
            targets[note] - courses[note](min(held[note].steadyEnd, max(held[note].steadyStart, time)))
        }
        let voice = PitchShifter.shift(samples, sampleRate: Int(sampleRate)) { time in
            guard let next = held.firstIndex(where: { $0.steadyStart > time }) else { return shift(held.count - 1, at: time) }
            guard next > 0, time > held[next - 1].steadyEnd else { return shift(max(0, next - 1), at: time) }
            let (a, b) = (held[next - 1], held[next])
            let (from, to) = (shift(next - 1, at: a.steadyEnd), shift(next, at: b.steadyStart))
            return from + (to - from) * (time - a.steadyEnd) / (b.steadyStart - a.steadyEnd)
        }
        var out = [Float](repeating: 0, count: Int(length * sampleRate))
        func index(_ time: Double) -> Int { max(0, min(out.count, Int(time * sampleRate))) }
        // The held notes are sung with the glides around them; what lies further from any of them (a run too short
        // to be a note) is no part of the score.
        for note in held {
            let span = index(note.start - 0.15)..<index(note.end + 0.15)
            for i in span where i < voice.count && out[i] == 0 { out[i] = voice[i] }
        }
        for (i, note) in held.enumerated() {
            let span = index(note.start)..<index(note.end)
            switch mistakes[notes[i].index] {
            case .missing:
                for j in span { out[j] = 0 }
            case .late:
                let delay = Int(PlantedMistake.late.timing(random: &random) * sampleRate)
                let moved = Array(out[span])
                for (k, j) in span.enumerated() { out[j] = k < delay ? 0 : moved[k - delay] }
                RealVoices.fade(&out, (span.lowerBound + delay)..<span.upperBound, seconds: 0.01, rate: Int(sampleRate))
            case .early:
                // Begun that much sooner, in the rest before it, and held to where it ended: the note stretched.
                let lead = -Int(PlantedMistake.early.timing(random: &random) * sampleRate)
                let note = Array(out[span])
                let stretched = PitchShifter.shift(
                    note, sampleRate: Int(sampleRate), timeRatio: Double(note.count + lead) / Double(max(1, note.count))
                ) { _ in 0 }
                let start = span.lowerBound - lead
                for j in start..<span.upperBound { out[j] = j - start < stretched.count ? stretched[j - start] : 0 }
                RealVoices.fade(&out, start..<span.upperBound, seconds: 0.01, rate: Int(sampleRate))
            default:
                break
            }
        }
        return out
    }
}
