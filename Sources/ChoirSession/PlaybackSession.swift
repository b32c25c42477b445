import ChoirAudio
import ChoirBase
import ChoirPlayback
import ChoirPractice
import Synchronization

/// A score's mix playing on an audio device, on its own real-time thread, steered with ``SessionCommand``s: pause,
/// steps and seeks by measure, a phrase looped, the tempo, the singer's line muted, their next note sounded.
/// A thread of its own follows what the device plays and publishes it as events. Every member may be used from any
/// thread.
public final class PlaybackSession: SteeredSession, @unchecked Sendable {
    public let resolved: ResolvedPlayback
    public let device: String
    public let sampleRate: Int
    /// The notes the cursor follows: the singer's lines', or without one the first line that plays.
    public let notes: [ExpectedNote]
    public var isLive: Bool { true }
    public var judges: Bool { false }
    public var locked: Bool { false }
    private let renderer: SynthRenderer
    private let output: any PlaybackStream
    private let control: Locked<Control>
    private let quit = Atomic<Bool>(false)
    private let broadcaster: EventBroadcaster<SessionEvent, SessionSnapshot>
    private let pump = Locked<StreamThread?>(nil)
    private let period: Int

    private struct Control {
        var transport: Transport
        /// Where the schedule is from each rendered frame on: the latest segment heard, and those rendered after it.
        var segments = [TransportSegment()]
        var publisher: SessionPublisher
    }

    /// The frames a playback thread may render at a time: fewer than 16 wakes it more often than any device can
    /// keep up with, more than 8192 (170 ms at 48 kHz) is a delay no one can play along with.
    public static let periods = 16...8192
    /// The sample rates the synthesizer and the devices are opened at.
    public static let sampleRates = 8000...192_000

    /// Loads the mix and opens `device` ("none" or "null": silence, on the monotonic clock), rendering `period`
    /// frames at a time. With `startsPaused` the music waits for ``SessionCommand/togglePause``; with `holdsAtEnd` it
    /// pauses at its end instead of finishing, to be played again.
    public init(
        _ resolved: ResolvedPlayback, device: String, sampleRate: Int, period: Int, startsPaused: Bool = false,
        holdsAtEnd: Bool = false
    ) throws(SessionError) {
        guard Self.periods.contains(period) else {
            throw SessionError(.usage, "period \(period): expected \(Self.periods.lowerBound) to \(Self.periods.upperBound) frames")
        }
        self.resolved = resolved
        self.device = device
        self.sampleRate = sampleRate
        self.period = period
        let followed = resolved.singers.isEmpty ? resolved.schedule.notes.compactMap(\.line).min().map { [$0] } ?? [] : resolved.singers
        notes = ExpectedNote.notes(of: followed, in: resolved.schedule, score: resolved.score)
        do {
            renderer = try resolved.renderer(sampleRate: sampleRate, blockSize: period, prompts: true)
        } catch {
            throw SessionError(.input, "\(error)")
        }
        renderer.holdsAtEnd = holdsAtEnd
        if startsPaused { renderer.send(.pause(true)) }
        let transport = Transport(
            resolved: resolved, notes: notes, renderer: renderer, sampleRate: sampleRate, locked: false, paused: startsPaused)
        var start = SessionSnapshot()
        start.time = -resolved.schedule.preroll
        start.passes = resolved.schedule.passes
        start.apply(.transport(transport.state))
        start.next = notes.first
        broadcaster = EventBroadcaster(start)
        let publisher = SessionPublisher(broadcaster, resolved: resolved, notes: notes, transport: transport.state)
        control = Locked(Control(transport: transport, publisher: publisher))
        if MixDestination.isNone(device) {
            do {
                output = try SilentPlayback(sampleRate: sampleRate, periodFrames: period, source: renderer)
            } catch {
                throw SessionError(.audio, "\(error)")
            }
        } else {
            do {
                output = try ALSAPlayback(device: device, sampleRate: sampleRate, periodFrames: period, source: renderer)
            } catch {
                throw SessionError(.deviceUnavailable, "\(error)")
            }
        }
    }

