import ChoirPitch
import Foundation
import Testing

@testable import ChoirPractice

/// The comparator on pitch tracks with known answers.
struct NoteComparatorTests {
    /// Frames every 4 ms from `start` to `end` of a voice at `cents(t)` from A3.
    static func frames(from start: Double, to end: Double, cents: (Double) -> Double) -> [PitchFrame] {
        stride(from: start, to: end, by: 0.004).map { t in
            PitchFrame(time: t, frequency: 220 * pow(2, cents(t) / 1200), confidence: 0.95, level: 0.1)
        }
    }

    /// A fraction of a vibrato cycle leans a mean to one side; the fitted centre does not.
    @Test(arguments: [0.0, 1.0, 2.5, 4.0])
    func shortNotesAreCentredOnTheirVibrato(phase: Double) {
        let track = Self.frames(from: 0, to: 0.12) { 12 + 55 * sin(2 * .pi * 5.8 * $0 + phase) }
            .map { (time: $0.time, cents: 1200 * log2($0.frequency / 220)) }
        let centre = NoteComparator.centre(track)
        #expect(abs(centre - 12) < 6, "centre \(centre)")
    }

    /// A legato step of a semitone with wide vibrato: the crests of the old note reach the new one, but the
    /// singer arrives when they leave the old note, here 150 ms late.
    @Test func lateSemitoneStepUnderWideVibrato() {
        let step = 2.15
        let track = Self.frames(from: 1, to: 3) { t in
            (t < step ? 100 : 0) + 55 * sin(2 * .pi * 5.5 * t)
        }
        let note = ExpectedNote(index: 1, measure: "2", measureIndex: 1, onset: 2, duration: 0.75, midi: 57, isEntrance: true, previousMIDI: 58)
        let result = NoteComparator().judge(note, frames: track)
        #expect(result.verdict == .late, "\(result)")
        #expect(abs((result.onsetError ?? 0) - 0.15) < 0.03, "\(result)")
        let onTime = NoteComparator().judge(note, frames: Self.frames(from: 1, to: 3) { t in
            (t < 2.01 ? 100 : 0) + 55 * sin(2 * .pi * 5.5 * t)
        })
        #expect(onTime.verdict == .correct, "\(onTime)")
    }
}
