import CFluidSynth
import ChoirAudio
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
public final class SynthRenderer: @unchecked Sendable {
    public let sampleRate: Int
    /// Lines of the score, each on its own channel.
    public let lineCount: Int
    public var mixer: Mixer
    /// Samples rendered so far; sample 0 is the start of the count-in, or the range's first beat.
    public private(set) var position = 0
    /// `position` as last published by `render`, safe to read from another thread.
    public var renderedFrames: Int { published.load(ordering: .relaxed) }
    private let published = Atomic<Int>(0)
    /// Where the first beat of the range falls.
    public let zeroSample: Int
    /// The whole render: count-in, every pass and a second for the last notes to ring out.
    public let totalFrames: Int

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

    private struct Event {
        var sample: Int
        var channel: Int32
        var key: Int32
        /// 0 for note-off.
        var velocity: Int32
    }

    /// Loads `soundFont` and prepares `schedule`; `programs` gives each line's GM program (0-based).
    public init(
        soundFont: String, sampleRate: Int, schedule: Schedule, programs: [Int], mixer: Mixer, blockSize: Int = 1024
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
        let channelCount = ((programs.count + 1 + 15) / 16) * 16
        groupCount = channelCount

        FluidSynth.silenced
        settings = new_fluid_settings()
        fluid_settings_setnum(settings, "synth.sample-rate", Double(sampleRate))
        fluid_settings_setint(settings, "synth.midi-channels", Int32(channelCount))
        fluid_settings_setint(settings, "synth.audio-channels", Int32(channelCount))
        fluid_settings_setint(settings, "synth.audio-groups", Int32(channelCount))
        // Reverb and chorus would mix the lines together; the mix must stay the exact sum of the lines.
        fluid_settings_setint(settings, "synth.reverb.active", 0)
        fluid_settings_setint(settings, "synth.chorus.active", 0)
        fluid_settings_setint(settings, "synth.polyphony", 256)
        // Load only the samples of the programs in use, when they are chosen (here, not on the audio thread).
        fluid_settings_setint(settings, "synth.dynamic-sample-loading", 1)
        fluid_settings_setnum(settings, "synth.gain", 0.5)
        guard let synth = new_fluid_synth(settings) else {
            delete_fluid_settings(settings)
            throw PlaybackError("FluidSynth could not start at \(sampleRate) Hz")
        }
        self.synth = synth
        guard fluid_synth_sfload(synth, soundFont, 1) != FLUID_FAILED else {
            delete_fluid_synth(synth)
            delete_fluid_settings(settings)
            throw PlaybackError("\(soundFont): not a SoundFont FluidSynth can load: expected a .sf2 file")
        }
        for (line, channel) in lineChannels.enumerated() {
            fluid_synth_set_channel_type(synth, channel, Int32(CHANNEL_TYPE_MELODIC.rawValue))
            fluid_synth_program_change(synth, channel, Int32(programs[line]))
            // Volume and pan are the mixer's, applied after synthesis.
            fluid_synth_cc(synth, channel, 7, 127)
            fluid_synth_cc(synth, channel, 10, 64)
        }
        fluid_synth_cc(synth, Self.clickChannel, 7, 127)

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

    deinit {
        delete_fluid_synth(synth)
        delete_fluid_settings(settings)
        stems.deallocate()
        stemPointers.deallocate()
    }

    public var isFinished: Bool { position >= totalFrames }

    /// Renders the next `frames` samples into `left` and `right` (overwriting them). Returns how many were
    /// rendered: fewer than asked at the end. Allocates nothing.
    @discardableResult
    public func render(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        let wanted = min(frames, totalFrames - position)
        var done = 0
        while done < wanted {
            while nextEvent < events.count && events[nextEvent].sample <= position {
                let event = events[nextEvent]
                if event.velocity > 0 {
                    fluid_synth_noteon(synth, event.channel, event.key, event.velocity)
                } else {
                    fluid_synth_noteoff(synth, event.channel, event.key)
                }
                nextEvent += 1
            }
            var chunk = min(wanted - done, blockSize)
            if nextEvent < events.count { chunk = min(chunk, events[nextEvent].sample - position) }
            // FluidSynth adds into the stems; clear only the samples it is about to write.
            for buffer in 0..<(2 * groupCount) { stemPointers[buffer]!.update(repeating: 0, count: chunk) }
            fluid_synth_process(synth, Int32(chunk), 0, nil, Int32(2 * groupCount), stemPointers)
            mix(into: left + done, right + done, chunk)
            position += chunk
            done += chunk
        }
        published.store(position, ordering: .relaxed)
        return wanted
    }

    private func mix(into left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, _ count: Int) {
        let click = Float(mixer.clickGain)
        let clickLeft = stemPointers[2 * Int(Self.clickChannel)]!, clickRight = stemPointers[2 * Int(Self.clickChannel) + 1]!
        for i in 0..<count {
            left[i] = click * clickLeft[i]
            right[i] = click * clickRight[i]
        }
        for line in 0..<lineCount {
            let (gainLeft, gainRight) = mixer.stereoGains(line)
            if gainLeft == 0 && gainRight == 0 { continue }
            let channel = Int(lineChannels[line])
            let stemLeft = stemPointers[2 * channel]!, stemRight = stemPointers[2 * channel + 1]!
            for i in 0..<count {
                left[i] += gainLeft * stemLeft[i]
                right[i] += gainRight * stemRight[i]
            }
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
