import ChoirPitch

/// A recorded take prepared for judging as a whole: its pitch frames, each with the level of the mix that was
/// playing, how loud the singer is, and how much of the mix the microphone heard. A live session learns these
/// as it goes; from a file they are learned from the whole take before any note is judged.
public struct TakeAnalysis: Sendable {
    /// The take's pitch frames, on its own clock.
    public var frames: [PitchFrame]
    /// The singer's level, learned from every frame.
    public var gate: LevelGate
    /// How loud the mix comes through the microphone, as a gain on the mix; see ``NoteComparator/bleed``.
    public var bleed: Double

    /// Analyses `samples` for singing `notes`. `mix` is what was played while the take was recorded, mono at the
    /// take's sample rate, sample for sample at the same moments (nil when nothing was played).
    public init(samples: [Float], sampleRate: Double, notes: [ExpectedNote], mix: [Float]?) throws(PitchTracker.ConfigurationError) {
        let configuration = PracticeJudge.detector(for: notes, sampleRate: sampleRate)
        frames = try PitchTracker.track(signal: samples, configuration: configuration)
        gate = LevelGate(frames: frames)
        bleed = 0
        guard let mix, !mix.isEmpty else { return }
        let meter = BleedMeter.forPractice(sampleRate: sampleRate, memory: .infinity)
        meter.add(recording: samples, mix: mix)
        bleed = meter.gain
        // The mix's RMS over each frame's window, as the microphone heard it (the meter's delay later), from running
        // sums of squares.
        var energy = [Double](repeating: 0, count: mix.count + 1)
        for (i, sample) in mix.enumerated() { energy[i + 1] = energy[i] + Double(sample * sample) }
        let window = configuration.window
        for i in frames.indices {
            let start = max(0, min(mix.count, Int((frames[i].time * sampleRate).rounded()) - window / 2 - meter.delay))
            let end = min(mix.count, start + window)
            frames[i].accompaniment = end > start ? ((energy[end] - energy[start]) / Double(end - start)).squareRoot() : 0
        }
    }

    /// A judge of `notes` that knows what this analysis learned.
    public func judge(_ notes: [ExpectedNote], options: NoteComparator.Options) -> PracticeJudge {
        var judge = PracticeJudge(notes: notes, options: options, gate: gate, learnsLevel: false)
        judge.comparator.bleed = bleed
        return judge
    }
}
