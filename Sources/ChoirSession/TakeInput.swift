import ChoirAudio
import ChoirPlayback

/// A recorded take opened for judging: its samples, the mix as its microphone heard it from loudspeakers (to take
/// out of it), and the mix to write or play beside it. Opened before the session starts, so that a bad file is
/// said before anything runs.
struct TakeInput {
    var path: String
    var audio: AudioFile.Audio
    var heard: (mix: [Float], singersLine: [Float]?)?
    var mix: MixOutput

    /// Reads the take at `path` and opens `plan`'s output; the take's time 0 is the mix's, `latency` later.
    init(_ path: String, plan: PracticePlan, resolved: ResolvedPlayback, latency: Double) throws(SessionError) {
        do { audio = try AudioFile.read(contentsOf: path) } catch { throw SessionError(reading: error) }
        guard (8000...192_000).contains(audio.sampleRate) else {
            throw SessionError(.input, "\(path): sample rate \(audio.sampleRate) Hz: expected 8000 to 192000 Hz")
        }
        self.path = path
        heard =
            plan.loudspeakers
            ? try Self.played(resolved, sampleRate: audio.sampleRate, latency: latency, length: audio.samples.count) : nil
        mix = try MixOutput(plan.output, resolved: resolved, sampleRate: plan.sampleRate)
    }

    /// The mix as a take's microphone heard it from loudspeakers, and the singer's own line's share of it: mono at
    /// the take's sample rate, sample for sample with the take (whose time 0 is the mix's, `latency` later), so
    /// that the judge can take the loudspeakers' echo out.
    private static func played(_ resolved: ResolvedPlayback, sampleRate: Int, latency: Double, length: Int)
        throws(SessionError) -> (mix: [Float], singersLine: [Float]?)
    {
        let renderer: SynthRenderer
        do {
            renderer = try resolved.renderer(sampleRate: sampleRate, blockSize: 4096)
        } catch {
            throw SessionError(.input, "\(error)")
        }
        let line = resolved.singer.map { singer in
            let ring = SPSCRing<Float>(minimumCapacity: renderer.totalFrames + 1, filler: 0)
            renderer.tap(lines: resolved.singers, into: ring)
            return ring
        }
        let (left, right) = renderer.renderAll()
        var singersLine = line.map { [Float](repeating: 0, count: $0.available) }
        if let line { singersLine!.withUnsafeMutableBufferPointer { _ = line.read(into: $0) } }
        let delay = Int((latency * Double(sampleRate)).rounded())
        func aligned(_ signal: (Int) -> Float, count: Int) -> [Float] {
            (0..<length).map { i in i - delay >= 0 && i - delay < count ? signal(i - delay) : 0 }
        }
        return (
            aligned({ (left[$0] + right[$0]) / 2 }, count: left.count),
            singersLine.map { line in aligned({ line[$0] }, count: line.count) }
        )
    }
}
