import ChoirAudio
import ChoirPitch

/// What a live session needs to tell the singer from the loudspeakers: the mix as it was played (from the
/// playback thread's tap), kept by frame; its echo path, learned as the session goes; and the echo taken out of
/// every hop the microphone captured, before the pitch tracker hears it. For the analysis thread; allocates at
/// construction only.
public final class LiveEcho {
    private let tap: SPSCRing<Float>
    private let sampleRate: Int
    private let history: StreamHistory
    private let path: EchoPath
    private let canceller: EchoCanceller
    private let solver: EchoSolver
    /// The latest block of raw microphone samples, for learning the path.
    private var block: [Float]
    private var filled = 0
    private var context: [Float]
    private var ahead: [Float]
    /// Blocks learned since the path was last handed to the solver.
    private var learned = 0
    /// Samples captured so far.
    private var listened = 0
    /// The mix frame playing when the first sample was captured, by the latest word of the streams' clocks.
    private var offset = 0.0
    /// The echo taken out of the latest `window` samples: their squares in a ring, and its sum.
    private var squares: [Double]
    private var squaresAt = 0
    private var squaresSum = 0.0
    /// The energy of the echo taken out and of the mix, over the last ten seconds or so.
    private var echoEnergy = 0.0, mixEnergy = 0.0

    /// Listens to `tap`, which the playback thread fills with every mix frame it plays, mono; takes the echo out
    /// of hops of `hop` samples, and measures it over analysis windows of `window` samples.
    public init(tap: SPSCRing<Float>, sampleRate: Int, hop: Int, window: Int) {
        self.tap = tap
        self.sampleRate = sampleRate
        history = StreamHistory(capacity: sampleRate * 8)
        // Ten seconds: long enough to average the singer out, short enough to follow someone moving.
        path = EchoPath.forPractice(sampleRate: Double(sampleRate), memory: 10)
        canceller = EchoCanceller(hop: hop, taps: path.taps, lead: path.lead)
        solver = EchoSolver(taps: path.taps)
        block = [Float](repeating: 0, count: path.block)
        context = [Float](repeating: 0, count: path.context)
        ahead = [Float](repeating: 0, count: hop)
        squares = [Double](repeating: 0, count: window)
    }

    deinit { solver.stop() }

    /// Takes the echo out of one hop of captured samples, in place; `heardFrame` is the mix frame that was playing
    /// when the first of them was captured (by the streams' clocks, the round trip subtracted; see
    /// ``StreamAlignment`` for why it must be steady).
    public func cancel(_ captured: UnsafeMutableBufferPointer<Float>, heardFrame: Double) {
        history.append(from: tap)
        offset = heardFrame - Double(listened)
        // The path learns from what the microphone heard, echo and all.
        for sample in captured {
            block[filled] = sample
            filled += 1
            guard filled == block.count else { continue }
            filled = 0
            let start = Int((Double(listened + captured.count - block.count) + offset).rounded())
            context.withUnsafeMutableBufferPointer { history.copy(from: start - (path.taps - 1 - path.lead), into: $0) }
            block.withUnsafeBufferPointer { captured in context.withUnsafeBufferPointer { path.add(microphone: captured, mix: $0) } }
            learned += 1
        }
        // A new solution every two seconds or so, once the mix's place in the history is sure.
        if learned * path.block >= 2 * sampleRate, history.isIntact {
            solver.request(path)
            learned = 0
        }
        solver.collect { canceller.load($0) }
        if history.isIntact {
            ahead.withUnsafeMutableBufferPointer { history.copy(from: Int((Double(listened) + offset).rounded()) + path.lead, into: $0) }
            ahead.withUnsafeBufferPointer { canceller.cancel(captured, mix: $0) }
        }
        let decay = 1 - 1 / (10 * Double(sampleRate))
        for i in 0..<captured.count {
            let square = history.isIntact ? Double(canceller.echo[i] * canceller.echo[i]) : 0
            echoEnergy = echoEnergy * decay + square
            mixEnergy = mixEnergy * decay + Double(ahead[i] * ahead[i])
            squaresSum += square - squares[squaresAt]
            squares[squaresAt] = square
            squaresAt = (squaresAt + 1) % squares.count
        }
        listened += captured.count
    }

    /// How loud the mix comes through the microphone: the RMS of the echo taken out over the mix's, lately.
    public var gain: Double { mixEnergy > 0 ? (echoEnergy / mixEnergy).squareRoot() : 0 }

    /// The RMS of the echo taken out of the latest analysis window.
    public var echoLevel: Double { (max(0, squaresSum) / Double(squares.count)).squareRoot() }
}
