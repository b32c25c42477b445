import ChoirPitch

/// A recorded take prepared for judging as a whole: its pitch frames, each with the level of the mix's echo
/// taken out of it, and how loud the singer is. Where a mix was played, its echo is first learned from the whole
/// take and taken out of it (``EchoPath``, ``Convolution``). A live session learns these as it goes (and takes the
/// echo out hop by hop, ``EchoCanceller``); from a file they are learned from the whole take before any note is
/// judged.
public struct TakeAnalysis: Sendable {
    /// The take's pitch frames, on its own clock, tracked with the mix's echo taken out.
    public var frames: [PitchFrame]
    /// The take's spectra every 5 ms, on its own clock, with the mix's echo taken out: what entrances are timed by.
    public var spectra: [Spectrum]
    /// The singer's level, learned from every frame.
    public var gate: LevelGate
    /// How loud the mix came through the microphone: the RMS of the echo taken out over the mix's (0 when nothing
    /// played).
    public var loudspeakers: Double
    /// The tracker that tracked the take: `yin`, `net` or `yin+net` (``PitchTrackers/name(of:)``).
    public var tracker: String

    /// Analyses `samples` for singing `notes`, whose time 0 is `start` seconds into the take. `mix` is what was
    /// played while the take was recorded, mono at the take's sample rate, sample for sample at the same moments
    /// (nil when nothing was played), and `singersLine` the singer's own line's share of it. The mix's echo path
    /// is learned against the other lines (a voice singing along with its own line correlates with it, which
    /// would lead the path astray), and the whole mix's echo taken out. Each frame's accompaniment is then the echo
    /// taken out of its window. `tracker` tracks the pitch; `auto` takes the learned tracker only where
    /// `accompanied` says other sound than the mix is expected: the mix's echo is taken out, and YIN hears the voice
    /// in what is left as well as the learned tracker does.
    public init(
        samples: [Float], sampleRate: Double, notes: [ExpectedNote], start: Double = 0, mix: [Float]?, singersLine: [Float]? = nil,
        tracker: PitchTrackerKind = .yin, accompanied: Bool = false
    ) throws(PitchTrackerError) {
        let configuration = PracticeJudge.detector(for: notes, sampleRate: sampleRate)
        guard let mix, !mix.isEmpty else {
            try self.init(
                cleaned: samples, echo: nil, loudspeakers: 0, sampleRate: sampleRate, notes: notes, start: start, tracker: tracker,
                accompanied: accompanied)
            return
        }
        let path = EchoPath.forRecording(sampleRate: sampleRate, count: samples.count)
        let others = singersLine.map { line in mix.indices.map { mix[$0] - ($0 < line.count ? line[$0] : 0) } } ?? mix
        path.add(recording: samples, mix: others)
        func power(_ x: [Float]) -> Double { x.reduce(0.0) { $0 + Double($1 * $1) } }
        var filter = [Float](repeating: 0, count: path.taps)
        filter.withUnsafeMutableBufferPointer { path.solve(with: ToeplitzSolver(count: path.taps), into: $0) }
        var cleaned = samples
        var echo = Self.cancel(&cleaned, mix: mix, filter: filter, lead: path.lead)
        // Where the singer rests, what the microphone hears is the loudspeakers and the room: a path that takes
        // nothing out there found no loudspeakers, only the singer's own line moving with the others (a take made
        // with headphones, or rendered); the take is judged as it is.
        let rests = stride(from: 0, to: samples.count, by: configuration.hop).filter { i in
            ExpectedNote.isRest(at: Double(i) / sampleRate - start, in: notes)
        }
        func restPower(_ x: [Float]) -> Double {
            rests.reduce(0.0) { sum, i in sum + x[i..<min(x.count, i + configuration.hop)].reduce(0.0) { $0 + Double($1 * $1) } }
        }
        if rests.count * configuration.hop >= Int(sampleRate / 2), restPower(cleaned) >= 0.8 * restPower(samples) {
            try self.init(
                cleaned: samples, echo: nil, loudspeakers: 0, sampleRate: sampleRate, notes: notes, start: start, tracker: tracker,
                accompanied: accompanied)
            return
        }
        // A filter learned from too little (a piece without rests) can add more than it takes out; then the take is
        // judged as heard, and the mix's level through the path's strongest tap says how loud it came through.
        if power(cleaned) >= power(samples) {
            let (gain, delay) = path.coarse
            cleaned = samples
            echo = samples.indices.map { $0 - delay >= 0 && $0 - delay < mix.count ? Float(gain) * mix[$0 - delay] : 0 }
        }
        try self.init(
            cleaned: cleaned, echo: echo, loudspeakers: (power(echo) / max(1e-12, power(mix))).squareRoot(),
            sampleRate: sampleRate, notes: notes, start: start, tracker: tracker, accompanied: accompanied)
    }

