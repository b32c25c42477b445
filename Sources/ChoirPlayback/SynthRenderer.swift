import CFluidSynth
import ChoirAudio
import ChoirFiles
import ChoirScore
import Glibc
import Synchronization

/// Renders a `Schedule` through FluidSynth, one MIDI channel and one output group per line, mixed with a
/// `Mixer` after synthesis.
///
/// The schedule's events are applied from the sample clock inside `render`: the block is split at every event,
/// so nothing depends on the wall clock. FluidSynth itself starts voices on its 64-sample internal blocks, so a
/// note sounds at most 63 samples (1.3 ms at 48 kHz) after its sample. All buffers are allocated at
/// construction; `render` allocates nothing and takes no lock.
///
/// A live session steers it while it plays, through ``TransportCommand``s sent from one control thread: seek,
/// speed, pause, a loop, a line's gain, a prompt note. They apply at the start of the next `render`, and every
/// change of where or how fast the schedule moves is published as a ``TransportSegment``, so that the control
/// side can tell which schedule time any rendered frame had.
public final class SynthRenderer: @unchecked Sendable {
    public let sampleRate: Int
    /// Lines of the score, each on its own channel.
    public let lineCount: Int
    /// The mix it started with; gains can change later through ``TransportCommand/gain(line:gain:)``.
    public let mixer: Mixer
    /// Frames rendered so far, as the last `render` left them; safe to read from any thread. Without transport
    /// commands, sample 0 is the start of the count-in, or the range's first beat.
    public var position: Int { published.load(ordering: .acquiring) }
    /// Whether the schedule has been played to its end (a paused renderer never finishes), as the last `render`
    /// left it; safe to read from any thread.
    public var isFinished: Bool { finished.load(ordering: .acquiring) }
    private let published = Atomic<Int>(0)
    private let finished = Atomic<Bool>(false)
    /// The rendering thread's own count of frames, published as `position` at the end of each `render`.
    private var frame = 0
    /// Where the schedule is, in its own samples (at speed 1): what `frame` would be had it never been steered.
    private var cursor = 0.0
    /// Where the first beat of the range falls.
    public let zeroSample: Int
    /// The whole render: count-in, every pass and a second for the last notes to ring out.
    public let totalFrames: Int
    /// Whether the end of the music pauses it (published as a segment at ``totalFrames`` with speed 0) instead of
    /// finishing, so that it can be sought and played again. Set it before rendering starts.
    public var holdsAtEnd = false

    private let settings: OpaquePointer
    private let synth: OpaquePointer
    private let lineChannels: [Int32]
    private static let clickChannel: Int32 = 9
    private let groupCount: Int
    private let blockSize: Int
    private let stems: UnsafeMutablePointer<Float>
    private let stemPointers: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    private let events: [Event]
    private var nextEvent = 0
    /// Left and right gain per line, as the mixer and later gain commands set them.
    private let lineGains: UnsafeMutablePointer<Float>
    /// Some lines' share of every rendered frame, mono, for a ring; see ``tap(lines:into:)``.
    private var lineTap: (lines: UnsafeMutableBufferPointer<Int>, ring: SPSCRing<Float>, mono: UnsafeMutablePointer<Float>)?
    private let promptChannel: Int32?
    /// The frame at which the prompt note stops, if one sounds.
    private var promptEnd: Int?
    private var promptKey: Int32 = 0
    private var speed = 1.0
    private var paused = false
    private var loop: (start: Double, end: Double)?
    private let commands = SPSCRing<TransportCommand>(minimumCapacity: 64, filler: .pause(false))
    private let segmentRing = SPSCRing<TransportSegment>(minimumCapacity: 256, filler: TransportSegment())

    private struct Event {
        var sample: Int
        var channel: Int32
        var key: Int32
        /// 0 for note-off.
        var velocity: Int32
    }

