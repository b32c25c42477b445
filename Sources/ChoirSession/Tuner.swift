import ChoirAudio
import ChoirPitch
import Glibc

/// A live tuner: the microphone captured on a real-time thread and tracked hop by hop on the caller's.
public final class Tuner {
    public let configuration: PitchTrackerConfiguration
    public let device: String
    private let tracker: any PitchTracker
    private let ring: SPSCRing<Float>
    private let capture: ALSACapture
    private let frames: SlidingWindow

    /// Opens `device` and starts capturing.
    public init(device: String, configuration: PitchTrackerConfiguration) throws(SessionError) {
        self.configuration = configuration
        self.device = device
        do throws(PitchTrackerError) { tracker = try PitchTrackers.make(configuration) } catch {
            throw SessionError(error.isWeights ? .missing : .usage, "\(error)")
        }
        let rate = Int(configuration.sampleRate)
        ring = SPSCRing<Float>(minimumCapacity: rate, filler: 0)
        do {
            capture = try ALSACapture(device: device, sampleRate: rate, periodFrames: 256, ring: ring)
        } catch {
            throw SessionError(.deviceUnavailable, "\(error)")
        }
        frames = SlidingWindow(window: configuration.window, hop: configuration.hop)
        do { try capture.start() } catch { throw SessionError(.audio, "\(error)") }
    }

    /// Seconds captured so far.
    public var seconds: Double { Double(frames.consumed) / configuration.sampleRate }
    /// Whether the device still delivers sound.
    public var isRunning: Bool { capture.isRunning }

    /// Tracks the next hop, waiting up to about a hop's time for it; returns the frame decided then, if one was.
    public func next() -> PitchFrame? {
        guard frames.advance(from: ring) else {
            let missing = max(1, frames.hop - ring.available)
            usleep(UInt32(max(500, min(10_000, missing * 1_000_000 / Int(configuration.sampleRate)))))
            return nil
        }
        guard frames.isFull else { return nil }
        return frames.withSamples { tracker.analyse($0, time: frames.centre(sampleRate: configuration.sampleRate)) }
    }

    /// Stops capturing, hands over the frames the tracker still held back, and says how the capture fared.
    public func stop(_ remaining: (PitchFrame) -> Void) -> (overruns: Int, dropped: Int, error: SessionError?) {
        tracker.finish(remaining)
        capture.stop()
        return (capture.overruns, ring.dropped, capture.error.map { SessionError(.audio, "\($0)") })
    }
}
