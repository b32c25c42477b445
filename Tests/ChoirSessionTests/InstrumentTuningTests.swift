import ChoirTestSupport
import Foundation
import Testing

@testable import ChoirSession

/// The voices choir plays are retuned key by key: held as a singer holds a note, each is measured where it settles
/// (its fundamental read off the spectrum, as the issue measured FluidR3's Choir Aahs G3 26 cents flat).
struct InstrumentTuningTests {
    /// The keys `keys` in turn, each held 1.1 s, as a line named `name`.
    static func scale(_ name: String, _ keys: ClosedRange<Int>) throws -> String {
        let notes = keys.enumerated().map {
            ScoreWriter.Note(onset: 1.5 * Double($0.offset), duration: InstrumentTuning.held, midi: $0.element)
        }
        let path = NSTemporaryDirectory() + "choir-scale-\(name)-\(UUID().uuidString).musicxml"
        try ScoreWriter.musicXML(title: "Scale", parts: [ScoreWriter.Part(name: name, notes: notes)])
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Each note's pitch as a session renders it, in cents from its key.
    static func heard(_ plan: PlaybackPlan, tuned: Bool) throws -> [(key: Int, cents: Double)] {
        var resolved = try plan.resolve()
        if !tuned { resolved.tunings = [:] }
        let rate = 48000
        let (left, right) = try resolved.renderer(sampleRate: rate, blockSize: 1024).renderAll()
        return resolved.schedule.notes.map { note in
            let part = InstrumentTuning.measured
            let start = Int((note.start + part.lowerBound) * Double(rate)), end = Int((note.start + part.upperBound) * Double(rate))
            let held = [Array(left[start..<end]), Array(right[start..<end])]
            return (note.midi, InstrumentTuning.offset(of: held, sampleRate: Double(rate), key: note.midi) ?? .nan)
        }
    }

    /// Choir Aahs, the default voice, from C2 to C6: every key within 5 cents, G2 too (its two sides are in opposite
    /// phase at the fundamental, which a mono sum cancels; each is measured as an ear hears it).
    @Test func theDefaultVoiceIsInTuneFromC2ToC6() throws {
        let plan = PlaybackPlan(score: try Self.scale("Soprano", 36...84))
        #expect(try plan.resolve().programs == [52])
        let before = try Self.heard(plan, tuned: false), after = try Self.heard(plan, tuned: true)
        let worst = after.max { abs($0.cents) < abs($1.cents) }!
        #expect(abs(worst.cents) <= 5, "\(after.filter { abs($0.cents) > 5 })")
        // Untuned, G3 is 26 cents flat and B3 in tune, as the issue measured.
        let g3 = before.first { $0.key == 55 }!.cents, b3 = before.first { $0.key == 59 }!.cents
        #expect(g3 < -20 && abs(b3) < 5, "untuned, G3 is \(g3) cents and B3 \(b3)")
        let untuned = before.max { abs($0.cents) < abs($1.cents) }!
        print(
            "Choir Aahs, C2-C6 held: untuned worst key \(untuned.key) at \(String(format: "%+.1f", untuned.cents)) cents, "
                + "tuned worst key \(worst.key) at \(String(format: "%+.1f", worst.cents)) cents")
    }

    /// Voice Oohs, another voice a score may ask for, is within 5 cents on every key from C2 to C6.
    @Test func voiceOohsIsInTuneFromC2ToC6() throws {
        var plan = PlaybackPlan(score: try Self.scale("Soprano", 36...84))
        plan.instruments = [(line: "Soprano", program: "54")]
        #expect(try plan.resolve().programs == [53])
        let after = try Self.heard(plan, tuned: true)
        let worst = after.max { abs($0.cents) < abs($1.cents) }!
        #expect(abs(worst.cents) <= 5, "worst key \(worst.key) at \(worst.cents) cents")
    }

    /// A piano keeps the SoundFont's own tuning, which is stretched on purpose.
    @Test func otherInstrumentsAreLeftAsTheSoundFontTunesThem() throws {
        let resolved = try PlaybackPlan(score: try Self.scale("Piano", 60...62)).resolve()
        #expect(resolved.programs == [0] && resolved.tunings.isEmpty)
    }
}
