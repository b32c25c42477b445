import ChoirPitch
import ChoirPlayback
import ChoirScore
import ChoirTestSupport
import Foundation
import Testing

@testable import ChoirPractice

/// A session steered while it runs: the singer follows the playback through a jump and a slower tempo.
struct SteeredJudgeTests {
    @Test func judgesEachSegmentAtItsPlaceAndSpeed() throws {
        let score = try PlantedTake.score("Resources/ExamplePieces/amazing_grace.musicxml")
        let singer = try LineSelector.select("tenor", from: score.lines)
        var options = PlaybackOptions()
        options.singer = singer
        let schedule = try Schedule(score: score, lines: score.lines, options: options)
        let notes = ExpectedNote.notes(of: singer, in: schedule, score: score)
        // Played from the start for 8 s, then back to score time 3 s at 80%.
        let jump = SteeredJudge.Segment(time: 8, scoreTime: 3, speed: 0.8)
        let first = notes.filter { $0.end <= 8 }
        let second = notes.filter { $0.onset >= 3 }.map { note -> ExpectedNote in
            var sung = note
            sung.onset = 8 + (note.onset - 3) / 0.8
            sung.duration = note.duration / 0.8
            return sung
        }
        let length = second.last!.end + 1
        var singerModel = SyntheticSinger(sampleRate: 16000, seed: 7)
        singerModel.reverbLevel = 0.1
        let take = singerModel.sing(first + second, mistakes: [:], length: length).samples
        let frames = try PitchTrackers.track(signal: take, configuration: PracticeJudge.detector(for: notes, sampleRate: 16000))

        var judge = SteeredJudge(notes: notes, options: NoteComparator.Options())
        judge.follow(jump)
        for frame in frames { judge.add(frame) }
        judge.finish(at: length)
        #expect(judge.results.count == first.count + second.count)
        let correct = judge.results.count { $0.verdict == .correct }
        #expect(Double(correct) >= 0.9 * Double(judge.results.count), "\(judge.results.map(\.verdict))")
        // Results are on the score's clock: the notes after the jump are the written ones again.
        #expect(judge.results[first.count].note == notes.first { $0.onset >= 3 })
        #expect(judge.trace.allSatisfy { $0.time < notes.last!.end + 0.5 })

        // Going back is a pass of its own: the notes sung again are results of the second pass.
        #expect(
            judge.results.prefix(first.count).allSatisfy { $0.pass == 1 }
                && judge.results.dropFirst(first.count).allSatisfy { $0.pass == 2 })
        #expect(judge.pass == 2)

        // Without the jump the same singing is judged against the wrong notes.
        var unsteered = SteeredJudge(notes: notes, options: NoteComparator.Options())
        for frame in frames { unsteered.add(frame) }
        unsteered.finish(at: length)
        #expect(unsteered.results.count { $0.verdict == .correct } < correct - 5)
    }

    /// A pause, a tempo change or a step forward goes on in the same pass; a step back before anything was judged
    /// in the pass does not start another.
    @Test func onlyGoingBackAfterAVerdictStartsAPass() {
        let notes = (0..<6).map {
            ExpectedNote(index: $0, measure: "\($0 + 1)", measureIndex: $0, onset: Double($0), duration: 0.9, midi: 57, isEntrance: $0 == 0)
        }
        var judge = SteeredJudge(notes: notes, options: NoteComparator.Options())
        judge.follow(.init(time: 0.5, scoreTime: 0.5, speed: 0))  // paused
        judge.follow(.init(time: 1.5, scoreTime: 0.5, speed: 1.2))  // faster
        judge.follow(.init(time: 3, scoreTime: 3.5, speed: 1))  // forward
        judge.follow(.init(time: 5, scoreTime: 1, speed: 1))  // back: pass 2
        judge.follow(.init(time: 5.2, scoreTime: 0, speed: 1))  // back again at once: still pass 2
        for frame in NoteComparatorTests.frames(from: 0, to: 9, cents: { _ in 0 }) { judge.add(frame) }
        judge.finish(at: 9)
        let passes = judge.results.map { "\($0.note.index)/\($0.pass)" }
        // Note 0 was cut by the pause, note 4 reached by the step forward; then the second pass from the start.
        #expect(passes == ["1/1", "4/1", "0/2", "1/2", "2/2"])
        #expect(Set(judge.results.map(\.pass)) == [1, 2])
    }

    @Test func pausedStretchesAreNotJudged() {
        let notes = (0..<4).map {
            ExpectedNote(index: $0, measure: "1", measureIndex: 0, onset: Double($0), duration: 0.9, midi: 57, isEntrance: $0 == 0)
        }
        var judge = SteeredJudge(notes: notes, options: NoteComparator.Options())
        // Paused at 1.5 s (score 1.5) for 2 s: note 1 is cut short; from 3.5 s on, notes 2 and 3 follow at 2.5 s later.
        judge.follow(.init(time: 1.5, scoreTime: 1.5, speed: 0))
        judge.follow(.init(time: 3.5, scoreTime: 1.5, speed: 1))
        for frame in NoteComparatorTests.frames(from: 0, to: 6, cents: { _ in 0 }) { judge.add(frame) }
        judge.finish(at: 6)
        #expect(judge.results.map(\.note.index) == [0, 2, 3])
        #expect(judge.results.allSatisfy { $0.verdict == .correct })
    }

    /// What a live view shows as sung: the singer's pitch near the note, never a click two octaves away (the live
    /// view showed "sung B5 +2789¢" while nobody sang).
    @Test func aSoundFarFromTheNoteIsNotShownAsSung() {
        let notes = (0..<2).map {
            ExpectedNote(index: $0, measure: "1", measureIndex: 0, onset: 1 + Double($0), duration: 0.9, midi: 57, isEntrance: true)
        }
        var judge = SteeredJudge(notes: notes, options: NoteComparator.Options())
        let sung = NoteComparatorTests.frames(from: 0.9, to: 1.5) { _ in 20 }
        for frame in sung { judge.add(frame) }
        let near = judge.sungPitch(sung.last!)
        #expect(near.map { abs($0 - 57.2) < 0.01 } == true, "\(String(describing: near))")
        // An octave below is still singing (a voice really sung an octave low).
        #expect(judge.sungPitch(PitchFrame(time: 1.5, frequency: 110, confidence: 0.95, level: 0.1)).map { abs($0 - 45) < 0.01 } == true)
        // A click's periodicity 23 semitones up, before the first note (the count-in) and during one.
        for time in [0.5, 1.5] {
            #expect(judge.sungPitch(PitchFrame(time: time, frequency: 220 * pow(2, 23.0 / 12), confidence: 0.95, level: 0.1)) == nil)
        }
        #expect(judge.sungPitch(PitchFrame(time: 1.5, frequency: 0, confidence: 0, level: 0.1)) == nil)
    }
}
