import ChoirAudio
import ChoirBase
import ChoirPitch
import ChoirScore
import Glibc

/// Measures the round trip from a playback device to a capture device: six short sweeps are played and looked for
/// in what the microphone hears. The two streams' clocks already account for what the devices report; the sweeps
/// measure the rest (converters, sound server, air).
public enum LatencyCalibration {
    /// A measured round trip: its median over the sweeps that agree, in seconds, how many agreed and their spread.
    public struct Measurement: Sendable, Equatable {
        public var latency: Double
        public var agreeing: Int
        public var spread: Double
    }

    public static let sweeps = 6
    static let sweepSeconds = 0.15
    static let spacingSeconds = 1.0
    /// How far the sweeps are looked for on either side of where the clocks put them: never as far as the next
    /// sweep.
    static let earliestSeconds = 0.3, latestSeconds = 0.5

    /// Measures the round trip from `output` to `input` (``measure(output:input:sampleRate:)``) and keeps it for the two
    /// (``LatencyStore``); says what was measured and where it is kept. A device that is none cannot be calibrated.
    public static func calibrate(output: String, input: String, sampleRate: Int) throws(SessionError) -> String {
        if let none = [output, input].first(where: MixDestination.isNone) {
            throw SessionError(
                .usage, "calibration needs a sound card: it plays sweeps and hears them come back; expected ALSA devices, not '\(none)'")
        }
        let measured = try measure(output: output, input: input, sampleRate: sampleRate)
        try LatencyStore.store(measured.latency * 1000, output: output, input: input)
        return "round trip \(output) -> \(input): " + String(printf: "%.1f", measured.latency * 1000) + " ms ("
            + "\(measured.agreeing) of \(sweeps) sweeps agree within " + String(printf: "%.1f", measured.spread * 1000)
            + " ms); stored in \(LatencyStore.path)\n"
    }

    /// Plays the sweeps on `output`, listens on `input` and returns the round trip.
    public static func measure(output: String, input: String, sampleRate: Int) throws(SessionError) -> Measurement {
        guard PlaybackSession.sampleRates.contains(sampleRate) else {
            throw SessionError(.usage, "sample rate \(sampleRate) Hz: expected 8000 to 192000 Hz")
        }
        let rate = Double(sampleRate)
        let starts = (0..<sweeps).map { Int((0.3 + Double($0) * spacingSeconds) * rate) }
        let signal = Self.signal(sampleRate: rate, starts: starts)
        let ring = SPSCRing<Float>(minimumCapacity: sampleRate * 2, filler: 0)
        let capture: ALSACapture, playback: ALSAPlayback
        do {
            capture = try ALSACapture(device: input, sampleRate: sampleRate, periodFrames: 256, ring: ring)
            playback = try ALSAPlayback(device: output, sampleRate: sampleRate, periodFrames: 256, source: SignalSource(signal))
        } catch {
            throw SessionError(.deviceUnavailable, "\(error)")
        }
        var readings = StreamReadings()
        var captured = [Float](repeating: 0, count: signal.count + 2 * sampleRate)
        var count = 0
        do {
            try capture.start(following: playback)
        } catch {
            throw SessionError(.audio, "\(error)")
        }
        let deadline = AudioClock.now() + Int((Double(signal.count) / rate + 3) * 1e9)
        var finishedAt: Int?
        while AudioClock.now() < deadline && count < captured.count && capture.isRunning && playback.error == nil {
            let got = captured.withUnsafeMutableBufferPointer { ring.read(into: UnsafeMutableBufferPointer(rebasing: $0[count...])) }
            count += got
            // The device's clock no longer moves once the signal has ended.
            readings.take(capture: capture.clock.reading, playback: playback.isFinished ? nil : playback.clock.reading)
            if playback.isFinished {
                finishedAt = finishedAt ?? AudioClock.now()
                // Wait for the last sweep's echo to come back.
                if AudioClock.now() - finishedAt! > Int(latestSeconds * 1e9) { break }
            }
            if got == 0 { capture.doorbell.wait(timeout: 0.1) { ring.available == 0 && capture.isRunning } }
        }
        capture.stop()
        playback.stop()
        if let error = capture.error ?? playback.error { throw SessionError(.audio, "\(error)") }
        let length = Int(sweepSeconds * rate)
        let offsets = starts.compactMap { readings.offset(atPlaybackFrame: $0 + length, sampleRate: sampleRate) }
        guard offsets.count == starts.count else { throw SessionError(.audio, "playback device '\(output)' never started playing") }
        let lags = Self.lags(of: Array(captured[..<count]), offsets: offsets, signal: signal, starts: starts, sampleRate: rate)
        let heard = lags.filter { $0.strength >= 0.3 }.map(\.lag).sorted()
        guard heard.count >= sweeps - 2 else {
            let best = lags.map(\.strength).max() ?? 0
            throw SessionError(
                .calibration,
                "did not hear the sweeps (\(heard.count) of \(sweeps), best match "
                    + String(printf: "%.2f", best) + "): expected '\(output)' to reach the microphone '\(input)'")
        }
        // A sweep heard while the sound server was still settling its latency is an outlier; the rest agree.
        let agreeing = Self.agreeing(heard)
        guard agreeing.count >= sweeps - 2 else {
            throw SessionError(
                .calibration,
                "the sweeps came back " + String(printf: "%.1f", (heard.last! - heard.first!) * 1000)
                    + " ms apart, and no \(sweeps - 2) of them within \(String(printf: "%.0f", agreement * 1000)) ms: expected a steady "
                    + "round trip; is something else playing, or the room very echoic?")
        }
        return Measurement(latency: agreeing[agreeing.count / 2], agreeing: agreeing.count, spread: agreeing.last! - agreeing.first!)
    }

