import ChoirPitch
import Foundation
import Testing

@testable import ChoirPractice

/// Entrances timed where a note's harmonics rise (``NoteComparator/entrance``), on synthesized notes that start at
/// known samples.
struct EntranceTests {
    /// Adds a voice-like tone to `signal`: twenty partials falling 6 dB an octave at `frequency` Hz from `start` to
    /// `end` seconds, rising linearly over `attack` seconds and dying away over `release` seconds (a time constant)
    /// after `end`.
    static func tone(
        _ frequency: Double, from start: Double, to end: Double, attack: Double = 0.005, release: Double = 0.02,
        into signal: inout [Float], sampleRate: Double, amplitude: Double = 0.2
    ) {
        let first = Int(start * sampleRate), last = min(signal.count, Int((end + release * 8) * sampleRate))
        for i in first..<last {
            let t = Double(i) / sampleRate
            var envelope = min(1, (t - start) / attack)
            if t > end { envelope *= exp(-(t - end) / release) }
            var sample = 0.0
            var k = 1.0
            while k * frequency < sampleRate / 2 && k <= 20 {
                sample += sin(2 * .pi * k * frequency * (t - start)) / k
                k += 1
            }
            signal[i] += Float(amplitude * envelope * sample)
        }
    }

    /// Where the entrance of a G3 starting at 1 s is timed, the tracker having settled on it `settled` seconds
    /// later, with `ringing` pitches left out.
    static func entrance(
        of signal: [Float], sampleRate: Double, settled: Double, ringing: [Double] = []
    ) -> Double? {
        let spectra = SpectrumAnalyser.spectra(of: signal, sampleRate: sampleRate, hop: 0.005)
        return NoteComparator.entrance(arrival: 1 + settled, sung: 196, ringing: ringing, spectra: spectra[...], from: 0.4)
    }

    /// A note that starts at once is timed where it starts, whatever the sample rate.
    @Test(arguments: [16000.0, 44100.0, 48000.0])
    func aSuddenNoteIsTimedWhereItStarts(sampleRate: Double) throws {
        var signal = [Float](repeating: 0, count: Int(2.5 * sampleRate))
        Self.tone(196, from: 1, to: 2, into: &signal, sampleRate: sampleRate)
        let start = try #require(Self.entrance(of: signal, sampleRate: sampleRate, settled: 0.03))
        #expect(abs(start - 1) <= 0.006, "timed at \(start)")
    }

    /// A swell is heard from its first tens of milliseconds (a tenth of the swell, past the 20 ms a sudden note
    /// has to fill), not where it reaches full voice.
    @Test(arguments: [0.05, 0.15, 0.3])
    func aSwellIsHeardAsItBegins(attack: Double) throws {
        var signal = [Float](repeating: 0, count: 3 * 16000)
        Self.tone(196, from: 1, to: 2, attack: attack, into: &signal, sampleRate: 16000)
        let start = try #require(Self.entrance(of: signal, sampleRate: 16000, settled: attack))
        #expect(start >= 1 && start - 1 <= 0.02 + attack / 10, "timed at \(start)")
    }

    /// The note before still sounding at full voice for a quarter of a second (a sampled voice's release, a
    /// room): the new note is timed where its own harmonics rise under it, not where it outlasts the old one.
    @Test(arguments: [(262.0, "a fourth up"), (185.0, "a semitone up"), (294.0, "a fifth down")])
    func aNoteUnderTheOneBeforeIsTimedByItsOwnHarmonics(before: Double, interval: String) throws {
        var signal = [Float](repeating: 0, count: 3 * 48000)
        Self.tone(before, from: 0.2, to: 1.25, release: 0.15, into: &signal, sampleRate: 48000)
        Self.tone(196, from: 1, to: 2.5, attack: 0.05, into: &signal, sampleRate: 48000, amplitude: 0.1)
        let start = try #require(Self.entrance(of: signal, sampleRate: 48000, settled: 0.35, ringing: [before]))
        #expect(abs(start - 1) <= 0.04, "\(interval): timed at \(start)")
    }