    /// Loads `soundFont` and prepares `schedule`; `programs` gives each line's GM program (0-based), and
    /// `promptProgram` the instrument of ``TransportCommand/sound(key:frames:)``, if prompts are wanted.
    /// `tunings` retunes programs key by key: for a program, the cents to add to each of the 128 keys.
    public init(
        soundFont: String, sampleRate: Int, schedule: Schedule, programs: [Int], mixer: Mixer, blockSize: Int = 1024,
        promptProgram: Int? = nil, tunings: [Int: [Double]] = [:]
    ) throws(PlaybackError) {
        guard (8000...192_000).contains(sampleRate) else {
            throw PlaybackError("sample rate \(sampleRate): expected 8000 to 192000 Hz")
        }
        precondition(programs.count == mixer.gains.count, "one program per line")
        self.sampleRate = sampleRate
        self.mixer = mixer
        self.blockSize = blockSize
        lineCount = programs.count
        // Lines take the channels in order, stepping over 9, the GM percussion channel, which the click uses.
        let lineChannels = (0..<programs.count).map { Int32($0 < 9 ? $0 : $0 + 1) }
        self.lineChannels = lineChannels
        let promptChannel = promptProgram.map { _ in Int32(programs.count < 9 ? programs.count : programs.count + 1) }
        self.promptChannel = promptChannel
        let channelCount = ((programs.count + 2 + 15) / 16) * 16
        groupCount = channelCount

        (settings, synth) = try Self.synth(soundFont: soundFont, sampleRate: sampleRate, channels: channelCount)
        // Each retuned program is a tuning of its own, given to the channels that play it.
        var tuningIDs: [Int: Int32] = [:]
        for (program, cents) in tunings.sorted(by: { $0.key < $1.key }) where cents.count == 128 {
            let id = Int32(tuningIDs.count)
            let pitches = (0..<128).map { Double($0) * 100 + cents[$0] }
            fluid_synth_activate_key_tuning(synth, 0, id, "choir", pitches, 1)
            tuningIDs[program] = id
        }
        for (line, channel) in lineChannels.enumerated() {
            fluid_synth_set_channel_type(synth, channel, Int32(CHANNEL_TYPE_MELODIC.rawValue))
            fluid_synth_program_change(synth, channel, Int32(programs[line]))
            if let id = tuningIDs[programs[line]] { fluid_synth_activate_tuning(synth, channel, 0, id, 1) }
            // Volume and pan are the mixer's, applied after synthesis.
            fluid_synth_cc(synth, channel, 7, 127)
            fluid_synth_cc(synth, channel, 10, 64)
        }
        fluid_synth_cc(synth, Self.clickChannel, 7, 127)
        if let promptChannel, let promptProgram {
            fluid_synth_program_change(synth, promptChannel, Int32(promptProgram))
            if let id = tuningIDs[promptProgram] { fluid_synth_activate_tuning(synth, promptChannel, 0, id, 1) }
            fluid_synth_cc(synth, promptChannel, 7, 127)
        }
        lineGains = .allocate(capacity: 2 * max(1, programs.count))
        for line in 0..<programs.count {
            (lineGains[2 * line], lineGains[2 * line + 1]) = mixer.stereoGains(line)
        }

        stems = .allocate(capacity: 2 * groupCount * blockSize)
        stems.initialize(repeating: 0, count: 2 * groupCount * blockSize)
        stemPointers = .allocate(capacity: 2 * groupCount)
        for i in 0..<(2 * groupCount) { stemPointers[i] = stems + i * blockSize }

        let rate = Double(sampleRate)
        let zeroSample = Int((schedule.preroll * rate).rounded())
        self.zeroSample = zeroSample
        var events: [Event] = []
        events.reserveCapacity(schedule.notes.count * 2)
        for note in schedule.notes {
            let channel = note.line.map { lineChannels[$0] } ?? Self.clickChannel
            let on = zeroSample + Int((note.start * rate).rounded())
            let off = max(on + 1, zeroSample + Int((note.end * rate).rounded()))
            events.append(Event(sample: on, channel: channel, key: Int32(note.midi), velocity: Int32(max(1, min(127, note.velocity)))))
            events.append(Event(sample: off, channel: channel, key: Int32(note.midi), velocity: 0))
        }
        // At the same sample a note ends before the next one starts, so repeated notes are struck again.
        events.sort { $0.sample == $1.sample ? $0.velocity < $1.velocity : $0.sample < $1.sample }
        self.events = events
        totalFrames = zeroSample + Int((schedule.length * rate).rounded()) + sampleRate
    }

