import ChoirAudio
import ChoirBase
import ChoirTestSupport
import Foundation
import Testing

@testable import ChoirPitch

/// The learned tracker (SwiftF0's network in Swift): with the published weights, the same frames as the published
/// model; with the fine-tuned weights it runs by default, pitches of known tones and of a real recording, the same
/// frames live as from a file, and a clear error for a missing or wrong weights file.
struct PitchNetTests {
    /// The published model's weights, as converted: what holds the port to onnxruntime's frames.
    static let published = PitchNetWeights.resources + PitchNetWeights.publishedFileName

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/pitchnet")

    static func configuration(rate: Double) -> PitchTrackerConfiguration {
        var configuration = PitchTrackerConfiguration(sampleRate: rate)
        configuration.kind = .net
        return configuration
    }

    /// The tone make-reference.py gives the published model: 220 Hz, a major third and a fifth up, with vibrato.
    static func referenceTone() -> [Float] {
        let rate = 16000.0
        var phase = 0.0
        return (0..<Int(3.4 * rate)).map { i in
            let t = Double(i) / rate
            let step = t < 1 ? 0.0 : t < 2 ? 4 : 7
            phase += 2 * Double.pi * 220 * pow(2, (step * 100 + 30 * sin(2 * Double.pi * 5.5 * t)) / 1200) / rate
            let x = (1...6).reduce(0.0) { $0 + sin(Double($1) * phase) / Double($1) } * 0.2
            return t >= 3 ? 0 : Float(x)
        }
    }

