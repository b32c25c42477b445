import ChoirAudio
import ChoirPitch

/// What a live session needs to tell the singer from the loudspeakers: the mix as it was played (from the
/// playback thread's tap), kept by frame, and the singer's own line in it; the mix's echo path, learned as the
/// session goes against the other lines (a voice singing along with its own line correlates with it, which would
/// lead the path astray); and the echo of the whole mix taken out of every hop the microphone captured, before the
/// pitch tracker hears it.
///
/// Every new solution of the path is tried on half a second of hops beside the filter in use and beside none, and
/// only the one that leaves least in the microphone is kept. Where no filter helps (the path drifts faster than
/// it can be learned, as when the microphone and the loudspeakers run on clocks of their own), the echo is not
/// taken out, and its level is judged from the path's strongest tap, for the judge to hold frames against. For
/// the analysis thread; allocates at construction only.
public final class LiveEcho {
    private let tap: SPSCRing<Float>
    private let singerTap: SPSCRing<Float>?
    private let sampleRate: Int
    private let history: StreamHistory
    private let singerHistory: StreamHistory
    private let path: EchoPath
    /// The same against the whole mix, for its strongest tap only: what the judge holds frames against while no
    /// filter helps. A voice singing along with its own line correlates with the mix and makes this tap louder,
    /// which errs towards strictness.
    private let whole: EchoPath
    private var wholeContext: [Float]
    private let solver: EchoSolver
    /// The canceller in use (when `cancelling`), and one trying the latest solution.
    private var active: EchoCanceller
    private var trial: EchoCanceller
    private var cancelling = false
    private var trialHops = 0
    private let trialLength: Int
    /// What the microphone held over the trial's counted hops: as heard, and left by each canceller.
    private var heardEnergy = 0.0, activeResidual = 0.0, trialResidual = 0.0
    private var scratch: [Float]
    /// The latest block of raw microphone samples, for learning the path, and the mix around it.
    private var block: [Float]
    private var filled = 0
    private var context: [Float]
    private var singersLine: [Float]
    private var ahead: [Float]
    /// Blocks learned since the path was last handed to the solver.
    private var learned = 0
    /// Samples captured so far.
    private var listened = 0
    /// The mix frame playing when the first sample was captured: the streams' clocks' first word on it, kept
    /// while their later words stay within 50 ms of it. Their estimate wanders by tens of milliseconds, while the
    /// path holds only for one steady mapping from captured samples to mix frames; the path itself follows a
    /// slow drift, and a real change (a stream restarted) moves the mapping.
    private var offset: Double?
    /// The echo in the latest `window` samples (taken out, or judged from the strongest tap): squares in a ring.
    private var squares: [Double]
    private var squaresAt = 0
    private var squaresSum = 0.0
    /// The energy of the echo and of the mix, over the last ten seconds or so.
    private var echoEnergy = 0.0, mixEnergy = 0.0

    /// Listens to `tap`, which the playback thread fills with every mix frame it plays, mono, and to `singerTap`,
    /// which it fills with the singer's line's share of each frame (nil when the singer's line does not play);
    /// takes the echo out of hops of `hop` samples, and measures it over analysis windows of `window` samples.
    public init(tap: SPSCRing<Float>, singerTap: SPSCRing<Float>?, sampleRate: Int, hop: Int, window: Int) {
        self.tap = tap
        self.singerTap = singerTap
        self.sampleRate = sampleRate
        history = StreamHistory(capacity: sampleRate * 8)
        singerHistory = StreamHistory(capacity: sampleRate * 8)
        // Four seconds, short enough to follow a path that drifts; 80 ms, a room's direct sound and first
        // reflections, solved in a few tens of milliseconds.
        path = EchoPath.forPractice(sampleRate: Double(sampleRate), memory: 4, length: 0.08)
        // One second: the strongest tap must follow a drifting path closely, or it spreads over the drift.
        whole = EchoPath.forPractice(sampleRate: Double(sampleRate), memory: 1, length: 0.08)
        solver = EchoSolver(taps: path.taps)
        active = EchoCanceller(hop: hop, taps: path.taps, lead: path.lead)
        trial = EchoCanceller(hop: hop, taps: path.taps, lead: path.lead)
        // Half a second of hops counted, after the new filter's partitions have filled.
        trialLength = sampleRate / 2 / hop + active.partitions
        scratch = [Float](repeating: 0, count: hop)
        block = [Float](repeating: 0, count: path.block)
        context = [Float](repeating: 0, count: path.context)
        singersLine = [Float](repeating: 0, count: path.context)
        wholeContext = [Float](repeating: 0, count: path.context)
        ahead = [Float](repeating: 0, count: hop)
        squares = [Double](repeating: 0, count: window)
    }

    deinit { solver.stop() }