    /// A FluidSynth with `soundFont` loaded, for `channels` MIDI channels each on an output of its own.
    private static func synth(soundFont: String, sampleRate: Int, channels: Int) throws(PlaybackError)
        -> (OpaquePointer, OpaquePointer)
    {
        FluidSynth.silenced
        let settings = new_fluid_settings()!
        fluid_settings_setnum(settings, "synth.sample-rate", Double(sampleRate))
        fluid_settings_setint(settings, "synth.midi-channels", Int32(channels))
        fluid_settings_setint(settings, "synth.audio-channels", Int32(channels))
        fluid_settings_setint(settings, "synth.audio-groups", Int32(channels))
        // Reverb and chorus would mix the lines together; the mix must stay the exact sum of the lines.
        fluid_settings_setint(settings, "synth.reverb.active", 0)
        fluid_settings_setint(settings, "synth.chorus.active", 0)
        fluid_settings_setint(settings, "synth.polyphony", 256)
        // Load only the samples of the programs in use, when they are chosen (here, not on the audio thread).
        fluid_settings_setint(settings, "synth.dynamic-sample-loading", 1)
        fluid_settings_setnum(settings, "synth.gain", 0.5)
        // Only the rendering thread calls into the synth once it is built (commands reach it through a ring), so
        // FluidSynth's own mutex around every call would only cost time on the audio thread.
        fluid_settings_setint(settings, "synth.threadsafe-api", 0)
        guard let synth = new_fluid_synth(settings) else {
            delete_fluid_settings(settings)
            throw PlaybackError("FluidSynth could not start at \(sampleRate) Hz")
        }
        guard FileName.withPath(soundFont, { fluid_synth_sfload(synth, $0, 1) }) != FLUID_FAILED else {
            delete_fluid_synth(synth)
            delete_fluid_settings(settings)
            throw PlaybackError("\(soundFont): not a SoundFont FluidSynth can load: expected a .sf2 file")
        }
        return (settings, synth)
    }

    /// Each of `keys` played alone on `program` for `seconds` (its left and right channels, velocity 80), retuned by
    /// `tuning` (cents per key) if given: for measuring how a SoundFont's samples are tuned.
    public static func soundKeys(
        _ keys: [Int], program: Int, soundFont: String, sampleRate: Int, seconds: Double, tuning: [Double]? = nil
    ) throws(PlaybackError) -> [[[Float]]] {
        let (settings, synth) = try synth(soundFont: soundFont, sampleRate: sampleRate, channels: 16)
        defer {
            delete_fluid_synth(synth)
            delete_fluid_settings(settings)
        }
        fluid_synth_program_change(synth, 0, Int32(program))
        if let tuning, tuning.count == 128 {
            fluid_synth_activate_key_tuning(synth, 0, 0, "choir", (0..<128).map { Double($0) * 100 + tuning[$0] }, 1)
            fluid_synth_activate_tuning(synth, 0, 0, 0, 1)
        }
        let frames = Int(seconds * Double(sampleRate))
        var left = [Float](repeating: 0, count: frames), right = left
        return keys.map { key in
            fluid_synth_noteon(synth, 0, Int32(key), 80)
            fluid_synth_write_float(synth, Int32(frames), &left, 0, 1, &right, 0, 1)
            fluid_synth_all_sounds_off(synth, 0)
            return [left, right]
        }
    }

    deinit {
        delete_fluid_synth(synth)
        delete_fluid_settings(settings)
        stems.deallocate()
        stemPointers.deallocate()
        lineGains.deallocate()
        lineTap?.mono.deallocate()
        lineTap?.lines.deallocate()
    }

    private var atEnd: Bool { !paused && cursor >= Double(totalFrames) }

    /// Control side: queues a command for the next `render`. Returns false if the queue is full (it is dropped).
    @discardableResult
    public func send(_ command: TransportCommand) -> Bool {
        withUnsafePointer(to: command) { commands.write(UnsafeBufferPointer(start: $0, count: 1)) } == 1
    }

    /// Control side: the segments published since the last call, oldest first.
    public func segments() -> [TransportSegment] {
        var result: [TransportSegment] = []
        var segment = TransportSegment()
        while withUnsafeMutablePointer(to: &segment, { segmentRing.read(into: UnsafeMutableBufferPointer(start: $0, count: 1)) }) == 1 {
            result.append(segment)
        }
        return result
    }

