import ChoirAudio
import ChoirPitch
import ChoirPlayback
import Glibc

/// Puts the voices' notes in tune. A SoundFont's samples are tuned by hand, and not always well: FluidR3's Choir
/// Aahs plays some keys more than 40 cents flat (G3 26 cents, while B3 is within 2), and its Voice Oohs some 10
/// cents off, which a singer matching it would copy and a judge would call wrong. (One key of that Choir Aahs, G2,
/// layers two samples 70 cents apart: no retuning of the key brings them together.) Each key a session plays on a voice program is measured once per
/// process (held alone for a second, the fundamental of its sustained part read off its spectrum, as a tuner reads
/// an instrument) and retuned by what it is off. Other instruments keep the SoundFont's tuning: a piano's is stretched on purpose.
public enum InstrumentTuning {
    /// How long a key is held to be measured, and the part of it measured: the held sound, after the attack. A
    /// choir sample's attack can be tuned apart from its sustained loop (FluidR3's Choir Aahs A2 starts 60 cents
    /// below where it settles), and a sung note is heard where it settles.
    public static let held = 1.1, measured = 0.3...1.0
    static let sampleRate = 48000

    /// Offsets measured so far, by SoundFont, program and key: a drill resolves its score for every pass.
    private static let measuredOffsets = Locked([String: Double]())

    /// For each voice program among `keys`, the cents to add to each of the 128 keys so that `keys` sound at their
    /// equal-tempered pitch; keys not measured, or whose pitch cannot be read (no partial within 90 cents of the
    /// key), are left as they are.
    public static func corrections(soundFont: String, keys: [Int: Set<Int>]) throws(PlaybackError) -> [Int: [Double]] {
        var tunings: [Int: [Double]] = [:]
        for (program, wanted) in keys.sorted(by: { $0.key < $1.key }) where Instruments.voicePrograms.contains(program) {
            let name = { (key: Int) in "\(soundFont)|\(program)|\(key)" }
            let unmeasured = wanted.filter { key in measuredOffsets.withLock { $0[name(key)] == nil } }.sorted()
            if !unmeasured.isEmpty {
                // Measured, retuned, and measured again: an ensemble sample's strongest partial moves a little when
                // it is played at another pitch, and the second reading takes that in.
                var offsets = [Double](repeating: 0, count: 128)
                for _ in 0..<2 {
                    let sounds = try SynthRenderer.soundKeys(
                        unmeasured, program: program, soundFont: soundFont, sampleRate: sampleRate, seconds: held, tuning: offsets.map { -$0 })
                    for (key, sound) in zip(unmeasured, sounds) {
                        let part = Array(sound[Int(measured.lowerBound * Double(sampleRate))..<Int(measured.upperBound * Double(sampleRate))])
                        offsets[key] += offset(of: part, sampleRate: Double(sampleRate), key: key) ?? 0
                    }
                }
                for key in unmeasured { measuredOffsets.withLock { $0[name(key)] = offsets[key] } }
            }
            var cents = [Double](repeating: 0, count: 128)
            for key in wanted { cents[key] = -(measuredOffsets.withLock { $0[name(key)] } ?? 0) }
            tunings[program] = cents
        }
        return tunings
    }

    /// How many cents from `key` the fundamental of `sound`, the ``measured`` part of a held note, is, if it can be
    /// read.
    public static func offset(of sound: [Float], sampleRate: Double, key: Int) -> Double? {
        let written = 440 * pow(2, Double(key - 69) / 12)
        guard let peak = SpectralPeak.frequency(of: sound, sampleRate: sampleRate, near: written, within: 90) else { return nil }
        // A peak at the edge of the range searched is the next note's, not this one's.
        let cents = 1200 * log2(peak / written)
        return abs(cents) < 89 ? cents : nil
    }
}
