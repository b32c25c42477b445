import ChoirPitch
import Foundation
import Testing

@testable import ChoirPractice

/// Timing judged at a musical scale: the tolerance follows the tempo and the note's length, and a drift over a
/// phrase is told from one entrance out of place.
struct TimingTests {
    /// A note of `duration` seconds at `quarterSeconds` a quarter, entering after a rest.
    static func note(_ index: Int = 0, at onset: Double, duration: Double, quarterSeconds: Double, midi: Int = 57) -> ExpectedNote {
        ExpectedNote(
            index: index, measure: "\(index + 1)", measureIndex: index, onset: onset, duration: duration, midi: midi, isEntrance: true,
            quarterSeconds: quarterSeconds)
    }

    /// Frames every 4 ms of a voice at `midi` sung from `start` to `end`, silence around it.
    static func sung(_ midi: Int, from start: Double, to end: Double, around: ClosedRange<Double>) -> [PitchFrame] {
        stride(from: around.lowerBound, to: around.upperBound, by: 0.004).map { t in
            guard t >= start && t < end else { return PitchFrame(time: t, frequency: 0, confidence: 0.1, level: 0.0001) }
            return PitchFrame(time: t, frequency: 440 * pow(2, (Double(midi) - 69) / 12 + 0.02 * sin(37 * t)), confidence: 0.95, level: 0.1)
        }
    }

    /// A quaver at ♩ = 160 may come 63 ms off the beat; a minim at ♩ = 60, 120 ms (the most any note is allowed);
    /// a crotchet at ♩ = 120, 100 ms.
    @Test func theToleranceFollowsTheTempoAndTheNote() {
        let options = NoteComparator.Options()
        #expect(abs(options.timingTolerance(for: Self.note(at: 0, duration: 0.1875, quarterSeconds: 0.375)) - 0.0625) < 1e-9)
        #expect(abs(options.timingTolerance(for: Self.note(at: 0, duration: 2, quarterSeconds: 1)) - 0.12) < 1e-9)
        #expect(abs(options.timingTolerance(for: Self.note(at: 0, duration: 0.5, quarterSeconds: 0.5)) - 0.1) < 1e-9)
        var fixed = options
        fixed.timingSeconds = 0.05
        #expect(fixed.timingTolerance(for: Self.note(at: 0, duration: 2, quarterSeconds: 1)) == 0.05)
    }

    /// The same entrance, 90 ms after the beat, is late on a quaver at ♩ = 160 and in time on a minim at ♩ = 60; 40 ms
    /// late is in time on the quaver, 150 ms late is late on the minim.
    @Test func anEntranceLateByAsMuchIsLateAtOneTempoAndInTimeAtAnother() {
        let quick = Self.note(at: 1, duration: 0.1875, quarterSeconds: 0.375)
        let slow = Self.note(at: 1, duration: 2, quarterSeconds: 1)
        for (note, lateness, verdict) in [
            (quick, 0.09, Verdict.late), (slow, 0.09, .correct), (quick, 0.04, .correct), (slow, 0.15, .late),
        ] {
            let frames = Self.sung(57, from: 1 + lateness, to: note.end, around: 0.3...(note.end + 0.2))
            let result = NoteComparator().judge(note, frames: frames)
            #expect(result.verdict == verdict, "\(note.duration) s at \(60 / note.quarterSeconds) bpm, \(lateness) s late: \(result)")
            #expect(abs((result.offsetMilliseconds ?? 0) - Int(lateness * 1000)) <= 6, "\(result)")
        }
    }

    /// Entrances that come ever later over a phrase end dragged, and ever earlier, rushed; one late entrance among
    /// entrances on the beat stays late.
    @Test(arguments: [1.0, -1.0])
    func aDriftIsDraggedOrRushedButOneEntranceIsLateOrEarly(direction: Double) {
        let drift = [0.0, 0.04, 0.08, 0.12, 0.16].map { $0 * direction }
        let single = [0.0, 0.01, -0.01, 0.0, 0.2].map { $0 * direction }
        for (offsets, last) in [(drift, direction > 0 ? Verdict.dragged : .rushed), (single, direction > 0 ? .late : .early)] {
            let notes = offsets.indices.map {
                Self.note($0, at: 1 + Double($0) * 0.8, duration: 0.5, quarterSeconds: 0.5, midi: 57 + 2 * ($0 % 2))
            }
            var frames: [PitchFrame] = []
            for (note, offset) in zip(notes, offsets) {
                frames += Self.sung(
                    note.midi, from: note.onset + offset, to: note.end - 0.05, around: (note.onset - 0.3)...(note.onset + 0.5))
            }
            frames.sort { $0.time < $1.time }
            var judge = PracticeJudge(notes: notes, options: NoteComparator.Options(), learnsLevel: false)
            for frame in frames { _ = judge.add(frame) }
            _ = judge.finish()
            #expect(judge.results.last?.verdict == last, "\(judge.results.map { ($0.verdict, $0.offsetMilliseconds) })")
            #expect(judge.results.dropLast().allSatisfy { !$0.verdict.isTiming || $0.verdict == last }, "\(judge.results.map(\.verdict))")
        }
    }

    /// A live clock that steps back in the middle of a note (the streams' offset moved when a device recovered): the
    /// frames from before the latest are not heard twice, and the note is judged as sung.
    @Test func framesFromBeforeTheLatestAreLeftOut() {
        let note = Self.note(0, at: 1, duration: 1, quarterSeconds: 0.5, midi: 57)
        let frames = Self.sung(57, from: 1, to: 1.95, around: 0.5...2.5)
        let back = frames.firstIndex { $0.time >= 1.5 }!
        var judge = PracticeJudge(notes: [note], options: NoteComparator.Options(), learnsLevel: false)
        for frame in frames[..<back] + frames[frames.index(back, offsetBy: -20)...] { _ = judge.add(frame) }
        _ = judge.finish()
        #expect(judge.results.map(\.verdict) == [.correct])
        #expect(judge.trace.map(\.time) == judge.trace.map(\.time).sorted())
    }

    /// The comparator judges frames given in any order as it judges them in time order (it searches them by time).
    @Test func framesInAnyOrderAreJudgedAsInTimeOrder() {
        let note = Self.note(0, at: 1, duration: 1, quarterSeconds: 0.5, midi: 57)
        let frames = Self.sung(57, from: 1.08, to: 1.95, around: 0.5...2.5)
        let comparator = NoteComparator(options: NoteComparator.Options(), levelGate: 0)
        let inOrder = comparator.judge(note, frames: frames)
        let reversed = comparator.judge(note, frames: frames.reversed())
        #expect(inOrder.verdict == .correct)
        #expect(reversed.verdict == inOrder.verdict && reversed.onsetError == inOrder.onsetError)
    }
}