    /// Takes the echo out of one hop of captured samples, in place; `heardFrame` is the mix frame that was playing
    /// when the first of them was captured (by the streams' clocks, the round trip subtracted; see
    /// ``StreamAlignment`` for why it must be steady).
    public func cancel(_ captured: UnsafeMutableBufferPointer<Float>, heardFrame: Double) {
        history.append(from: tap)
        if let singerTap { singerHistory.append(from: singerTap) }
        let latest = heardFrame - Double(listened)
        if offset == nil || abs(latest - offset!) > 0.05 * Double(sampleRate) {
            offset = latest
            path.reset()
            whole.reset()
        }
        recentre()
        let offset = self.offset!
        learn(captured, offset: offset)
        let intact = history.isIntact && singerHistory.isIntact
        // A new solution every two seconds or so, once the mix's place in the history is sure.
        if learned * path.block >= 2 * sampleRate, intact {
            solver.request(path)
            learned = 0
        }
        solver.collect { filter in
            trial.load(filter)
            trialHops = trialLength
            (heardEnergy, activeResidual, trialResidual) = (0, 0, 0)
        }
        let now = Int((Double(listened) + offset).rounded())
        ahead.withUnsafeMutableBufferPointer { history.copy(from: now + path.lead, into: $0) }
        let counted = trialHops > 0 && trialHops <= trialLength - trial.partitions
        if trialHops > 0 {
            if counted { heardEnergy += energy(captured) }
            trialResidual += residual(of: trial, on: captured, counted: counted)
        }
        if cancelling && intact { ahead.withUnsafeBufferPointer { active.cancel(captured, mix: $0) } }
        if trialHops > 0 {
            if counted { activeResidual += cancelling ? energy(captured) : 0 }
            trialHops -= 1
            if trialHops == 0 { endTrial() }
        }
        // The echo in this hop: taken out, or the mix through the path's strongest tap.
        let (gain, delay) = whole.coarse
        for i in 0..<captured.count {
            let echo = cancelling && intact ? Double(active.echo[i]) : gain * Double(history.sample(now + i - delay))
            let square = intact ? echo * echo : 0
            let mix = Double(ahead[i])
            echoEnergy = echoEnergy * (1 - 1 / (10 * Double(sampleRate))) + square
            mixEnergy = mixEnergy * (1 - 1 / (10 * Double(sampleRate))) + mix * mix
            squaresSum += square - squares[squaresAt]
            squares[squaresAt] = square
            squaresAt = (squaresAt + 1) % squares.count
        }
        listened += captured.count
    }

    /// Keeps the path's strongest tap well inside the filter: where the mapping has drifted towards either end, the
    /// mapping moves by as much and the path is learned afresh.
    private func recentre() {
        guard whole.blocks >= 8 else { return }
        let (gain, delay) = whole.coarse
        guard gain > 0, delay < -path.lead / 2 || delay > path.length * 3 / 4 else { return }
        offset! -= Double(delay - path.length / 4)
        path.reset()
        whole.reset()
        cancelling = false
        trialHops = 0
    }

    /// Adds the hop to the block the path learns from next, against the other lines (the mix without the
    /// singer's own).
    private func learn(_ captured: UnsafeMutableBufferPointer<Float>, offset: Double) {
        for (k, sample) in captured.enumerated() {
            block[filled] = sample
            filled += 1
            guard filled == block.count else { continue }
            filled = 0
            let start = Int((Double(listened + k + 1 - block.count) + offset).rounded()) - (path.taps - 1 - path.lead)
            wholeContext.withUnsafeMutableBufferPointer { history.copy(from: start, into: $0) }
            singersLine.withUnsafeMutableBufferPointer { singerHistory.copy(from: start, into: $0) }
            for i in context.indices { context[i] = wholeContext[i] - (singerTap != nil ? singersLine[i] : 0) }
            block.withUnsafeBufferPointer { captured in
                context.withUnsafeBufferPointer { path.add(microphone: captured, mix: $0) }
                wholeContext.withUnsafeBufferPointer { whole.add(microphone: captured, mix: $0) }
            }
            learned += 1
        }
    }

    private func energy(_ samples: UnsafeMutableBufferPointer<Float>) -> Double {
        samples.reduce(0.0) { $0 + Double($1 * $1) }
    }

    /// What `canceller` leaves of the hop (run on a copy), if `counted`: a canceller with a new filter needs as
    /// many hops as the filter has partitions before its output is the filter's.
    private func residual(of canceller: EchoCanceller, on captured: UnsafeMutableBufferPointer<Float>, counted: Bool) -> Double {
        scratch.withUnsafeMutableBufferPointer { copy in
            _ = copy.update(fromContentsOf: captured)
            ahead.withUnsafeBufferPointer { canceller.cancel(copy, mix: $0) }
            return counted ? energy(copy) : 0
        }
    }

    /// Keeps whichever left least in the microphone: the new filter, the one in use, or none.
    private func endTrial() {
        let kept = cancelling ? min(activeResidual, heardEnergy) : heardEnergy
        if trialResidual < kept {
            swap(&active, &trial)
            cancelling = true
        } else if cancelling && heardEnergy <= activeResidual {
            cancelling = false
        }
    }

    /// How loud the mix comes through the microphone: the RMS of its echo over the mix's, lately.
    public var gain: Double { mixEnergy > 0 ? (echoEnergy / mixEnergy).squareRoot() : 0 }

    /// The RMS of the echo in the latest analysis window: what was taken out of it, or, while nothing is taken
    /// out, what the path's strongest tap says came through.
    public var echoLevel: Double { (max(0, squaresSum) / Double(squares.count)).squareRoot() }
}