    /// Starts playing, and following what is played.
    public func start() throws(SessionError) {
        do {
            try output.start()
            let started = try StreamThread("playback events") { [self] in follow() }
            pump.withLock { $0 = started }
        } catch {
            output.stop()
            throw SessionError(.audio, "\(error)")
        }
    }

    /// What happens from now on: where the music heard is, the transport as the singer sets it, the pass; the
    /// last event comes once the mix has been played, the singer quit, or the device failed.
    public func events() -> AsyncStream<SessionEvent> { broadcaster.subscribe() }

    /// Whether the whole mix has been played, or ``SessionCommand/quit`` was sent.
    public var hasEnded: Bool { output.isFinished || quit.load(ordering: .acquiring) }
    /// Seconds of the mix rendered so far, count-in and pauses included.
    public var seconds: Double { Double(renderer.position) / Double(sampleRate) }
    public var underruns: Int { output.underruns }
    /// How long after the stream started each of its first underruns came, in seconds.
    public var underrunTimes: [Double] { output.underrunTimes }
    /// Why the device stopped, if it failed.
    public var error: SessionError? { output.error.map { SessionError(.audio, "\($0)") } }

    /// Passes the command to the renderer; what it changes in the transport is published at once, and where the
    /// music is once it is heard there.
    public func send(_ command: SessionCommand) {
        control.withLock { control in
            if control.transport.apply(command) { quit.store(true, ordering: .releasing) }
            publish(&control)
        }
    }

    /// The session's own thread: publishes where the music is each time the device has played another period, until
    /// the end.
    private func follow() {
        while !hasEnded && output.error == nil {
            let played = output.doorbell.count
            control.withLock { publish(&$0) }
            // The stream's thread rings after each period, paused or not, and as it ends; the timeout only guards
            // against a device that has stopped taking frames (whose error then ends the loop).
            output.doorbell.wait(after: played, timeout: 0.1)
        }
        control.withLock { publish(&$0) }
        broadcaster.finish(with: .ended(nil))
    }

    /// Publishes what changed: the transport, where the music being heard is, the pass. (The synthesizer renders
    /// ahead of what is heard by the device's buffer, and a sound server starts a stream silent: a seek is heard,
    /// and published, a buffer later.)
    private func publish(_ control: inout Control) {
        let heard = follow(&control)
        let time = control.transport.scoreTime
        control.publisher.publish(at: time, started: heard, transport: control.transport.state, pass: resolved.pass(at: time))
    }

    /// Takes in the segments rendered since the last call and puts the transport at the score time being heard;
    /// returns whether the device has started playing the mix.
    @discardableResult
    private func follow(_ control: inout Control) -> Bool {
        // What is heard is read off a clock that runs on between its readings, so on a loaded machine it can pass
        // what has been rendered; nothing is heard before it is rendered. The rendered frame is read before the
        // segments, which the renderer publishes first, so that every segment up to it is in hand. (Otherwise a
        // loop's jump back not yet rendered or read left the music in the measure after the loop for a moment.)
        let heardFrame = output.heardFrame
        let rendered = renderer.position
        for segment in renderer.segments() {
            if segment.speed == 0 && segment.cursor >= Double(renderer.totalFrames) { control.transport.holdAtEnd() }
            control.segments.append(segment)
        }
        guard let heard = heardFrame, heard >= 0 else {
            control.transport.scoreTime = -resolved.schedule.preroll
            return false
        }
        var frame = min(Int(heard), rendered)
        if let current = control.segments.lastIndex(where: { $0.frame <= frame }) { control.segments.removeFirst(current) }
        // The heard frame is read off a clock that jitters under load: one read a little early after a seek must
        // not put the music back before the seek (the measure before it), whose segment has been left behind.
        frame = max(frame, control.segments[0].frame)
        let cursor = control.segments[0].cursor(at: frame)
        control.transport.scoreTime = (cursor - Double(control.transport.zeroSample)) / Double(sampleRate)
        return true
    }

    /// Stops playing; the events end.
    public func stop() {
        quit.store(true, ordering: .releasing)
        pump.withLock { $0 }?.joinWhenDone()
        output.stop()
    }
}
