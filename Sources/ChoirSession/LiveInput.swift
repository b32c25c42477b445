import ChoirAudio
import ChoirPitch
import ChoirPractice

/// A live session's devices and analysers, opened before it starts (so that a busy device is said first): the
/// capture thread and the ring it fills, the pitch tracker and spectra that read it, the mix, the loudspeakers'
/// echo canceller fed by taps on the mix, and the microphone's recording. Everything is allocated here: the
/// session's thread only moves samples between them.
struct LiveInput {
    /// YIN, which drives the needle, and judges unless `judging` does (the learned tracker, with its longer lag).
    var tracker: any PitchTracker
    var judging: (any PitchTracker)?
    var configuration: PitchTrackerConfiguration
    var spectra: SpectrumAnalyser
    /// The capture thread's ring of microphone samples (single producer: the capture thread).
    var ring: SPSCRing<Float>
    var capture: ALSACapture
    var mix: MixOutput
    var echo: LiveEcho?
    var recording: TakeRecording?

    /// Opens capture `device`, and the tracker for the singer's `notes`, for `plan`.
    init(_ device: String, plan: PracticePlan, resolved: ResolvedPlayback, notes: [ExpectedNote]) throws(SessionError) {
        let sampleRate = plan.sampleRate
        configuration = PracticeJudge.detector(for: notes, sampleRate: Double(sampleRate))
        do throws(PitchTrackerError) {
            tracker = try PitchTrackers.make(configuration)
            var judged = configuration
            judged.kind = plan.tracker
            judged.accompanied = plan.accompanied
            judging = judged.kind.usesNetwork(accompanied: judged.accompanied) ? try PitchTrackers.make(judged) : nil
        } catch {
            throw SessionError(error.isWeights ? .missing : .usage, "\(error)")
        }
        ring = SPSCRing<Float>(minimumCapacity: sampleRate * 2, filler: 0)
        do {
            capture = try ALSACapture(device: device, sampleRate: sampleRate, periodFrames: 256, ring: ring)
        } catch {
            throw SessionError(.deviceUnavailable, "\(error)")
        }
        // Played on loudspeakers, the mix reaches the microphone too: what was played is tapped to tell them apart.
        let tap = plan.loudspeakers && plan.output.isDevice ? SPSCRing<Float>(minimumCapacity: sampleRate * 4, filler: 0) : nil
        mix = try MixOutput(plan.output, resolved: resolved, sampleRate: sampleRate, tap: tap, paced: true)
        // The singer's own line, as it plays, for learning the loudspeakers' echo against the other lines.
        let singerTap = tap != nil && mix.renderer != nil ? SPSCRing<Float>(minimumCapacity: sampleRate * 4, filler: 0) : nil
        if let singerTap, !resolved.singers.isEmpty { mix.renderer?.tap(lines: resolved.singers, into: singerTap) }
        echo = tap.map { [configuration] in
            LiveEcho(tap: $0, singerTap: singerTap, sampleRate: sampleRate, hop: configuration.hop, window: configuration.window)
        }
        recording = try plan.record.map { (path) throws(SessionError) in try TakeRecording(path: path, sampleRate: sampleRate) }
        spectra = SpectrumAnalyser(sampleRate: Double(sampleRate))
    }
}
