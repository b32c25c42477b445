import ChoirAudio
import Glibc

// `take-singer TAKE.wav HEAR-DEVICE SING-DEVICE SELF-DEVICE FIRST-SOUND FIRST-BEAT`: the singer of the real-time
// tests, in a process of its own like a person at a microphone. It listens on HEAR-DEVICE for a mix whose first
// sound is at frame FIRST-SOUND and whose first beat is at frame FIRST-BEAT (at 48 kHz), and sings TAKE (time 0 =
// the first beat) into SING-DEVICE so that it arrives at SELF-DEVICE (what choir hears of it) as that beat is
// heard. A sound server's reported playback delay is not to be trusted while streams connect, so the singer
// clicks once during the count-in and listens for the click on SELF-DEVICE; only capture clocks are used. It
// prints `listening` once it listens, and its underruns when it has sung.

func fail(_ message: String) -> Never {
    let line = "take-singer: \(message)\n"
    _ = write(2, line, line.utf8.count)
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 7, let firstSound = Int(arguments[5]), let firstBeat = Int(arguments[6]) else {
    fail("usage: take-singer TAKE.wav HEAR-DEVICE SING-DEVICE SELF-DEVICE FIRST-SOUND FIRST-BEAT")
}

/// Waits until `ring` brings a sample louder than `threshold`; returns when it was at the converter, by `clock`.
func whenFirstHeard(in ring: SPSCRing<Float>, clock: AudioClock, within seconds: Int, threshold: Float = 0.02) -> Int? {
    var buffer = [Float](repeating: 0, count: 4096)
    var consumed = 0
    let deadline = AudioClock.now() + seconds * 1_000_000_000
    while AudioClock.now() < deadline {
        let count = buffer.withUnsafeMutableBufferPointer { ring.read(into: $0) }
        if let index = buffer[..<count].firstIndex(where: { abs($0) > threshold }), let reading = clock.reading {
            let frame = consumed + ring.dropped + index
            return reading.nanoseconds + (frame - reading.frame) * 1_000_000_000 / rate
        }
        consumed += count
        if count == 0 { usleep(1000) }
    }
    return nil
}
let rate = 48000
do {
    let take = try WAVFile.read(contentsOf: arguments[1])
    let ratio = Double(take.sampleRate) / Double(rate)
    let upsampled = (0..<Int(Double(take.samples.count) / ratio)).map { i -> Float in
        let x = Double(i) * ratio
        let k = Int(x)
        let f = Float(x - Double(k))
        return take.samples[k] * (1 - f) + take.samples[min(k + 1, take.samples.count - 1)] * f
    }
    let singer = TakePlayer(take: upsampled)
    let ring = SPSCRing<Float>(minimumCapacity: rate * 4, filler: 0), own = SPSCRing<Float>(minimumCapacity: rate * 4, filler: 0)
    let ears = try ALSACapture(device: arguments[2], sampleRate: rate, periodFrames: 256, ring: ring)
    let voice = try ALSAPlayback(device: arguments[3], sampleRate: rate, periodFrames: 256, source: singer)
    let feedback = try ALSACapture(device: arguments[4], sampleRate: rate, periodFrames: 256, ring: own)
    try ears.start(following: voice)
    try feedback.start()
    // Unbuffered, so that the test knows at once.
    _ = write(1, "listening\n", 10)

    guard let heard = whenFirstHeard(in: ring, clock: ears.clock, within: 30) else { fail("heard nothing on \(arguments[2])") }
    ears.stop()
    let beat = heard + (firstBeat - firstSound) * 1_000_000_000 / rate
    // Click a moment from now, and hear when the click arrives: the first sound on SELF-DEVICE.
    let clickFrame = singer.rendered + rate / 10
    singer.click(at: clickFrame)
    // Loud enough to tell from the mix, should SELF-DEVICE hear the loudspeakers too.
    guard let clicked = whenFirstHeard(in: own, clock: feedback.clock, within: 2, threshold: 0.3) else {
        fail("did not hear myself on \(arguments[4])")
    }
    feedback.stop()
    guard beat > clicked + 300_000_000 else { fail("the count-in is too short to find my own latency") }
    singer.play(from: clickFrame + (beat - clicked) * rate / 1_000_000_000)
    while !singer.isDone && voice.error == nil { usleep(10_000) }
    voice.stop()
    if let error = voice.error { fail("\(error)") }
    print("\(voice.underruns) underruns")
} catch {
    fail("\(error)")
}