    /// Renders the next `frames` samples into `left` and `right` (overwriting them). Returns how many were
    /// rendered: fewer than asked at the end. Allocates nothing.
    @discardableResult
    public func render(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        applyCommands()
        var done = 0
        while done < frames {
            if let loop, !paused, cursor >= loop.end { jump(to: loop.start) }
            if atEnd {
                guard holdsAtEnd else { break }
                paused = true
                publishSegment()
            }
            while nextEvent < events.count && Double(events[nextEvent].sample) <= cursor {
                let event = events[nextEvent]
                if event.velocity > 0 {
                    fluid_synth_noteon(synth, event.channel, event.key, event.velocity)
                } else {
                    fluid_synth_noteoff(synth, event.channel, event.key)
                }
                nextEvent += 1
            }
            if let end = promptEnd, end <= frame, let promptChannel {
                fluid_synth_noteoff(synth, promptChannel, promptKey)
                promptEnd = nil
            }
            var chunk = min(frames - done, blockSize)
            if !paused {
                // Up to the next event (or loop end), at the current speed: events land on their exact frame.
                var limit = Double(totalFrames)
                if nextEvent < events.count { limit = min(limit, Double(events[nextEvent].sample)) }
                if let loop { limit = min(limit, loop.end) }
                chunk = min(chunk, max(1, Int(((limit - cursor) / speed).rounded(.up))))
            }
            if let end = promptEnd { chunk = min(chunk, max(1, end - frame)) }
            // FluidSynth adds into the stems; clear only the samples it is about to write.
            for buffer in 0..<(2 * groupCount) { stemPointers[buffer]!.update(repeating: 0, count: chunk) }
            fluid_synth_process(synth, Int32(chunk), 0, nil, Int32(2 * groupCount), stemPointers)
            mix(into: left + done, right + done, chunk)
            frame += chunk
            done += chunk
            if !paused { cursor += Double(chunk) * speed }
        }
        published.store(frame, ordering: .releasing)
        finished.store(atEnd, ordering: .releasing)
        return done
    }

    private func applyCommands() {
        var command = TransportCommand.pause(false)
        while withUnsafeMutablePointer(to: &command, { commands.read(into: UnsafeMutableBufferPointer(start: $0, count: 1)) }) == 1 {
            switch command {
            case .seek(let sample):
                jump(to: Double(max(0, min(totalFrames, sample))))
            case .speed(let newSpeed):
                speed = max(0.05, min(8, newSpeed))
                publishSegment()
            case .pause(let pause):
                guard pause != paused else { continue }
                paused = pause
                if pause { silenceLines() }
                publishSegment()
            case .loop(let start, let end):
                loop = end > start ? (Double(start), Double(end)) : nil
            case .gain(let line, let gain):
                guard (0..<lineCount).contains(line) else { continue }
                let angle = (mixer.pans[line] + 1) * .pi / 4
                lineGains[2 * line] = Float(gain * cos(angle) * 2.squareRoot())
                lineGains[2 * line + 1] = Float(gain * sin(angle) * 2.squareRoot())
            case .sound(let key, let frames):
                guard let promptChannel else { continue }
                if promptEnd != nil { fluid_synth_noteoff(synth, promptChannel, promptKey) }
                promptKey = Int32(key)
                fluid_synth_noteon(synth, promptChannel, promptKey, 100)
                promptEnd = frame + max(1, frames)
            }
        }
    }

    /// Moves the schedule to `sample`: what sounds stops, and the next event is the first at or after it.
    private func jump(to sample: Double) {
        silenceLines()
        cursor = sample
        var low = 0, high = events.count
        while low < high {
            let mid = (low + high) / 2
            if Double(events[mid].sample) < sample { low = mid + 1 } else { high = mid }
        }
        nextEvent = low
        publishSegment()
    }

    private func silenceLines() {
        for channel in lineChannels { fluid_synth_all_notes_off(synth, channel) }
        fluid_synth_all_notes_off(synth, Self.clickChannel)
    }

    private func publishSegment() {
        var segment = TransportSegment(frame: frame, cursor: cursor, speed: paused ? 0 : speed)
        withUnsafePointer(to: &segment) { _ = segmentRing.write(UnsafeBufferPointer(start: $0, count: 1)) }
    }