    /// Every frame as onnxruntime computes it with the published model (Tests/Fixtures/pitchnet/make-reference.py):
    /// the pitch within half a cent and the voicing within 0.005 (sums in another order in single precision). Only the silence at the end differs, where
    /// the published package, as choir, calls a frame unvoiced below a peak of 0.001.
    @Test func framesMatchThePublishedModel() throws {
        let reference = try String(contentsOf: Self.fixtures.appendingPathComponent("reference-tone.csv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().map { $0.split(separator: ",").map { Double($0)! } }
        var configuration = Self.configuration(rate: 16000)
        configuration.netWeights = Self.published
        let frames = try PitchTrackers.track(signal: Self.referenceTone(), configuration: configuration)
        #expect(frames.count == reference.count)
        var worst = (cents: 0.0, voicing: 0.0)
        for (frame, expected) in zip(frames, reference) where expected[0] * 0.016 < 2.95 {
            #expect(abs(frame.time - expected[0] * 0.016) < 1e-9)
            worst.voicing = max(worst.voicing, abs(frame.confidence - expected[2]))
            if frame.isVoiced { worst.cents = max(worst.cents, abs(PitchMath.cents(frame.frequency, from: expected[1]))) }
            #expect(frame.isVoiced == (expected[2] >= 0.5))
        }
        #expect(worst.cents < 0.5 && worst.voicing < 0.005, "\(worst)")
        #expect(frames.filter { $0.time > 3.05 }.allSatisfy { !$0.isVoiced })
    }

    /// The network's own frames (``PitchPath`` not yet choosing among its peaks) of `signal` at `rate`, through
    /// choir's resampler, voiced as the tracker calls them, with the published weights.
    static func networkFrames(_ signal: [Float], rate: Int) throws -> [PitchFrame] {
        let configuration = Self.configuration(rate: Double(rate))
        let net = PitchNet(
            weights: try PitchNetWeights.load(Self.published), minimum: configuration.minimumFrequency,
            maximum: configuration.maximumFrequency)
        let audio = Resampler(from: rate, to: Int(PitchNet.sampleRate)).resample(signal)
        var frames: [PitchFrame] = []
        let keep = { (output: PitchNet.Output) in
            frames.append(NetTracker.frame(output, time: Double(output.index * PitchNet.hop) / PitchNet.sampleRate, accompaniment: 0))
        }
        audio.withUnsafeBufferPointer { net.push($0, keep) }
        net.finish(keep)
        return frames
    }

    /// The network's frames for the first 20 s of the voice with a guitar (librosa_fishin, 44.1 kHz), against what
    /// the published Python package (swift-f0 0.3.0, which resamples with soxr) hears there over the same range
    /// (Tests/Fixtures/pitchnet/make-recording-reference.py): the same frame times; the same voicing on all but
    /// 2% of frames (confidences near 0.5 fall either way after a different resampler); where both are voiced, the
    /// same pitch within 50 cents on all but 0.5% of them, and within a cent at the median.
    @Test func aRecordingWithAGuitarMatchesThePublishedPackage() throws {
        let reference = try String(contentsOf: Self.fixtures.appendingPathComponent("reference-fishin.csv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().map { $0.split(separator: ",").map { Double($0)! } }
        let audio = try AudioFile.read(contentsOf: RealVoiceTests.voices.appendingPathComponent("takes/librosa_fishin.wav").path)
        let frames = try Self.networkFrames(Array(audio.samples.prefix(20 * audio.sampleRate)), rate: audio.sampleRate)
        #expect(frames.count == reference.count)
        var disagreements = 0, far = 0
        var cents: [Double] = []
        for (frame, expected) in zip(frames, reference) {
            #expect(abs(frame.time - expected[0] * 0.016) < 1e-9)
            if frame.isVoiced != (expected[2] >= 0.5) { disagreements += 1 }
            guard frame.isVoiced && expected[2] >= 0.5 else { continue }
            cents.append(abs(PitchMath.cents(frame.frequency, from: expected[1])))
            if cents.last! > 50 { far += 1 }
        }
        cents.sort()
        #expect(cents.count > 300, "\(cents.count) frames voiced in both")
        #expect(Double(disagreements) <= 0.02 * Double(frames.count), "\(disagreements) of \(frames.count) frames voiced differently")
        #expect(Double(far) <= 0.005 * Double(cents.count), "\(far) of \(cents.count) voiced frames more than 50 cents apart")
        #expect((cents.isEmpty ? .infinity : cents[cents.count / 2]) < 1, "median \(cents.isEmpty ? 0 : cents[cents.count / 2]) cents")
    }

    /// Sung-like tones (choir's synthetic voice, with its vibrato and drift) from a bass's E2 to a soprano's A5, at 16,
    /// 44.1 and 48 kHz: voiced throughout their middle, within 10 cents of the voice's pitch at the median.
    @Test(arguments: [16000.0, 44100, 48000])
    func synthesizedTonesHaveTheirPitch(rate: Double) throws {
        for frequency in [82.4, 110, 196, 330, 523.3, 880] {
            let voice = SyntheticVoice(sampleRate: rate)
            let notes = [SyntheticVoice.Note(start: 0.2, duration: 1, frequency: frequency)]
            let middle = try PitchTrackers.track(signal: voice.render(notes, length: 1.4), configuration: Self.configuration(rate: rate))
                .filter { $0.time > 0.4 && $0.time < 1 }
            let cents = middle.filter(\.isVoiced).map { abs(PitchMath.cents($0.frequency, from: voice.truth(notes, at: $0.time)!)) }
                .sorted()
            #expect(cents.count == middle.count, "\(frequency) Hz at \(rate): \(middle.count - cents.count) frames unvoiced")
            #expect((cents.isEmpty ? .infinity : cents[cents.count / 2]) < 10, "\(frequency) Hz at \(rate): median \(cents)")
        }
    }

    /// A real recording (vocadito's phrase, at 44.1 kHz) against its reference track: raw pitch accuracy at least
    /// 0.98 on the frames the reference is sure of, and no voiced frame called unvoiced-silent.
    @Test func aKnownRecordingIsTracked() throws {
        let score = try RealVoiceTests.score(try RealVoiceTests.net("vocadito_10"), take: "vocadito_10")
        #expect(score.accuracy >= 0.98, "\(score)")
        #expect(score.falseAlarmRate <= 0.1, "\(score)")
    }

    /// Live, window by window at 48 kHz with YIN's hop, the tracker, alone and guiding YIN (`auto` with other sound
    /// expected), decides the frames a file gives, each at its time, about 0.24 s after the window that brought its
    /// last sound.
    @Test(arguments: [PitchTrackerKind.net, .auto])
    func liveFramesAreTheFileFrames(kind: PitchTrackerKind) throws {
        let rate = 48000.0
        let voice = SyntheticVoice(sampleRate: rate)
        let signal = voice.render(
            [.init(start: 0.1, duration: 0.6, frequency: 220), .init(start: 0.8, duration: 0.6, frequency: 247)], length: 1.6)
        var configuration = Self.configuration(rate: rate)
        configuration.kind = kind
        configuration.accompanied = true
        // A window of whole pairs of hops, so that YIN's live frames (centred at the times given) fall on its file
        // frames' grid.
        configuration.window = 2048
        let tracker = try PitchTrackers.make(configuration)
        #expect(tracker.delay > 0.2 && tracker.delay < 0.26, "\(tracker.delay)")
        var live: [PitchFrame] = []
        let (window, hop) = (configuration.window, configuration.hop)
        // The first window's newest hop is the signal's first; the last windows run on into silence.
        let padded = [Float](repeating: 0, count: window - hop) + signal + [Float](repeating: 0, count: window / 2)
        var start = 0
        while start + window <= padded.count {
            let time = (Double(start + window / 2) - Double(window - hop)) / rate
            if let frame = padded.withUnsafeBufferPointer({
                tracker.analyse(UnsafeBufferPointer(rebasing: $0[start..<(start + window)]), time: time)
            }) {
                live.append(frame)
            }
            start += hop
        }
        tracker.finish { live.append($0) }
        let file = try PitchTrackers.track(signal: signal, configuration: configuration)
        // Live frames centred before the signal's start or past the file's last frame have none to match.
        live = live.filter { $0.time > -1e-9 && $0.time <= file.last!.time + 1e-9 }
        #expect(abs(live.count - file.count) <= 1)
        for (a, b) in zip(live, file) {
            #expect(abs(a.time - b.time) < 1.5 / rate)
            #expect(a.isVoiced == b.isVoiced)
            if a.isVoiced && b.isVoiced { #expect(abs(PitchMath.cents(a.frequency, from: b.frequency)) < 1) }
        }
    }

    /// A missing file, a file that is not one, and a cut-short file each give one line naming it, what was
    /// expected and the command that rebuilds it.
    @Test func wrongOrMissingWeightsSayWhatToDo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("choir-pitchnet-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let real = try Data(contentsOf: URL(fileURLWithPath: PitchNetWeights.locate(explicit: nil, environment: [:])))
        let cases: [(String, Data?, String)] = [
            ("missing.weights", nil, "no such file"),
            ("model.onnx", Data("not weights at all".utf8), "not a choir pitch-net file (no CHPNET01 header)"),
            ("short.weights", real.prefix(5000), "truncated at byte"),
        ]
        for (name, contents, problem) in cases {
            let path = folder.appendingPathComponent(name).path
            if let contents { try contents.write(to: URL(fileURLWithPath: path)) }
            var configuration = Self.configuration(rate: 16000)
            configuration.netWeights = path
            let error = #expect(throws: PitchTrackerError.self) { _ = try PitchTrackers.make(configuration) }
            let message = error?.description ?? ""
            #expect(message.hasPrefix("\(path): \(problem)"), "\(message)")
            #expect(message.hasSuffix(": expected SwiftF0's weights for --tracker net; rebuild them with `just net-weights`"), "\(message)")
            #expect(!message.contains("\n") && error?.isWeights == true)
        }
    }

    /// YIN stays what a configuration gets unless it asks for the net, or for `auto` with other sound expected (YIN
    /// guided by the net).
    @Test func autoTakesTheNetOnlyWhereOtherSoundIsExpected() throws {
        var configuration = PitchTrackerConfiguration(sampleRate: 48000)
        #expect(try PitchTrackers.make(configuration) is YINTracker)
        configuration.kind = .auto
        #expect(try PitchTrackers.make(configuration) is YINTracker)
        configuration.accompanied = true
        #expect(try PitchTrackers.make(configuration) is CombinedTracker)
        configuration.kind = .net
        #expect(try PitchTrackers.make(configuration) is NetTracker)
        configuration.kind = .yin
        #expect(try PitchTrackers.make(configuration) is YINTracker)
    }
}
