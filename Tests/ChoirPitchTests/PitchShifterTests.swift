import ChoirAudio
import ChoirTestSupport
import Glibc
import Testing

@testable import ChoirPitch

/// The pitch shifter that plants mistakes in real recordings moves a real sung note by what it is asked, and
/// keeps it in place in time.
struct PitchShifterTests {
    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    /// The median pitch, in cents from 440 Hz, of the voiced frames from 0.3 s to 0.8 s, and the first voiced
    /// frame's time.
    static func measure(_ samples: [Float], rate: Int) throws -> (cents: Double, onset: Double) {
        let frames = try PitchTrackers.track(signal: samples, configuration: .init(sampleRate: Double(rate)))
        let cents = median(frames.filter { $0.isVoiced && $0.time > 0.3 && $0.time < 0.8 }.map { 1200 * log2($0.frequency / 440) })
        return (cents, frames.first { $0.isVoiced }?.time ?? .infinity)
    }

    @Test(arguments: [35.0, -40, 300, 1200, -1200])
    func aRealNoteMovesByWhatIsAsked(cents: Double) throws {
        let take = try WAVFile.read(contentsOf: RealVoiceTests.voices.appendingPathComponent("takes/vocobox_E3-3.wav").path)
        let before = try Self.measure(take.samples, rate: take.sampleRate)
        let shifted = PitchShifter.shift(take.samples, sampleRate: take.sampleRate) { _ in cents }
        #expect(shifted.count == take.samples.count)
        let after = try Self.measure(shifted, rate: take.sampleRate)
        #expect(abs(after.cents - before.cents - cents) < 8, "asked \(cents) cents, moved \(after.cents - before.cents)")
        // In place: the voice starts where it started (an octave down, at 82 Hz, the tracker needs longer to be sure).
        #expect(abs(after.onset - before.onset) < (abs(cents) <= 300 ? 0.015 : 0.08), "onset \(before.onset) s, shifted \(after.onset) s")
    }
}

extension PitchShifterTests {
    /// A pitch that changes as the note goes is followed where it changes: 0 cents up to 0.5 s, then +100.
    @Test func aChangingShiftIsFollowedOnTime() throws {
        let take = try WAVFile.read(contentsOf: RealVoiceTests.voices.appendingPathComponent("takes/vocobox_E3-3.wav").path)
        let shifted = PitchShifter.shift(take.samples, sampleRate: take.sampleRate) { $0 < 0.5 ? 0 : 100 }
        let configuration = PitchTrackerConfiguration(sampleRate: Double(take.sampleRate))
        let before = try PitchTrackers.track(signal: take.samples, configuration: configuration)
        let after = try PitchTrackers.track(signal: shifted, configuration: configuration)
        func moved(_ from: Double, _ to: Double) -> Double {
            Self.median(
                zip(before, after).filter { $0.0.isVoiced && $0.1.isVoiced && $0.0.time > from && $0.0.time < to }
                    .map { 1200 * log2($0.1.frequency / $0.0.frequency) })
        }
        #expect(abs(moved(0.3, 0.47)) < 5, "before the change: \(moved(0.3, 0.47)) cents")
        #expect(abs(moved(0.53, 0.9) - 100) < 5, "after the change: \(moved(0.53, 0.9)) cents")
    }
}
