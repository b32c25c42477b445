import ChoirAudio
import ChoirBase
import ChoirPlayback
import ChoirPractice
import Synchronization

/// A score's mix playing on an audio device, on its own real-time thread, steered with ``SessionCommand``s: pause,
/// steps and seeks by measure, a phrase looped, the tempo, the singer's line muted, their next note sounded.
/// Every member may be used from any thread.
public final class PlaybackSession: SteeredSession, @unchecked Sendable {
    public let resolved: ResolvedPlayback
    public let device: String
    public let sampleRate: Int
    /// The notes the cursor follows: the singer's lines', or without one the first line that plays.
    public let notes: [ExpectedNote]
    public var isLive: Bool { true }
    public var judges: Bool { false }
    private let renderer: SynthRenderer
    private let output: any PlaybackStream
    private let control: Locked<Control>
    private let quit = Atomic<Bool>(false)

    private struct Control {
        var transport: Transport
        /// Where the schedule is from each rendered frame on: the latest segment heard, and those rendered after it.
        var segments = [TransportSegment()]
    }

    /// Loads the mix and opens `device` ("none" or "null": silence, on the monotonic clock), rendering `period`
    /// frames at a time. With `startsPaused` the music waits for ``SessionCommand/togglePause``; with `holdsAtEnd` it
    /// pauses at its end instead of finishing, to be played again.
    public init(
        _ resolved: ResolvedPlayback, device: String, sampleRate: Int, period: Int, startsPaused: Bool = false,
        holdsAtEnd: Bool = false
    ) throws(SessionError) {
        guard (16...8192).contains(period) else { throw SessionError(.usage, "period \(period): expected 16 to 8192 frames") }
        self.resolved = resolved
        self.device = device
        self.sampleRate = sampleRate
        let followed = resolved.singers.isEmpty ? resolved.schedule.notes.compactMap(\.line).min().map { [$0] } ?? [] : resolved.singers
        notes = ExpectedNote.notes(of: followed, in: resolved.schedule, score: resolved.score)
        do {
            renderer = try resolved.renderer(sampleRate: sampleRate, blockSize: period, prompts: true)
        } catch {
            throw SessionError(.input, "\(error)")
        }
        renderer.holdsAtEnd = holdsAtEnd
        if startsPaused { renderer.send(.pause(true)) }
        control = Locked(
            Control(
                transport: Transport(
                    resolved: resolved, notes: notes, renderer: renderer, sampleRate: sampleRate, locked: false, paused: startsPaused)))
        if MixDestination.isNone(device) {
            output = SilentPlayback(sampleRate: sampleRate, periodFrames: period, source: renderer)
        } else {
            do {
                output = try ALSAPlayback(device: device, sampleRate: sampleRate, periodFrames: period, source: renderer)
            } catch {
                throw SessionError(.deviceUnavailable, "\(error)")
            }
        }
    }

    public func start() throws(SessionError) {
        do { try output.start() } catch { throw SessionError(.audio, "\(error)") }
    }

    /// Whether the whole mix has been played, or ``SessionCommand/quit`` was sent.
    public var hasEnded: Bool { output.isFinished || quit.load(ordering: .acquiring) }
    /// Seconds of the mix rendered so far, count-in and pauses included.
    public var seconds: Double { Double(renderer.position) / Double(sampleRate) }
    public var underruns: Int { output.underruns }
    /// Why the device stopped, if it failed.
    public var error: SessionError? { output.error.map { SessionError(.audio, "\($0)") } }

    public func send(_ command: SessionCommand) {
        control.withLock { control in
            follow(&control)
            if control.transport.apply(command) { quit.store(true, ordering: .releasing) }
        }
    }

    /// Where the music being heard is. (The synthesizer renders ahead of what is heard by the device's buffer, and
    /// a sound server starts a stream silent.)
    public var snapshot: SessionSnapshot {
        control.withLock { control in
            let heard = follow(&control)
            let transport = control.transport, time = transport.scoreTime
            var snapshot = SessionSnapshot()
            snapshot.time = time
            if heard { (snapshot.measure, snapshot.beat) = resolved.position(at: time) }
            snapshot.pass = resolved.pass(at: time)
            snapshot.passes = resolved.schedule.passes
            snapshot.tempo = resolved.schedule.initialTempo * Double(transport.percent) / 100
            snapshot.tempoPercent = transport.percent
            snapshot.paused = transport.paused
            let score = resolved.score, measures = resolved.schedule.measures
            let number = { (played: Int) in score.measures[measures[played].index].number }
            snapshot.loop = transport.looping.map { (number($0.lowerBound), number($0.upperBound)) }
            snapshot.mineMuted = transport.mineMuted
            snapshot.current = notes.last { $0.onset <= time && $0.end > time }
            snapshot.next = notes.first { $0.onset > time }
            snapshot.ended = hasEnded
            return snapshot
        }
    }

    /// Takes in the segments rendered since the last call and puts the transport at the score time being heard;
    /// returns whether the device has started playing the mix.
    @discardableResult
    private func follow(_ control: inout Control) -> Bool {
        for segment in renderer.segments() {
            if segment.speed == 0 && segment.cursor >= Double(renderer.totalFrames) { control.transport.holdAtEnd() }
            control.segments.append(segment)
        }
        guard let heard = output.heardFrame, heard >= 0 else {
            control.transport.scoreTime = -resolved.schedule.preroll
            return false
        }
        let frame = Int(heard)
        if let current = control.segments.lastIndex(where: { $0.frame <= frame }) { control.segments.removeFirst(current) }
        let cursor = control.segments[0].cursor(at: frame)
        control.transport.scoreTime = (cursor - Double(control.transport.zeroSample)) / Double(sampleRate)
        return true
    }

    public func stop() { output.stop() }
}
