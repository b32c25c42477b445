import ChoirBase
import ChoirTestSupport
import FoundationEssentials
import Glibc
import Testing

@testable import ChoirSession

/// The tuner as a front end hears it: its readings, as events, of a sound of known pitch.
struct TunerTests {
    /// A second of a sine at `hertz`, 16-bit at 48 kHz, in a WAV file.
    static func sine(_ hertz: Double) throws -> String {
        let rate = 48000
        let body = (0..<rate).flatMap { index in
            WAVBytes.le(Int16((0.5 * sin(2 * Double.pi * hertz * Double(index) / Double(rate)) * 32767).rounded()))
        }
        let path = try DrillSessionTests.folder() + "/sine.wav"
        try Data(WAVBytes.wav(tag: 1, channels: 1, rate: rate, bits: 16, body: body)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A second of a sine of a known note and cents (A3 +20 ¢, E4 −35 ¢, B♭4), heard through the tuner: a reading
    /// a hop, almost all of them voiced, each that note within 2 cents of its cents; the second heard comes last.
    @Test(arguments: [(57, 20.0), (64, -35.0), (70, 0.0)])
    func theTunerReadsASineOfKnownPitch(midi: Int, cents: Double) async throws {
        let hertz = PitchMath.hertz(midi: Double(midi) + cents / 100)
        let tuner = try Tuner(recording: try Self.sine(hertz)) { PitchTrackerConfiguration(sampleRate: Double($0)) }
        let events = tuner.events()
        try tuner.start()
        var readings: [PitchFrame] = []
        var last: Tuner.Event?
        for await event in events {
            if case .reading(let frame) = event { readings.append(frame) }
            last = event
        }
        let voiced = readings.filter(\.isVoiced)
        // A frame every hop, over the second, almost all voiced (the first window and the last are partly silent).
        let hop = Double(tuner.configuration.hop) / 48000
        #expect(abs(Double(readings.count) - 1 / hop) < 1 / hop * 0.1, "\(readings.count) readings, hop \(hop) s")
        #expect(Double(voiced.count) > 0.9 * Double(readings.count))
        for frame in voiced {
            let exact = PitchMath.midi(hertz: frame.frequency)
            #expect(Int(exact.rounded()) == midi && abs((exact - Double(midi)) * 100 - cents) < 2, "\(frame.frequency) Hz")
        }
        guard case .ended(let outcome) = last else {
            Issue.record("expected .ended last, got \(String(describing: last))")
            return
        }
        #expect(abs(outcome.seconds - 1) < 0.05 && outcome.dropped == 0 && outcome.error == nil)
        #expect(tuner.wait().seconds == outcome.seconds)
    }
}

extension TunerTests {
    /// How a capture fared, as the tuner's front ends end with it: seconds to a tenth, overruns, samples dropped.
    @Test func theCaptureIsSummed() {
        let outcome = Tuner.Outcome(seconds: 12.349, overruns: 2, dropped: 480, error: nil)
        #expect(outcome.summary(device: "hw:1") == "captured 12.3 s from 'hw:1', 2 overruns, 480 samples dropped")
    }
}
