import ChoirTestSupport
import Glibc
import Testing

@testable import ChoirPitch

/// The tracker on signals whose pitch is known exactly.
struct PitchTrackerTests {
    static func sine(_ frequency: Double, rate: Double, seconds: Double, amplitude: Double = 0.5) -> [Float] {
        (0..<Int(rate * seconds)).map { Float(amplitude * sin(2 * .pi * frequency * Double($0) / rate)) }
    }

    static func cents(_ estimate: Double, _ truth: Double) -> Double { 1200 * log2(estimate / truth) }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }

    /// From a low bass's C2 to a soprano's high C6.
    static let frequencies = [65.4, 82.4, 98, 110, 146.8, 196, 261.6, 329.6, 440, 587.3, 784, 1046.5]

    /// The frames whose window lies wholly inside a signal of `seconds`.
    static func inside(_ frames: [PitchFrame], _ configuration: PitchTrackerConfiguration, seconds: Double) -> [PitchFrame] {
        let half = Double(configuration.window) / 2 / configuration.sampleRate
        return frames.filter { $0.time >= half && $0.time <= seconds - half }
    }

    @Test(arguments: [(44100.0, 2048, 256), (48000.0, 2048, 256), (48000.0, 4096, 512), (16000.0, 1024, 64)])
    func steadySinesAcrossTheRange(rate: Double, window: Int, hop: Int) throws {
        let configuration = PitchTrackerConfiguration(sampleRate: rate, window: window, hop: hop)
        for frequency in Self.frequencies {
            let all = try PitchTrackers.track(signal: Self.sine(frequency, rate: rate, seconds: 0.5), configuration: configuration)
            let frames = Self.inside(all, configuration, seconds: 0.5)
            #expect(frames.filter(\.isVoiced).count == frames.count, "\(frequency) Hz")
            let error = Self.median(frames.map { abs(Self.cents($0.frequency, frequency)) })
            #expect(error < 1, "\(frequency) Hz at \(rate) Hz, window \(window): median error \(error) cents")
            #expect(frames.allSatisfy { $0.confidence > 0.9 })
        }
    }

    /// Harmonics 2 to 8 at full strength over a fundamental at a tenth: the pitch is still the fundamental.
    @Test(arguments: [98.0, 196, 311.1, 523.3])
    func weakFundamentalGivesTheRightOctave(frequency: Double) throws {
        let rate = 48000.0
        let signal = (0..<Int(rate * 0.5)).map { i -> Float in
            let t = Double(i) / rate
            var sample = 0.1 * sin(2 * .pi * frequency * t)
            for k in 2...8 { sample += sin(2 * .pi * Double(k) * frequency * t + Double(k)) / Double(k) }
            return Float(0.2 * sample)
        }
        let configuration = PitchTrackerConfiguration(sampleRate: rate)
        let frames = Self.inside(try PitchTrackers.track(signal: signal, configuration: configuration), configuration, seconds: 0.5)
        let voiced = frames.filter(\.isVoiced)
        #expect(voiced.count == frames.count)
        let error = Self.median(voiced.map { abs(Self.cents($0.frequency, frequency)) })
        #expect(error < 5, "\(frequency) Hz: median error \(error) cents")
    }

    /// A bass with another line a fifth (or a fifth and a tenth) above it at −6 dB, as a microphone hears
    /// loudspeakers: the two repeat together at twice the bass's period, but the pitch is the bass's. A voice
    /// alone an octave lower stays an octave lower.
    @Test(arguments: [[1.5], [1.5, 2.52]])
    func aLineAboveDoesNotPullTheVoiceAnOctaveDown(ratios: [Double]) throws {
        let rate = 16000.0, bass = 87.0
        var voice = SyntheticVoice(sampleRate: rate)
        voice.vibratoCents = 50
        voice.driftCents = 0
        let sung = voice.render([SyntheticVoice.Note(start: 0.1, duration: 1.8, frequency: bass)], length: 2)
        var line = SyntheticVoice(sampleRate: rate)
        (line.vibratoCents, line.driftCents, line.scoopCents) = (0, 0, 0)
        line.formants = [(500, 80), (1000, 100), (2500, 150)]
        var above = [Float](repeating: 0, count: sung.count)
        for ratio in ratios {
            let other = line.render([SyntheticVoice.Note(start: 0, duration: 2, frequency: bass * ratio)], length: 2)
            for i in above.indices { above[i] += other[i] }
        }
        func rms(_ x: [Float]) -> Float { (x.reduce(0) { $0 + $1 * $1 } / Float(x.count)).squareRoot() }
        let gain = rms(sung) / rms(above) * pow(10, -6 / 20)
        let heard = zip(sung, above).map { $0 + gain * $1 }
        let configuration = PitchTrackerConfiguration(sampleRate: rate, window: 1024, hop: 64, minimumFrequency: 40)
        let frames = try PitchTrackers.track(signal: heard, configuration: configuration).filter {
            $0.time > 0.3 && $0.time < 1.8 && $0.isVoiced
        }
        let down = frames.filter { abs(Self.cents($0.frequency, bass) + 1200) < 300 }.count
        #expect(frames.count > 200 && down <= frames.count / 50, "\(down) of \(frames.count) frames an octave down")

        let low = voice.render([SyntheticVoice.Note(start: 0.1, duration: 1.8, frequency: bass / 2)], length: 2)
        let lowFrames = try PitchTrackers.track(signal: low, configuration: configuration).filter { $0.time > 0.3 && $0.time < 1.8 }
        let up = lowFrames.filter { $0.isVoiced && abs(Self.cents($0.frequency, bass)) < 100 }.count
        #expect(up <= lowFrames.count / 50, "\(up) of \(lowFrames.count) frames of the low voice an octave up")
    }

    @Test func vibratoIsFollowed() throws {
        let rate = 48000.0
        var phase = 0.0
        let truth = { (t: Double) in 220 * pow(2, 50 * sin(2 * .pi * 5.5 * t) / 1200) }
        let signal = (0..<Int(rate)).map { i -> Float in
            phase += 2 * .pi * truth(Double(i) / rate) / rate
            return Float(0.5 * sin(phase))
        }
        let configuration = PitchTrackerConfiguration(sampleRate: rate)
        let frames = Self.inside(try PitchTrackers.track(signal: signal, configuration: configuration), configuration, seconds: 1)
        let errors = frames.map { abs(Self.cents($0.frequency, truth($0.time))) }
        #expect(Self.median(errors) < 5, "median \(Self.median(errors)) cents")
        #expect(errors.max()! < 25)
    }

    @Test func silenceAndDCAreUnvoicedNeverNaN() throws {
        for signal in [[Float](repeating: 0, count: 24000), [Float](repeating: 0.4, count: 24000)] {
            let frames = try PitchTrackers.track(signal: signal, configuration: .init(sampleRate: 48000))
            #expect(!frames.isEmpty)
            #expect(frames.allSatisfy { $0.frequency == 0 && $0.confidence == 0 })
        }
    }

    @Test func whiteNoiseIsMostlyUnvoiced() throws {
        var random = SplitMix(seed: 7)
        let noise = (0..<48000).map { _ in Float(random.unit() - 0.5) }
        let frames = try PitchTrackers.track(signal: noise, configuration: .init(sampleRate: 48000))
        let voiced = frames.filter(\.isVoiced).count
        #expect(Double(voiced) / Double(frames.count) < 0.05, "\(voiced) of \(frames.count) noise frames voiced")
        #expect(frames.allSatisfy { !$0.frequency.isNaN && !$0.confidence.isNaN })
    }

    @Test func noisyToneKeepsItsPitch() throws {
        var random = SplitMix(seed: 3)
        let signal = Self.sine(261.6, rate: 48000, seconds: 0.5).map { $0 + Float(0.1 * (random.unit() - 0.5)) }
        let configuration = PitchTrackerConfiguration(sampleRate: 48000)
        let frames = Self.inside(try PitchTrackers.track(signal: signal, configuration: configuration), configuration, seconds: 0.5)
        #expect(frames.filter(\.isVoiced).count == frames.count)
        #expect(Self.median(frames.map { abs(Self.cents($0.frequency, 261.6)) }) < 2)
    }

    /// Silence, then a tone from 0.5 s to 1.5 s, then silence: voicing starts and stops within a few
    /// milliseconds of the tone, as frames are stamped with the centre of their window.
    @Test(arguments: [(2048, 256), (1792, 128)])
    func onsetAndOffsetTiming(window: Int, hop: Int) throws {
        let rate = 48000.0
        var signal = [Float](repeating: 0, count: Int(rate * 2))
        let tone = Self.sine(440, rate: rate, seconds: 1)
        signal.replaceSubrange(Int(rate * 0.5)..<Int(rate * 1.5), with: tone)
        let frames = try PitchTrackers.track(signal: signal, configuration: .init(sampleRate: rate, window: window, hop: hop))
        let voiced = frames.filter(\.isVoiced)
        let onset = try #require(voiced.first).time, offset = try #require(voiced.last).time
        let tolerance = Double(window) / rate / 2
        #expect(abs(onset - 0.5) <= tolerance, "onset \(onset)")
        #expect(abs(offset - 1.5) <= tolerance, "offset \(offset)")
        #expect(frames.first!.time == 0)
        #expect(abs(frames[1].time - frames[0].time - Double(hop) / rate) < 1e-12)
    }

    @Test func badConfigurationsSayWhatWasExpected() {
        func message(_ configuration: PitchTrackerConfiguration) -> String? {
            do {
                _ = try PitchTrackers.make(configuration)
                return nil
            } catch { return error.description }
        }
        #expect(
            message(.init(sampleRate: 48000, window: 1024))
                == "window 1024 is too short for 60.0 Hz at 48000 Hz: expected at least 1604 samples")
        #expect(message(.init(sampleRate: 48000, window: 2048, hop: 4096)) == "hop 4096: expected 1 to the window (2048 samples)")
        #expect(
            message(.init(sampleRate: 48000, minimumFrequency: 500, maximumFrequency: 400))
                == "frequency range 500.0–400.0 Hz: expected 0 < min < max < 24000.0 Hz (half the sample rate)")
        #expect(message(.init(sampleRate: 48000, voicingThreshold: 1.5)) == "voicing threshold 1.5: expected a value between 0 and 1")
    }

    /// YIN decides, fed window by window as a session feeds it, exactly the frames it gives for the whole signal at
    /// once: a live session and the judging of its recording hear the same pitches. (The learned tracker, alone and
    /// guiding YIN, is held to the same in `PitchNetTests.liveFramesAreTheFileFrames`, on a voice it hears.)
    @Test(arguments: [PitchTrackerKind.yin])
    func aLiveTrackerDecidesAsAWholeSignalIsTracked(kind: PitchTrackerKind) throws {
        let rate = 16000.0
        var configuration = PitchTrackerConfiguration(sampleRate: rate, window: 1024, hop: 64, lookAhead: 0.05)
        configuration.kind = kind
        var signal = [Float](repeating: 0, count: Int(rate * 0.2))
        signal += (0..<Int(rate * 0.6)).map { Float(0.4 * sin(2 * .pi * 220 * pow(2, Double($0) / rate / 3) * Double($0) / rate)) }
        let whole = try PitchTrackers.track(signal: signal, configuration: configuration)

        let tracker = try PitchTrackers.make(configuration)
        #expect(tracker.configuration == configuration)
        #expect(abs(tracker.delay - Double(configuration.lag * configuration.hop) / rate) < 1e-12)
        var live: [PitchFrame] = []
        let n = configuration.window
        let padded = [Float](repeating: 0, count: n / 2) + signal + [Float](repeating: 0, count: n / 2)
        for index in 0...((signal.count - 1) / configuration.hop) {
            let start = index * configuration.hop
            let frame = padded[start..<(start + n)].withUnsafeBufferPointer {
                tracker.analyse($0, time: Double(start) / rate)
            }
            if let frame { live.append(frame) }
        }
        tracker.finish { live.append($0) }

        #expect(live.count == whole.count)
        #expect(whole.filter(\.isVoiced).count > whole.count / 2)
        for (heard, tracked) in zip(live, whole) {
            #expect(heard.time == tracked.time && heard.frequency == tracked.frequency && heard.confidence == tracked.confidence)
        }
    }
}