    /// Writes the share of `lines` in every frame rendered from now on (mono, at their gains) into `ring`, beside
    /// the mix: for a session that must tell the singer's own lines from the rest of what it plays. Call it before
    /// rendering starts; the rendering thread then writes the ring (allocation-free; a full ring drops and counts).
    public func tap(lines: [Int], into ring: SPSCRing<Float>) {
        precondition(lines.allSatisfy { $0 >= 0 && $0 < lineCount } && lineTap == nil)
        let mono = UnsafeMutablePointer<Float>.allocate(capacity: blockSize)
        mono.initialize(repeating: 0, count: blockSize)
        let indices = UnsafeMutableBufferPointer<Int>.allocate(capacity: lines.count)
        _ = indices.initialize(from: lines)
        lineTap = (indices, ring, mono)
    }

    private func mix(into left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, _ count: Int) {
        let click = Float(mixer.clickGain)
        if let promptChannel {
            let promptLeft = stemPointers[2 * Int(promptChannel)]!, promptRight = stemPointers[2 * Int(promptChannel) + 1]!
            for i in 0..<count {
                left[i] = promptLeft[i]
                right[i] = promptRight[i]
            }
        } else {
            left.update(repeating: 0, count: count)
            right.update(repeating: 0, count: count)
        }
        let clickLeft = stemPointers[2 * Int(Self.clickChannel)]!, clickRight = stemPointers[2 * Int(Self.clickChannel) + 1]!
        for i in 0..<count {
            left[i] += click * clickLeft[i]
            right[i] += click * clickRight[i]
        }
        for line in 0..<lineCount {
            let gainLeft = lineGains[2 * line], gainRight = lineGains[2 * line + 1]
            if gainLeft == 0 && gainRight == 0 { continue }
            let channel = Int(lineChannels[line])
            let stemLeft = stemPointers[2 * channel]!, stemRight = stemPointers[2 * channel + 1]!
            for i in 0..<count {
                left[i] += gainLeft * stemLeft[i]
                right[i] += gainRight * stemRight[i]
            }
        }
        if let (lines, ring, mono) = lineTap {
            mono.update(repeating: 0, count: count)
            for line in lines {
                let gainLeft = lineGains[2 * line], gainRight = lineGains[2 * line + 1]
                let channel = Int(lineChannels[line])
                let stemLeft = stemPointers[2 * channel]!, stemRight = stemPointers[2 * channel + 1]!
                for i in 0..<count { mono[i] += (gainLeft * stemLeft[i] + gainRight * stemRight[i]) / 2 }
            }
            ring.write(UnsafeBufferPointer(start: mono, count: count))
        }
    }

    /// Renders everything that is left into two new arrays. For files and tests.
    public func renderAll() -> (left: [Float], right: [Float]) {
        var left = [Float](repeating: 0, count: totalFrames - position)
        var right = left
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                _ = render(left: l.baseAddress!, right: r.baseAddress!, frames: l.count)
            }
        }
        return (left, right)
    }
}

extension SynthRenderer: AudioSource {}

/// A change to what a ``SynthRenderer`` plays, from the control thread. Positions are in the schedule's own
/// samples (its sample 0 is the start of the count-in).
public enum TransportCommand: BitwiseCopyable, Sendable {
    /// Go to this schedule sample; what sounds stops.
    case seek(sample: Int)
    /// Move through the schedule this many times faster than written (tempo changes keep pitch).
    case speed(Double)
    /// Stop moving and sound nothing but the prompt; or go on.
    case pause(Bool)
    /// Jump back to `from` whenever `to` is reached; `to <= from` ends the loop.
    case loop(from: Int, to: Int)
    /// Set one line's gain (0…1), keeping its place in the stereo field.
    case gain(line: Int, gain: Double)
    /// Sound `key` on the prompt instrument for `frames` frames, whatever the mix.
    case sound(key: Int, frames: Int)
}

/// From rendered frame `frame` on, the schedule moved from `cursor` at `speed` schedule samples per frame
/// (0 while paused).
public struct TransportSegment: BitwiseCopyable, Sendable, Equatable {
    public var frame = 0
    public var cursor = 0.0
    public var speed = 1.0

    public init(frame: Int = 0, cursor: Double = 0, speed: Double = 1) {
        self.frame = frame
        self.cursor = cursor
        self.speed = speed
    }

    /// The schedule sample heard at rendered frame `frame` (at or after this segment's start).
    public func cursor(at frame: Int) -> Double { cursor + Double(frame - self.frame) * speed }
}
