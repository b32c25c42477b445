import ChoirAudio
import ChoirBase
import ChoirPitch
import Synchronization

/// A tuner as a session: the microphone captured on a real-time thread (or a recording, read as fast as it goes),
/// tracked hop by hop on a thread of the tuner's own, each decided frame published as an ``Event/reading(_:)``.
///
/// A front end subscribes to ``events()``, calls ``start()``, may ``stop()``, and gets how the capture fared as the
/// last event or from ``wait()``. Every member may be used from any thread.
public final class Tuner: @unchecked Sendable {
    /// What a tuner hears. A stream starts with ``began(_:)`` and ends with ``ended(_:)``.
    public enum Event: Sendable {
        /// Everything so far at once: the first event of every stream.
        case began(State)
        /// A frame the tracker decided: a note and its cents, or unvoiced.
        case reading(PitchFrame)
        /// The tuner has stopped; nothing follows.
        case ended(Outcome)
    }

    /// The latest reading, and the outcome once stopped.
    public struct State: Sendable {
        public var latest: PitchFrame?
        public var outcome: Outcome?
    }

    /// How the capture fared.
    public struct Outcome: Sendable {
        /// Seconds heard.
        public var seconds: Double
        /// Times the capture fell behind the device, and the samples lost to a full ring.
        public var overruns: Int
        public var dropped: Int
        /// What stopped the device, if something did.
        public var error: SessionError?

        /// How the capture from `device` fared, as a front end says it at the end.
        public func summary(device: String) -> String {
            "captured \(String(printf: "%.1f", seconds)) s from '\(device)', \(overruns) overruns, \(dropped) samples dropped"
        }
    }

    public let configuration: PitchTrackerConfiguration
    /// The capture device, or the recording's path.
    public let device: String
    /// Seconds after which the tuner stops by itself (for scripts and tests); nil: when told to, or at a recording's end.
    public let duration: Double?
    private let tracker: any PitchTracker
    private let ring: SPSCRing<Float>
    private let source: Source
    private let frames: SlidingWindow
    private let stopping = Atomic<Bool>(false)
    private let thread = Locked<StreamThread?>(nil)
    private let outcome = Locked<Outcome?>(nil)
    private let broadcaster = EventBroadcaster<Event, State>(
        State(),
        apply: { state, event in
            switch event {
            case .began(let began): state = began
            case .reading(let frame): state.latest = frame
            case .ended(let outcome): state.outcome = outcome
            }
        }, catchUp: { .began($0) })

    private enum Source {
        case device(ALSACapture)
        /// The recording's samples, and how many have gone into the ring.
        case recording([Float], Locked<Int>)
    }

    /// Opens `device`; the capture starts with ``start()``.
    public init(device: String, configuration: PitchTrackerConfiguration, duration: Double? = nil) throws(SessionError) {
        self.configuration = configuration
        self.device = device
        self.duration = duration
        do throws(PitchTrackerError) { tracker = try PitchTrackers.make(configuration) } catch {
            throw SessionError(error.isWeights ? .missing : .usage, "\(error)")
        }
        let rate = Int(configuration.sampleRate)
        ring = SPSCRing<Float>(minimumCapacity: rate, filler: 0)
        do {
            source = .device(try ALSACapture(device: device, sampleRate: rate, periodFrames: 256, ring: ring))
        } catch {
            throw SessionError(.deviceUnavailable, "\(error)")
        }
        frames = SlidingWindow(window: configuration.window, hop: configuration.hop)
    }

    /// Reads the recording at `path` in place of a microphone (at its own sample rate, which `configuration` is
    /// made for); the tuner stops at its end.
    public init(recording path: String, configuration: (Int) -> PitchTrackerConfiguration) throws(SessionError) {
        let audio: AudioFile.Audio
        do { audio = try AudioFile.read(contentsOf: path) } catch { throw SessionError(reading: error) }
        self.configuration = configuration(audio.sampleRate)
        device = path
        duration = nil
        do { tracker = try PitchTrackers.make(self.configuration) } catch { throw SessionError(.usage, "\(path): \(error)") }
        ring = SPSCRing<Float>(minimumCapacity: audio.sampleRate, filler: 0)
        source = .recording(audio.samples, Locked(0))
        frames = SlidingWindow(window: self.configuration.window, hop: self.configuration.hop)
    }

    /// What the tuner hears from now on: each call gives a stream of its own (see ``EventBroadcaster``).
    public func events() -> AsyncStream<Event> { broadcaster.subscribe() }

    /// Starts capturing, and tracking on the tuner's thread.
    public func start() throws(SessionError) {
        if case .device(let capture) = source {
            do { try capture.start() } catch { throw SessionError(.audio, "\(error)") }
        }
        do {
            let started = try StreamThread("tuner") { [self] in run() }
            thread.withLock { $0 = started }
        } catch {
            throw SessionError(.audio, "\(error)")
        }
    }

    /// Stops the tuner; the frames the tracker held back are published before the end.
    public func stop() { stopping.store(true, ordering: .releasing) }

    /// Waits for the tuner to stop and says how the capture fared.
    public func wait() -> Outcome {
        thread.withLock { $0 }?.joinWhenDone()
        // Never started: nothing was heard.
        return outcome.withLock { $0 } ?? Outcome(seconds: 0, overruns: 0, dropped: 0)
    }

    private var seconds: Double { Double(frames.consumed) / configuration.sampleRate }

    private func run() {
        let hop = Double(configuration.hop) / configuration.sampleRate
        while !stopping.load(ordering: .acquiring), duration.map({ seconds + hop <= $0 }) ?? true {
            guard let heard = next() else { break }
            if let frame = heard { broadcaster.publish(.reading(frame)) }
        }
        tracker.finish { broadcaster.publish(.reading($0)) }
        var ended = Outcome(seconds: seconds, overruns: 0, dropped: ring.dropped)
        if case .device(let capture) = source {
            capture.stop()
            ended.overruns = capture.overruns
            ended.error = capture.error.map { SessionError(.audio, "\($0)") }
        }
        outcome.withLock { $0 = ended }
        broadcaster.finish(with: .ended(ended))
    }

    /// Tracks the next hop: the frame decided then, if one was (`.some(nil)` when none was yet); nil once there is
    /// nothing more to hear (the device has stopped, the recording ended).
    private func next() -> PitchFrame?? {
        switch source {
        case .device(let capture):
            guard capture.isRunning else { return nil }
            guard frames.advance(from: ring) else {
                // The tuner's own thread waits for the capture's next period (the window took all the ring had);
                // never the real-time one.
                capture.doorbell.wait(timeout: 0.1) { ring.available == 0 && capture.isRunning }
                return .some(nil)
            }
        case .recording(let samples, let read):
            let done = read.withLock { read in
                read += samples[read...].prefix(frames.hop).withUnsafeBufferPointer { ring.write($0) }
                return read
            }
            guard frames.advance(from: ring) else { return done < samples.count ? .some(nil) : nil }
        }
        guard frames.isFull else { return .some(nil) }
        return .some(frames.withSamples { tracker.analyse($0, time: frames.centre(sampleRate: configuration.sampleRate)) })
    }
}