    /// How closely the sweeps that count must agree: from the earliest of them to the latest.
    static let agreement = 0.005

    /// The most of `lags` (sorted) that lie within ``agreement`` of each other, in order; of several such groups,
    /// the one with the least spread.
    static func agreeing(_ lags: [Double]) -> ArraySlice<Double> {
        var best = lags.prefix(0)
        var first = 0
        for last in lags.indices {
            while lags[last] - lags[first] > agreement + 1e-12 { first += 1 }
            let group = lags[first...last]
            if group.count > best.count || (group.count == best.count && group.last! - group.first! < best.last! - best.first!) {
                best = group
            }
        }
        return best
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
    /// it was heard. `offsets` take capture frames to the playback frames heard at those moments, one for each
    /// sweep, as the streams were when it had been played.
    static func lags(
        of captured: [Float], offsets: [Double], signal: [Float], starts: [Int], sampleRate: Double
    ) -> [(lag: Double, strength: Double)] {
        let length = Int(sweepSeconds * sampleRate)
        let earliest = Int(earliestSeconds * sampleRate), latest = Int(latestSeconds * sampleRate)
        return zip(starts, offsets).map { start, offset in
            let offset = Int(offset.rounded())
            // The captured sound from `earliest` before the sweep to `latest` after its end, by playback frame.
            let from = start - earliest - offset
            let heard = (from..<(from + earliest + length + latest)).map { $0 >= 0 && $0 < captured.count ? captured[$0] : 0 }
            let (lag, strength) = CrossCorrelation.lag(
                of: heard, behind: Array(signal[start..<(start + length)]), maximumLag: earliest + latest)
            return (Double(lag - earliest) / sampleRate, strength)
        }
    }
}

/// Both streams' clock readings over a run, each distinct one once, and the offset between the streams they give
/// at any moment.
///
/// A sound server may change its latency as streams come and go, so the offset for a moment comes from the readings
/// within half a second of it. Each stream's position is the median of what those readings say, so that the offset
/// does not depend on when the readings were looked at: sampled in step with the capture, latest-pair offsets came
/// out up to 10 ms apart from one calibration to the next.
struct StreamReadings {
    var capture: [AudioClock.Reading] = []
    var playback: [AudioClock.Reading] = []

    mutating func take(capture c: AudioClock.Reading?, playback p: AudioClock.Reading?) {
        if let c, c != capture.last { capture.append(c) }
        if let p, p != playback.last { playback.append(p) }
    }

    /// Frames to add to a capture frame to get the playback frame heard when it was captured, as the streams were
    /// when the playback's `frame` was played; nil if either stream gave no reading.
    func offset(atPlaybackFrame frame: Int, sampleRate: Int) -> Double? {
        guard let nearest = playback.min(by: { abs($0.frame - frame) < abs($1.frame - frame) }), !capture.isEmpty else { return nil }
        let moment = nearest.nanoseconds + (frame - nearest.frame) * 1_000_000_000 / sampleRate
        func position(_ readings: [AudioClock.Reading]) -> Double {
            let near = readings.filter { abs($0.nanoseconds - moment) <= 500_000_000 }
            let frames = (near.isEmpty ? readings : near).map { $0.frame(at: moment, sampleRate: sampleRate) }.sorted()
            return frames[frames.count / 2]
        }
        return position(playback) - position(capture)
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
