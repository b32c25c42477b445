import ChoirAudio
import ChoirPlayback

/// Where a mix goes: an audio device, a WAV file, or nowhere (a live session still keeps the music's time).
public enum MixDestination: Sendable, Equatable {
    case device(String)
    case file(String)
    case none

    /// "none" (or "null", ALSA's name for a device that plays nothing), a path ending in .wav, or else a device's name.
    public init(_ name: String) {
        if Self.isNone(name) {
            self = .none
        } else if name.lowercased().hasSuffix(".wav") {
            self = .file(name)
        } else {
            self = .device(name)
        }
    }

    public var isDevice: Bool { if case .device = self { true } else { false } }

    /// Whether `device` names no sound at all: "none", or "null" (whose ALSA device swallows sound as fast as it is
    /// written, so that a session would run through in a moment).
    public static func isNone(_ device: String) -> Bool { device == "none" || device == "null" }

    /// Why `name` cannot be where a mix goes, or nil: a file (a path, or a recording's name) in another format than
    /// WAV, which would be taken for a device that is not there.
    public static func problem(_ name: String) -> String? {
        guard case .device = MixDestination(name), name.contains("/") || AudioFile.isRecording(name) || name.lowercased().hasSuffix(".mid")
        else { return nil }
        return "\(name): a mix is written as WAV: expected a file name ending in .wav, a device, or none"
    }
}

/// A session's mix on its way out: played on a device's real-time thread, rendered into a file in step with the
/// judging, played silently on the monotonic clock (a live session with no sound), or not made at all.
final class MixOutput {
    let renderer: SynthRenderer?
    private let writer: AudioFile.Writer?
    /// What plays the mix, if it is played: a device, or silence on the monotonic clock.
    let playback: (any PlaybackStream)?
    private var left: [Float], right: [Float]

    /// Opens `destination`; a device's playback thread feeds `tap` with every frame it plays. With `paced` (a live
    /// session), no destination still plays the mix, silently, so that its transport keeps the music's time.
    init(_ destination: MixDestination, resolved: ResolvedPlayback, sampleRate: Int, tap: SPSCRing<Float>? = nil, paced: Bool = false)
        throws(SessionError)
    {
        left = [Float](repeating: 0, count: 4096)
        right = left
        func synthesizer(blockSize: Int) throws(SessionError) -> SynthRenderer {
            do {
                return try resolved.renderer(sampleRate: sampleRate, blockSize: blockSize, prompts: true)
            } catch {
                throw SessionError(.input, "\(error)")
            }
        }
        switch destination {
        case .none where paced:
            let synth = try synthesizer(blockSize: 256)
            renderer = synth
            writer = nil
            do { playback = try SilentPlayback(sampleRate: sampleRate, periodFrames: 256, source: synth) } catch {
                throw SessionError(.audio, "\(error)")
            }
        case .none:
            renderer = nil
            writer = nil
            playback = nil
        case .file(let path):
            renderer = try synthesizer(blockSize: 4096)
            do { writer = try AudioFile.Writer(path: path, channels: 2, sampleRate: sampleRate, keepsUnfinished: false) } catch {
                throw SessionError(.output, "\(error)")
            }
            playback = nil
        case .device(let name):
            let synth = try synthesizer(blockSize: 256)
            renderer = synth
            writer = nil
            do {
                playback = try ALSAPlayback(device: name, sampleRate: sampleRate, periodFrames: 256, source: synth, tap: tap)
            } catch {
                throw SessionError(.deviceUnavailable, "\(error)")
            }
        }
    }

    var failed: Bool { playback?.error != nil }
    var underruns: Int { playback?.underruns ?? 0 }

    func start() throws(SessionError) {
        do { try playback?.start() } catch { throw SessionError(.audio, "\(error)") }
    }

    /// Renders the file's mix up to `seconds` from its start (a device plays on its own clock).
    func advance(to seconds: Double) throws(SessionError) {
        guard let renderer else { return }
        try advance(toFrame: Int(seconds * Double(renderer.sampleRate)))
    }

    /// Renders the file's mix up to frame `target`.
    func advance(toFrame target: Int) throws(SessionError) {
        guard let renderer, let writer else { return }
        let target = min(renderer.totalFrames, target)
        while renderer.position < target {
            let wanted = min(4096, target - renderer.position)
            var failure: AudioFile.Failure?
            left.withUnsafeMutableBufferPointer { l in
                right.withUnsafeMutableBufferPointer { r in
                    let count = renderer.render(left: l.baseAddress!, right: r.baseAddress!, frames: wanted)
                    do throws(AudioFile.Failure) { try writer.append(left: l.baseAddress!, right: r.baseAddress!, frames: count) } catch {
                        failure = error
                    }
                }
            }
            if let failure { throw SessionError(.output, "\(failure)") }
        }
    }

    /// Renders the rest of a file's mix and puts the file in place; stops a device. Returns the file's path, if
    /// the mix went to one.
    @discardableResult
    func finish() throws(SessionError) -> String? {
        playback?.stop()
        guard let renderer, let writer else { return nil }
        try advance(toFrame: renderer.totalFrames)
        do { try writer.finish() } catch { throw SessionError(.output, "\(error)") }
        return writer.path
    }

    /// Stops a device without finishing a file: an ended session's file is left as it was, never half-written.
    func abandon() {
        playback?.stop()
    }
}
