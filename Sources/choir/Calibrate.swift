import ArgumentParser
import ChoirAudio
import ChoirPitch
import FoundationEssentials
import Glibc

extension Choir {
    /// `choir calibrate`: measures the round trip from the playback device to the capture device and stores it
    /// for `choir practice`.
    struct Calibrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure the round trip from loudspeaker to microphone and store it for practice.",
            discussion: """
                Plays six short sweeps on the playback device and listens for them on the capture device. Put the \
                microphone where you sing, at the volume you practise at. The two streams' clocks already account \
                for what the devices report; the sweeps measure the rest (converters, sound server, air).
                """)

        @Option(help: "The ALSA playback device.")
        var device = "default"

        @Option(help: "The ALSA capture device (the microphone).")
        var inputDevice = "default"

        @Option(help: "Sample rate, in Hz.")
        var sampleRate = 48000

        static let sweeps = 6
        static let sweepSeconds = 0.15
        static let spacingSeconds = 1.0
        /// How far the sweeps are looked for on either side of where the clocks put them: never as far as the
        /// next sweep.
        static let earliestSeconds = 0.3, latestSeconds = 0.5

        func validate() throws {
            guard (8000...192_000).contains(sampleRate) else { throw ValidationError("--sample-rate \(sampleRate): expected 8000 to 192000 Hz") }
        }

        func run() throws {
            let rate = Double(sampleRate)
            let starts = (0..<Self.sweeps).map { Int((0.3 + Double($0) * Self.spacingSeconds) * rate) }
            let signal = Self.signal(sampleRate: rate, starts: starts)
            let ring = SPSCRing<Float>(minimumCapacity: sampleRate * 2, filler: 0)
            let capture: ALSACapture, playback: ALSAPlayback
            do {
                capture = try ALSACapture(device: inputDevice, sampleRate: sampleRate, periodFrames: 256, ring: ring)
                playback = try ALSAPlayback(device: device, sampleRate: sampleRate, periodFrames: 256, source: SignalSource(signal))
            } catch {
                throw unavailable("\(error)")
            }
            let alignment = StreamAlignment(capture: capture.clock, playback: playback.clock, sampleRate: sampleRate)
            var captured = [Float](repeating: 0, count: signal.count + 2 * sampleRate)
            var count = 0
            // The offset as it was while each part was captured: a sound server may change its latency as streams
            // come and go, and the device's clock no longer moves once the signal has ended.
            var offsets: [(captured: Int, offset: Double)] = []
            do {
                try capture.start(following: playback)
            } catch {
                throw fail(error)
            }
            let deadline = AudioClock.now() + Int((Double(signal.count) / rate + 3) * 1e9)
            var finishedAt: Int?
            while AudioClock.now() < deadline && count < captured.count && capture.isRunning && playback.error == nil {
                let got = captured.withUnsafeMutableBufferPointer { ring.read(into: UnsafeMutableBufferPointer(rebasing: $0[count...])) }
                count += got
                alignment.update()
                if let offset = alignment.offset, !playback.isFinished { offsets.append((count, offset)) }
                if playback.isFinished {
                    finishedAt = finishedAt ?? AudioClock.now()
                    // Wait for the last sweep's echo to come back.
                    if AudioClock.now() - finishedAt! > Int(Self.latestSeconds * 1e9) { break }
                }
                if got == 0 { usleep(2000) }
            }
            capture.stop()
            playback.stop()
            if let error = capture.error ?? playback.error { throw fail(error) }
            guard !offsets.isEmpty else { throw fail("playback device '\(device)' never started playing") }
            let lags = Self.lags(of: Array(captured[..<count]), offsets: offsets, signal: signal, starts: starts, sampleRate: rate)
            let heard = lags.filter { $0.strength >= 0.3 }.map(\.lag).sorted()
            guard heard.count >= Self.sweeps - 2 else {
                let best = lags.map(\.strength).max() ?? 0
                throw fail("did not hear the sweeps (\(heard.count) of \(Self.sweeps), best match "
                    + String(printf: "%.2f", best) + "): expected '\(device)' to reach the microphone '\(inputDevice)'")
            }
            // A sweep heard while the sound server was still settling its latency is an outlier; the rest agree.
            let median = heard[heard.count / 2]
            let agreeing = heard.filter { abs($0 - median) <= 0.005 }
            guard agreeing.count >= Self.sweeps - 2 else {
                throw fail("the sweeps came back " + String(printf: "%.1f", (heard.last! - heard.first!) * 1000)
                    + " ms apart: expected a steady round trip; is something else playing, or the room very echoic?")
            }
            let spread = agreeing.last! - agreeing.first!
            try Calibration.store(median * 1000, output: device, input: inputDevice)
            print("round trip \(device) -> \(inputDevice): " + String(printf: "%.1f", median * 1000) + " ms ("
                + "\(agreeing.count) of \(Self.sweeps) sweeps agree within " + String(printf: "%.1f", spread * 1000) + " ms); stored in \(Calibration.path)")
        }

        /// Sweeps from 400 to 4000 Hz with faded ends: their correlation has one sharp peak.
        static func signal(sampleRate: Double, starts: [Int]) -> [Float] {
            let length = Int(sweepSeconds * sampleRate)
            // The silence after the last sweep keeps the stream, and its clock, running until the sweep is back.
            var signal = [Float](repeating: 0, count: starts.last! + length + Int((latestSeconds + 0.2) * sampleRate))
            let (low, high) = (400.0, 4000.0)
            for start in starts {
                for i in 0..<length {
                    let t = Double(i) / sampleRate
                    let phase = 2 * Double.pi * (low * t + (high - low) * t * t / (2 * sweepSeconds))
                    let fade = sin(Double.pi * Double(i) / Double(length))
                    signal[start + i] = Float(0.5 * fade * sin(phase))
                }
            }
            return signal
        }

        /// Each sweep's lag, in seconds after where the clocks put it (negative when earlier), and how clearly
        /// it was heard. `offsets` take capture frames to the playback frames heard at those moments.
        static func lags(of captured: [Float], offsets: [(captured: Int, offset: Double)], signal: [Float], starts: [Int],
            sampleRate: Double) -> [(lag: Double, strength: Double)]
        {
            let length = Int(sweepSeconds * sampleRate)
            let earliest = Int(earliestSeconds * sampleRate), latest = Int(latestSeconds * sampleRate)
            return starts.map { start in
                // The offset from when the sweep had been played.
                let end = Double(start + length)
                let offset = Int((offsets.first { Double($0.captured) + $0.offset >= end } ?? offsets.last!).offset.rounded())
                // The captured sound from `earliest` before the sweep to `latest` after its end, by playback frame.
                let from = start - earliest - offset
                let heard = (from..<(from + earliest + length + latest)).map { $0 >= 0 && $0 < captured.count ? captured[$0] : 0 }
                let (lag, strength) = CrossCorrelation.lag(
                    of: heard, behind: Array(signal[start..<(start + length)]), maximumLag: earliest + latest)
                return (Double(lag - earliest) / sampleRate, strength)
            }
        }
    }
}

/// Plays a mono signal on both channels, then ends.
private final class SignalSource: AudioSource {
    private let signal: [Float]
    private var position = 0

    init(_ signal: [Float]) { self.signal = signal }

    func render(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        let count = min(frames, signal.count - position)
        signal.withUnsafeBufferPointer { samples in
            for i in 0..<count {
                left[i] = samples[position + i]
                right[i] = samples[position + i]
            }
        }
        position += count
        return count
    }
}