    /// After a breath, the note before (D4, a semitone above) no longer sounds: all that is left in its comb is this
    /// note's own rise reaching it, and the entrance is not held back to where that comb is loudest.
    @Test func aNoteAfterABreathIsTimedWhereItStarts() throws {
        var signal = [Float](repeating: 0, count: 3 * 48000)
        Self.tone(294, from: 0.3, to: 0.75, into: &signal, sampleRate: 48000)
        Self.tone(277, from: 1, to: 2.5, attack: 0.05, into: &signal, sampleRate: 48000)
        let spectra = SpectrumAnalyser.spectra(of: signal, sampleRate: 48000, hop: 0.005)
        let start = try #require(
            NoteComparator.entrance(arrival: 1.05, sung: 277, ringing: [], spectra: spectra[...], from: 0.85, after: 294))
        #expect(abs(start - 1) <= 0.025, "timed at \(start)")
    }

    /// A fourth up, straight on from a note whose sound outlasts it (a sampled voice's release, louder than the new
    /// note for a tenth of a second): the tracker keeps reading the note before until it has faded under the new one,
    /// so that the singer seems to hold it past the beat. The harmonics of a leap that the note before does not share
    /// lie clear of its own, and the new note is timed where they rise, not where the tracker lets go.
    @Test func aLeapIsTimedWhereItsHarmonicsRiseUnderTheNoteBefore() throws {
        let leap = try Self.leap(heldTo: 1, release: 0.15)
        #expect(leap.verdict == .correct && abs(leap.onsetError ?? 1) <= 0.03, "\(leap)")
    }

    /// A singer who holds the note before 150 ms past the beat and then leaps is late: the leap's harmonics rise only
    /// when they leave it.
    @Test func aLeapAfterTheNoteBeforeIsHeldOverIsLate() throws {
        let leap = try Self.leap(heldTo: 1.15, release: 0.02)
        #expect(leap.verdict == .late && abs((leap.onsetError ?? 0) - 0.15) <= 0.03, "\(leap)")
    }

    /// The verdict on E4, written at 1 s and sung from where the B3 before it, written from 0.5 s to 1 s, is held
    /// to (`heldTo`), B3 then dying away over `release` seconds (a time constant) at twice E4's level.
    static func leap(heldTo end: Double, release: Double) throws -> NoteResult {
        let rate = 48000.0
        var signal = [Float](repeating: 0, count: Int(2.5 * rate))
        Self.tone(246.94, from: 0.5, to: end, release: release, into: &signal, sampleRate: rate)
        Self.tone(329.63, from: end, to: 2, attack: 0.01, into: &signal, sampleRate: rate, amplitude: 0.1)
        let notes = [
            ExpectedNote(
                index: 0, measure: "1", measureIndex: 0, onset: 0.5, duration: 0.5, midi: 59, isEntrance: true, quarterSeconds: 0.5),
            ExpectedNote(
                index: 1, measure: "1", measureIndex: 0, onset: 1, duration: 1, midi: 64, isEntrance: true, previousMIDI: 59,
                quarterSeconds: 0.5),
        ]
        let analysis = try TakeAnalysis(samples: signal, sampleRate: rate, notes: notes, mix: nil)
        var judge = analysis.judge(notes, options: NoteComparator.Options())
        analysis.feed(&judge) { _, _ in true }
        _ = judge.finish()
        return try #require(judge.results.last)
    }

    /// A breath before the note fills the spectrum between harmonics as much as on them: the entrance is the
    /// note's.
    @Test func aBreathBeforeTheNoteIsNotTheEntrance() throws {
        var signal = [Float](repeating: 0, count: 3 * 16000)
        var random = SystemRandomNumberGenerator()
        for i in Int(0.7 * 16000)..<Int(1.0 * 16000) { signal[i] = Float.random(in: -0.05...0.05, using: &random) }
        Self.tone(196, from: 1, to: 2, into: &signal, sampleRate: 16000)
        let start = try #require(Self.entrance(of: signal, sampleRate: 16000, settled: 0.03))
        #expect(abs(start - 1) <= 0.01, "timed at \(start)")
    }
}
