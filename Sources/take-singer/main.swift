import ChoirAudio
import Glibc

// `take-singer TAKE.wav HEAR-DEVICE SING-DEVICE SELF-DEVICE FIRST-SOUND FIRST-BEAT`: the singer of the real-time
// tests, in a process of its own like a person at a microphone. It listens on HEAR-DEVICE for a mix whose first
// sound is at frame FIRST-SOUND and whose first beat is at frame FIRST-BEAT (at 48 kHz), and sings TAKE (time 0 =
// the first beat) into SING-DEVICE so that it arrives at SELF-DEVICE (what choir hears of it) as that beat is
// heard. A sound server's reported playback delay is not to be trusted while streams connect, so the singer
// clicks once during the count-in and listens for the click on SELF-DEVICE; only capture clocks are used, read
// once they have settled. It prints `listening` once it listens, and its underruns when it has sung.

func fail(_ message: String) -> Never {
    let line = "take-singer: \(message)\n"
    _ = write(2, line, line.utf8.count)
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 7, let firstSound = Int(arguments[5]), let firstBeat = Int(arguments[6]) else {
    fail("usage: take-singer TAKE.wav HEAR-DEVICE SING-DEVICE SELF-DEVICE FIRST-SOUND FIRST-BEAT")
}

/// A capture stream's frames as they arrive: finds sounds in them and tells when a frame was at the converter.
struct Ears {
    let ring: SPSCRing<Float>
    let clock: AudioClock
    private var buffer = [Float](repeating: 0, count: 4096)
    /// Frames read from the ring so far.
    private var consumed = 0

    init(ring: SPSCRing<Float>, clock: AudioClock) {
        self.ring = ring
        self.clock = clock
    }

    /// Reads what has arrived; returns the frame index of the first sample louder than `threshold`, if any.
    mutating func listen(threshold: Float) -> Int? {
        let count = buffer.withUnsafeMutableBufferPointer { ring.read(into: $0) }
        defer { consumed += count }
        if count == 0 { usleep(1000) }
        // Frames the ring dropped were captured too: they count.
        return buffer[..<count].firstIndex { abs($0) > threshold }.map { consumed + ring.dropped + $0 }
    }

    /// The first frame louder than `threshold` within `seconds`.
    mutating func firstHeard(within seconds: Int, threshold: Float) -> Int? {
        let deadline = AudioClock.now() + seconds * 1_000_000_000
        while AudioClock.now() < deadline {
            if let frame = listen(threshold: threshold) { return frame }
        }
        return nil
    }

    /// When `frame` was at the converter, in CLOCK_MONOTONIC nanoseconds: the median of the readings published
    /// in the last third of the next `seconds` (the ring is kept drained meanwhile). A sound server misreports a
    /// capture stream's delay, by up to half a second, for about a second after a playback stream connects to the
    /// same device, which is when the mix's first sound arrives; the stream's frames keep counting truly, so
    /// later readings place earlier frames.
    mutating func moment(of frame: Int, settling seconds: Double) -> Int {
        var zeros: [Int] = []
        let deadline = AudioClock.now() + Int(seconds * 1e9)
        var last: AudioClock.Reading?
        while AudioClock.now() < deadline {
            _ = listen(threshold: .infinity)
            if let reading = clock.reading, reading != last {
                zeros.append(reading.nanoseconds - reading.frame * 1_000_000_000 / rate)
                last = reading
            }
        }
        guard !zeros.isEmpty else { fail("the capture stream's clock stood still") }
        let settled = zeros.suffix(max(1, zeros.count / 3)).sorted()
        return settled[settled.count / 2] + frame * 1_000_000_000 / rate
    }
}

let rate = 48000
do {
    let take = try AudioFile.read(contentsOf: arguments[1])
    let ratio = Double(take.sampleRate) / Double(rate)
    let upsampled = (0..<Int(Double(take.samples.count) / ratio)).map { i -> Float in
        let x = Double(i) * ratio
        let k = Int(x)
        let f = Float(x - Double(k))
        return take.samples[k] * (1 - f) + take.samples[min(k + 1, take.samples.count - 1)] * f
    }
    let singer = TakePlayer(take: upsampled)
    // Room for all that arrives before the mix starts, so that no frame is dropped and frame counts stay true.
    let ring = SPSCRing<Float>(minimumCapacity: rate * 32, filler: 0), own = SPSCRing<Float>(minimumCapacity: rate * 32, filler: 0)
    let ears = try ALSACapture(device: arguments[2], sampleRate: rate, periodFrames: 256, ring: ring)
    // Periods of 21 ms rather than choir's 5: a singer needs no short latency, only a stream that does not break
    // while the other suites load the machine, and four times fewer wake-ups leave it more slack. The click below
    // measures whatever latency this adds.
    let voice = try ALSAPlayback(device: arguments[3], sampleRate: rate, periodFrames: 1024, source: singer)
    let feedback = try ALSACapture(device: arguments[4], sampleRate: rate, periodFrames: 256, ring: own)
    try ears.start(following: voice)
    try feedback.start()
    // Unbuffered, so that the test knows at once.
    _ = write(1, "listening\n", 10)

    var hearing = Ears(ring: ring, clock: ears.clock)
    guard let sound = hearing.firstHeard(within: 30, threshold: 0.02) else { fail("heard nothing on \(arguments[2])") }
    let heard = hearing.moment(of: sound, settling: 0.9)
    ears.stop()
    let beat = heard + (firstBeat - firstSound) * 1_000_000_000 / rate
    // Click a moment from now, and hear when the click arrives: the first sound on SELF-DEVICE, loud enough to
    // tell from the mix should SELF-DEVICE hear the loudspeakers too.
    let clickFrame = singer.rendered + rate / 10
    singer.click(at: clickFrame)
    var hearingMyself = Ears(ring: own, clock: feedback.clock)
    guard let click = hearingMyself.firstHeard(within: 2, threshold: 0.3) else { fail("did not hear myself on \(arguments[4])") }
    let clicked = hearingMyself.moment(of: click, settling: 0.3)
    feedback.stop()
    guard beat > clicked + 300_000_000 else { fail("the count-in is too short to find my own latency") }
    singer.play(from: clickFrame + (beat - clicked) * rate / 1_000_000_000)
    while !singer.isDone && voice.error == nil { usleep(10_000) }
    voice.stop()
    if let error = voice.error { fail("\(error)") }
    let times = voice.underrunTimes.map { "\(Int($0 * 1000))" }.joined(separator: ", ")
    let first = voice.underruns > voice.underrunTimes.count ? "the first \(voice.underrunTimes.count) " : ""
    print("\(voice.underruns) underruns" + (times.isEmpty ? "" : ", \(first)at \(times) ms into the stream"))
} catch {
    fail("\(error)")
}
