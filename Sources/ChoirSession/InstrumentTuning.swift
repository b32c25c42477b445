import ChoirAudio
import ChoirPitch
import ChoirPlayback
import FoundationEssentials
import Glibc

/// Puts the voices' notes in tune. A SoundFont's samples are tuned by hand, and not always well: FluidR3's Choir
/// Aahs plays some keys more than 40 cents flat (G3 26 cents, while B3 is within 2), and its Voice Oohs some 10
/// cents off, which a singer matching it would copy and a judge would call wrong. Each key a session plays on a
/// voice program is measured once (held alone for a second, the fundamental of its sustained part read off the
/// spectrum of both channels, as a tuner reads an instrument) and retuned by what it is off; what was measured is
/// kept in ``cachePath`` for the next run. Other instruments keep the SoundFont's tuning: a piano's is stretched on
/// purpose.
public enum InstrumentTuning {
    /// How long a key is held to be measured, and the part of it measured: the held sound, after the attack. A
    /// choir sample's attack can be tuned apart from its sustained loop (FluidR3's Choir Aahs A2 starts 60 cents
    /// below where it settles), and a sung note is heard where it settles.
    public static let held = 1.1, measured = 0.3...1.0
    static let sampleRate = 48000

    /// Offsets measured so far, by SoundFont, program and key (``key(soundFont:program:key:)``): a drill resolves
    /// its score for every pass, and a run starts sooner with what earlier runs measured.
    private static let measuredOffsets = Locked(stored())

    /// `$XDG_CACHE_HOME/choir/tuning.json`, else under `~/.cache`: offsets in cents by SoundFont, program and key.
    public static var cachePath: String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (environment["HOME"] ?? "/tmp") + "/.cache"
        return base + "/choir/tuning.json"
    }

    /// How an offset is filed: the SoundFont by path, size and modification time, so that a changed file is measured
    /// again, and the way it is measured, so that a better way measures again too.
    static func key(soundFont: String, program: Int, key: Int) -> String {
        var status = stat()
        let identity = stat(soundFont, &status) == 0 ? "\(status.st_size)|\(status.st_mtim.tv_sec)" : "?"
        return "stereo-v1|\(soundFont)|\(identity)|\(program)|\(key)"
    }

    /// The offsets earlier runs kept; none when the cache is missing or unreadable (it is measured again).
    private static func stored() -> [String: Double] {
        guard let data = FileManager.default.contents(atPath: cachePath) else { return [:] }
        return (try? JSONDecoder().decode([String: Double].self, from: data)) ?? [:]
    }

    /// Keeps `offsets` for the next run, beside what another run may have kept meanwhile. A cache that cannot be
    /// written only costs the next run its measuring.
    private static func keep(_ offsets: [String: Double]) {
        let directory = String(cachePath[..<cachePath.lastIndex(of: "/")!])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard (try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)) != nil,
            let data = try? encoder.encode(stored().merging(offsets) { $1 })
        else { return }
        try? ReplacingFile.write(String(decoding: data, as: UTF8.self), to: cachePath)
    }

    /// For each voice program among `keys`, the cents to add to each of the 128 keys so that `keys` sound at their
    /// equal-tempered pitch; keys not measured, or whose pitch cannot be read (no partial within 90 cents of the
    /// key), are left as they are.
    public static func corrections(soundFont: String, keys: [Int: Set<Int>]) throws(PlaybackError) -> [Int: [Double]] {
        var tunings: [Int: [Double]] = [:]
        for (program, wanted) in keys.sorted(by: { $0.key < $1.key }) where Instruments.voicePrograms.contains(program) {
            let name = { (key: Int) in Self.key(soundFont: soundFont, program: program, key: key) }
            let unmeasured = wanted.filter { key in measuredOffsets.withLock { $0[name(key)] == nil } }.sorted()
            if !unmeasured.isEmpty {
                // Measured, retuned, and measured again: an ensemble sample's strongest partial moves a little when
                // it is played at another pitch, and the second reading takes that in.
                var offsets = [Double](repeating: 0, count: 128)
                for _ in 0..<2 {
                    let sounds = try SynthRenderer.soundKeys(
                        unmeasured, program: program, soundFont: soundFont, sampleRate: sampleRate, seconds: held,
                        tuning: offsets.map { -$0 })
                    let part = Int(measured.lowerBound * Double(sampleRate))..<Int(measured.upperBound * Double(sampleRate))
                    for (key, sound) in zip(unmeasured, sounds) {
                        offsets[key] += offset(of: sound.map { Array($0[part]) }, sampleRate: Double(sampleRate), key: key) ?? 0
                    }
                }
                let found = Dictionary(uniqueKeysWithValues: unmeasured.map { (name($0), offsets[$0]) })
                measuredOffsets.withLock { $0.merge(found) { $1 } }
                keep(found)
            }
            var cents = [Double](repeating: 0, count: 128)
            for key in wanted { cents[key] = -(measuredOffsets.withLock { $0[name(key)] } ?? 0) }
            tunings[program] = cents
        }
        return tunings
    }

    /// How many cents from `key` the fundamental of `sound` (its channels), the ``measured`` part of a held note,
    /// is, if it can be read.
    public static func offset(of sound: [[Float]], sampleRate: Double, key: Int) -> Double? {
        let written = PitchMath.hertz(midi: key)
        guard let peak = SpectralPeak.frequency(of: sound, sampleRate: sampleRate, near: written, within: 90) else { return nil }
        // A peak at the edge of the range searched is the next note's, not this one's.
        let cents = PitchMath.cents(peak, from: written)
        return abs(cents) < 89 ? cents : nil
    }
}
