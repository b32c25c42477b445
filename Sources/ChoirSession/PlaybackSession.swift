import ChoirAudio
import ChoirPlayback

/// A score's mix playing on an audio device, on its own real-time thread; the caller watches and steers it.
public final class PlaybackSession: @unchecked Sendable {
    public let resolved: ResolvedPlayback
    public let device: String
    public let sampleRate: Int
    private let renderer: SynthRenderer
    private let output: ALSAPlayback

    /// Loads the mix and opens `device`, rendering `period` frames at a time.
    public init(_ resolved: ResolvedPlayback, device: String, sampleRate: Int, period: Int) throws(SessionError) {
        guard (16...8192).contains(period) else { throw SessionError(.usage, "period \(period): expected 16 to 8192 frames") }
        self.resolved = resolved
        self.device = device
        self.sampleRate = sampleRate
        do {
            renderer = try resolved.renderer(sampleRate: sampleRate, blockSize: period)
        } catch {
            throw SessionError(.input, "\(error)")
        }
        do {
            output = try ALSAPlayback(device: device, sampleRate: sampleRate, periodFrames: period, source: renderer)
        } catch {
            throw SessionError(.deviceUnavailable, "\(error)")
        }
    }

    public func start() throws(SessionError) {
        do { try output.start() } catch { throw SessionError(.audio, "\(error)") }
    }

    public var isPaused: Bool {
        get { output.isPaused }
        set { output.isPaused = newValue }
    }

    /// Whether the whole mix has been played.
    public var isFinished: Bool { output.isFinished }
    /// Seconds of the mix rendered so far, count-in included.
    public var seconds: Double { Double(renderer.position) / Double(sampleRate) }
    /// The measure and beat being heard; nil until the device plays the mix's first frame. (The synthesizer
    /// renders ahead of what is heard by the device's buffer, and a sound server starts a stream silent.)
    public var position: (measure: String, beat: Int)? {
        guard let heard = output.heardFrame, heard >= 0 else { return nil }
        return resolved.position(at: (heard - Double(renderer.zeroSample)) / Double(sampleRate))
    }
    public var underruns: Int { output.underruns }
    /// Why the device stopped, if it failed.
    public var error: SessionError? { output.error.map { SessionError(.audio, "\($0)") } }

    public func stop() { output.stop() }
}
