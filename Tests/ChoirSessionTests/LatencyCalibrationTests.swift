import ChoirAudio
import Testing

@testable import ChoirSession

/// Calibration keeps only sweeps that agree within 5 ms, from the earliest of them to the latest: a result whose
/// sweeps agreed only within 8.8 ms was stored before, because each was measured from their median.
struct LatencyCalibrationTests {
    @Test func sweepsAgreeWithinFiveMillisecondsEndToEnd() {
        let ms = 0.001
        // Within 5 ms of the median (4.4) each, but 8.8 ms from first to last: the largest group within 5 ms is
        // the first five.
        let spread = [0, 1, 2, 3, 4.4, 8.8].map { $0 * ms }
        #expect(Array(LatencyCalibration.agreeing(spread)) == [0, 1, 2, 3, 4.4].map { $0 * ms })
        // One late outlier (the server settling) is left out.
        #expect(Array(LatencyCalibration.agreeing([10, 11, 11.5, 12, 13, 40].map { $0 * ms })) == [10, 11, 11.5, 12, 13].map { $0 * ms })
        // Of two groups as large, the tighter.
        #expect(Array(LatencyCalibration.agreeing([0, 4.9, 10, 11].map { $0 * ms })) == [10, 11].map { $0 * ms })
        #expect(Array(LatencyCalibration.agreeing([0, 4.9, 7, 8].map { $0 * ms })) == [4.9, 7, 8].map { $0 * ms })
        #expect(LatencyCalibration.agreeing([0, 3, 6, 9, 12, 15].map { $0 * ms }).count == 2)
        #expect(LatencyCalibration.agreeing([]).isEmpty)
    }

    /// The offset between the streams at a moment comes from each stream's readings within half a second of it,
    /// by their median: a capture reading now and then a fragment (50 ms) off, as a sound server's plugin reports
    /// mid-burst, does not move it, and a latency that changes after 2 s is followed.
    @Test func theStreamsOffsetIsTheMedianOfTheReadingsNearby() {
        let rate = 48000
        var readings = StreamReadings()
        for step in 0..<800 {
            // Capture every 50 ms, one reading in five 2400 frames ahead; playback every 5 ms, 1000 frames ahead
            // of the capture, 1480 after 2 s.
            let nanoseconds = 1_000_000_000 + step * 5_000_000
            let frame = (nanoseconds - 1_000_000_000) / 1_000_000 * rate / 1000
            let capture = step % 10 == 0 ? AudioClock.Reading(frame: frame + (step % 50 == 0 ? 2400 : 0), nanoseconds: nanoseconds) : nil
            let playback = AudioClock.Reading(frame: frame + (step < 400 ? 1000 : 1480), nanoseconds: nanoseconds)
            readings.take(capture: capture, playback: playback)
        }
        #expect(readings.capture.count == 80 && readings.playback.count == 800)
        let early = readings.offset(atPlaybackFrame: rate + 1000, sampleRate: rate)
        let late = readings.offset(atPlaybackFrame: 3 * rate + 1480, sampleRate: rate)
        #expect(
            early.map { abs($0 - 1000) < 1 } == true && late.map { abs($0 - 1480) < 1 } == true,
            "\(String(describing: early)) \(String(describing: late))")
        #expect(StreamReadings().offset(atPlaybackFrame: 0, sampleRate: rate) == nil)
    }
}

extension LatencyCalibrationTests {
    /// A device that is none (silence) cannot be calibrated: said as a slip of the command line, before anything is
    /// opened or stored.
    @Test(arguments: [("none", "default", "none"), ("default", "null", "null")])
    func silenceCannotBeCalibrated(output: String, input: String, named: String) {
        let refused = #expect(throws: SessionError.self) {
            try LatencyCalibration.calibrate(output: output, input: input, sampleRate: 48000)
        }
        #expect(refused?.kind == .usage)
        #expect(
            refused?.description
                == "calibration needs a sound card: it plays sweeps and hears them come back; expected ALSA devices, not '\(named)'")
    }
}

extension LatencyCalibrationTests {
    /// A stored table that cannot be used matters only to a session that would use it: a live microphone, the mix
    /// on a device, no latency given. A take, a mix written or silent, or a latency given leave it unsaid.
    @Test func anUnusableTableIsSaidOnlyWhereItWouldBeUsed() {
        let problem = "latency.json: not a latency table"
        var plan = PracticePlan(playback: PlaybackPlan(score: "s.musicxml", part: "tenor"))
        (plan.input, plan.output) = (.device("default"), MixDestination("default"))
        #expect(plan.latencyProblem(stored: problem) == problem)
        #expect(plan.latencyProblem(stored: nil) == nil)
        var given = plan
        given.latency = 0.04
        var take = plan
        take.input = .take("take.wav")
        var written = plan
        written.output = MixDestination("mix.wav")
        var silent = plan
        silent.output = MixDestination("none")
        for other in [given, take, written, silent] { #expect(other.latencyProblem(stored: problem) == nil) }
    }
}
