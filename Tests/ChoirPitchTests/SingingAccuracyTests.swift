import ChoirTestSupport
import Glibc
import Testing

@testable import ChoirPitch

/// Singing-like signals: formants, vibrato, scoops, drift and breath noise, with silences between notes.
/// Raw pitch accuracy follows mir_eval: the share of truly voiced frames whose estimate lies within 50 cents.
struct SingingAccuracyTests {
    /// A phrase over an octave and a half, for a voice in `register`.
    static func phrase(around register: Double) -> [SyntheticVoice.Note] {
        let steps = [0, 2, 4, 5, 7, 9, 7, 5, 12, 11, 9, 7, -5, 0]
        return steps.enumerated().map { index, step in
            SyntheticVoice.Note(
                start: 0.1 + Double(index) * 0.45, duration: 0.38, frequency: register * pow(2, Double(step) / 12))
        }
    }

    static func score(_ voice: SyntheticVoice, _ notes: [SyntheticVoice.Note], window: Int = 2048, hop: Int = 256)
        throws -> (accuracy: Double, medianCents: Double)
    {
        let signal = voice.render(notes, length: notes.last!.start + notes.last!.duration + 0.2)
        let frames = try PitchTrackers.track(signal: signal, configuration: .init(sampleRate: voice.sampleRate, window: window, hop: hop))
        var hits = 0, total = 0
        var errors: [Double] = []
        for frame in frames {
            guard let truth = voice.truth(notes, at: frame.time) else { continue }
            total += 1
            guard frame.isVoiced else { continue }
            let cents = abs(1200 * log2(frame.frequency / truth))
            if cents <= 50 { hits += 1 }
            errors.append(cents)
        }
        errors.sort()
        return (Double(hits) / Double(total), errors[errors.count / 2])
    }

    @Test(arguments: [("bass", 123.5), ("tenor", 147.0), ("alto", 220.0), ("soprano", 392.0)])
    func singingVoices(name: String, register: Double) throws {
        var voice = SyntheticVoice(sampleRate: 48000)
        voice.seed = UInt64(register)
        let result = try Self.score(voice, Self.phrase(around: register))
        // aubio's yinfast scores lower on these signals; see Benchmarks/compare-pitch.py.
        #expect(result.accuracy >= 0.95, "\(name): raw pitch accuracy \(result.accuracy)")
        #expect(result.medianCents <= 5, "\(name): median error \(result.medianCents) cents")
    }

    @Test func breathyVoiceWithWideVibrato() throws {
        var voice = SyntheticVoice(sampleRate: 44100)
        voice.breath = 0.15
        voice.vibratoCents = 60
        voice.scoopCents = -150
        let result = try Self.score(voice, Self.phrase(around: 196))
        #expect(result.accuracy >= 0.9, "raw pitch accuracy \(result.accuracy)")
        #expect(result.medianCents <= 5, "median error \(result.medianCents) cents")
    }
}