    /// Analyses a take whose mix's `echo` (sample for sample) was already taken out, leaving `cleaned`. The tracker
    /// and whether other sound is expected have no defaults here: every way into this one must pass on what was asked.
    public init(
        cleaned: [Float], echo: [Float]?, loudspeakers: Double, sampleRate: Double, notes: [ExpectedNote], start: Double = 0,
        tracker: PitchTrackerKind, accompanied: Bool
    ) throws(PitchTrackerError) {
        var configuration = PracticeJudge.detector(for: notes, sampleRate: sampleRate)
        configuration.kind = tracker
        configuration.accompanied = accompanied
        self.loudspeakers = loudspeakers
        self.tracker = PitchTrackers.name(of: configuration)
        frames = try PitchTrackers.track(signal: cleaned, configuration: configuration)
        spectra = SpectrumAnalyser.spectra(of: cleaned, sampleRate: sampleRate, hop: 0.005)
        if let echo {
            let window = configuration.window
            let windows = frames.map { frame in
                let start = max(0, min(echo.count, Int((frame.time * sampleRate).rounded()) - window / 2))
                return start..<min(echo.count, start + window)
            }
            for (i, rms) in Self.rms(of: echo, over: windows, hop: configuration.hop).enumerated() { frames[i].accompaniment = rms }
        }
        gate = LevelGate(frames: frames, notes: notes, start: start)
    }

    /// The RMS of `signal` over each of `windows`, which lie within it (0 over an empty one): whole hops' sums of squares from running
    /// sums kept `hop` samples apart, and the windows' ragged ends summed. (Running sums of every sample would take
    /// eight bytes a sample: twice the take.)
    static func rms(of signal: [Float], over windows: [Range<Int>], hop: Int) -> [Double] {
        func squares(_ range: Range<Int>) -> Double { signal[range].reduce(0.0) { $0 + Double($1 * $1) } }
        var sums = [Double](repeating: 0, count: signal.count / hop + 1)
        for c in sums.indices.dropFirst() { sums[c] = sums[c - 1] + squares((c - 1) * hop..<c * hop) }
        return windows.map { window in
            guard !window.isEmpty else { return 0 }
            let (first, last) = ((window.lowerBound + hop - 1) / hop, window.upperBound / hop)
            let sum =
                first < last
                ? sums[last] - sums[first] + squares(window.lowerBound..<first * hop) + squares(last * hop..<window.upperBound)
                : squares(window)
            return (sum / Double(window.count)).squareRoot()
        }
    }

    /// Takes the mix's echo, through `filter`, out of `microphone`, and returns the echo taken out:
    /// `echo[n] = Σ_m filter[m] · mix[n + lead − m]`, what a live session's ``EchoCanceller`` takes out hop by hop,
    /// here in one convolution of the whole mix (about a third of the operations, in long transforms), shared by
    /// `threads`.
    static func cancel(_ microphone: inout [Float], mix: [Float], filter: [Float], lead: Int, threads: Int = 2) -> [Float] {
        let echo = Convolution.convolve(mix, filter, outputs: lead..<(lead + microphone.count), threads: threads)
        for i in microphone.indices { microphone[i] -= echo[i] }
        return echo
    }

    /// A judge of `notes` that knows what this analysis learned.
    public func judge(_ notes: [ExpectedNote], options: NoteComparator.Options) -> PracticeJudge {
        PracticeJudge(notes: notes, options: options, gate: gate, learnsLevel: false)
    }

    /// How far the take's singing lies from where `notes` say, in seconds (later positive): the shift by which the
    /// first phrases' pitches fit best (``TakeAlignment``; none where no shift fits clearly better than none), then
    /// moved by the median of their entrances' offsets as the judge times them there, by a tenth of a second at most:
    /// the fit of whole notes cannot place them finer than a consonant or a breath, and puts a voice that swells into
    /// its notes (a sampled choir) where its pitch settles, past where its entrances are heard. A take that starts on
    /// the beat is placed by its entrances too, so that it is judged as the same take with silence before it is: left
    /// where it was, a voice whose entrances the judge hears late scored up to 19 points lower than after a second of
    /// silence, where it was moved (`Benchmarks/judge-renders.py --held-out --shift 1`: Synth Voice's bass of "Lift
    /// Every Voice and Sing"; placed, every one of its nine lines within a note).
    public func alignment(of notes: [ExpectedNote], options: NoteComparator.Options, start: Double) -> Double {
        let comparator = judge(notes, options: options).comparator
        let coarse = TakeAlignment.offset(frames: frames, notes: notes, start: start, isSung: comparator.isSung)
        let first = notes.prefix { $0.onset < notes[0].onset + 12 }
        var trial = judge(Array(first), options: options)
        feed(&trial, offset: start + coarse) { judge, _ in judge.results.count < first.count }
        _ = trial.finish()
        let offsets = trial.results.filter { $0.note.isEntrance }.compactMap(\.onsetError).sorted()
        let fine = offsets.isEmpty ? 0 : offsets[offsets.count / 2]
        return coarse + min(0.1, max(-0.1, fine))
    }

    /// Gives `judge` the take's frames and spectra in time order, each moved `offset` seconds earlier (onto the
    /// notes' clock), and calls `each` with the judge and every frame's time once the judge has it; stops when
    /// `each` says so.
    public func feed<Failure: Error>(
        _ judge: inout PracticeJudge, offset: Double = 0, each: (PracticeJudge, Double) throws(Failure) -> Bool
    ) throws(Failure) {
        var next = 0
        for var frame in frames {
            frame.time -= offset
            // A note's entrance is timed by spectra up to 0.15 s past the frame where its pitch arrived.
            while next < spectra.count, spectra[next].time - offset <= frame.time + 0.2 {
                var spectrum = spectra[next]
                spectrum.time -= offset
                judge.add(spectrum)
                next += 1
            }
            _ = judge.add(frame)
            guard try each(judge, frame.time) else { return }
        }
    }
}
