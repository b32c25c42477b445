import CFFTW
import Glibc

/// SwiftF0's network, evaluated frame by frame in plain loops over SIMD vectors: 16 kHz audio in, a pitch and a
/// voicing probability out every 256 samples (16 ms).
///
/// The front end: three short-time spectra of the window centred on the frame (512, 1024 and 2048 samples,
/// periodic Hann, through FFTW's real transforms), each summed onto 128 log-spaced bands by the weights'
/// sparse maps, and their logarithms: three channels of 128 bands. The body: fifteen convolutions over bands and
/// frames, twelve channels wide, in residual pairs (the middle ones reach across harmonics, 17 to 48 bands apart),
/// then a head that scores 95 pitch bins from 46.9 Hz to 2093.75 Hz and, from the strongest of four feature maps
/// and the frame's mean level, how likely it is voiced. The pitch is the softmax-weighted mean of the log
/// frequencies of the best bin and its two neighbours, as the published model computes it.
///
/// Live, each convolution that looks one frame ahead keeps its last three input frames, so a frame goes through
/// every layer once, and is decided seven frames (112 ms) after its spectra are taken, which reach 1024 samples
/// past its centre: ``lag`` samples after its centre in all. ``finish(_:)`` pads the ends as the published model
/// does, so a whole signal gives the same frames whichever way it went in.
///
/// Why plain loops: the network has 30,000 weights and costs 2.3 million multiply-adds a frame; each layer is one
/// loop nest whose inner loop adds a weight times 32 neighbouring bands, which the compiler keeps in vector
/// registers. A library (an ONNX runtime, BLAS) would add a dependency for small matrices it does not run faster.
///
/// Construction allocates every buffer and plans the transforms; `push` allocates nothing and takes no lock.
public final class PitchNet: @unchecked Sendable {
    /// The network's sample rate, hop and pitch range.
    public static let sampleRate = 16000.0
    public static let hop = 256
    public static let range = (minimum: 46.875, maximum: 2093.75)
    /// Samples from a frame's centre to the newest sample its decision weighs: half the longest window, and
    /// seven frames of convolutions that look ahead.
    public static let lag = 1024 + 7 * hop

    static let bands = 128
    static let bins = 95
    static let transformSizes = [1024, 2048, 512]
    static let channels = 12
    /// Zero bands either side of each row: the widest reach of a dilated convolution (54), rounded up.
    static let margin = 56
    static let stride = bands + 2 * margin

    /// A convolution over bands (kernel `width`, every `dilation` bands, `pad` bands of zeros before) and frames
    /// (kernel `frames`, one before and one after when 3).
    struct Layer {
        var name: String
        var outputs: Int, inputs: Int, width: Int, frames: Int, dilation: Int, pad: Int
        var shape: [Int] { [outputs, inputs, width, frames] }
    }

    static let layers: [Layer] = [
        Layer(name: "c0", outputs: 12, inputs: 3, width: 3, frames: 3, dilation: 1, pad: 1),
        Layer(name: "b1a", outputs: 12, inputs: 12, width: 7, frames: 3, dilation: 1, pad: 3),
        Layer(name: "b1b", outputs: 12, inputs: 12, width: 7, frames: 3, dilation: 1, pad: 3),
        Layer(name: "b2a", outputs: 12, inputs: 12, width: 7, frames: 1, dilation: 17, pad: 51),
        Layer(name: "b2b", outputs: 12, inputs: 12, width: 7, frames: 1, dilation: 17, pad: 51),
        Layer(name: "b3a", outputs: 12, inputs: 12, width: 5, frames: 1, dilation: 27, pad: 54),
        Layer(name: "b3b", outputs: 12, inputs: 12, width: 5, frames: 1, dilation: 27, pad: 54),
        Layer(name: "b4a", outputs: 12, inputs: 12, width: 3, frames: 1, dilation: 40, pad: 40),
        Layer(name: "b4b", outputs: 12, inputs: 12, width: 3, frames: 1, dilation: 40, pad: 40),
        Layer(name: "b5a", outputs: 12, inputs: 12, width: 3, frames: 1, dilation: 48, pad: 48),
        Layer(name: "b5b", outputs: 12, inputs: 12, width: 3, frames: 1, dilation: 48, pad: 48),
        Layer(name: "b6a", outputs: 12, inputs: 12, width: 7, frames: 3, dilation: 2, pad: 6),
        Layer(name: "b6b", outputs: 12, inputs: 12, width: 7, frames: 3, dilation: 2, pad: 6),
        Layer(name: "head", outputs: 4, inputs: 12, width: 3, frames: 3, dilation: 1, pad: 1),
        Layer(name: "salience", outputs: 1, inputs: 4, width: 1, frames: 1, dilation: 1, pad: 0),
        Layer(name: "voicing.bands", outputs: 4, inputs: 4, width: 5, frames: 1, dilation: 1, pad: 2),
    ]

    /// Every tensor the file must hold, with its shape (empty: checked with its companions).
    static var expectedShapes: [(String, [Int])] {
        var shapes: [(String, [Int])] = []
        for size in transformSizes {
            shapes += [("stft\(size).window", [size]), ("stft\(size).bin", []), ("stft\(size).band", []), ("stft\(size).weight", [])]
        }
        for layer in layers { shapes += [("\(layer.name).weight", layer.shape), ("\(layer.name).bias", [layer.outputs])] }
        shapes += [("voicing.a.weight", [16, 5, 3]), ("voicing.a.bias", [16]), ("voicing.b.weight", [1, 16, 1]), ("voicing.b.bias", [1])]
        shapes += [("bins.hz", [bins]), ("bins.log", [bins])]
        return shapes
    }

    /// A decided frame: its index (its centre is `index · hop` samples into the signal), its pitch, how likely it
    /// is voiced, the RMS and peak of the 512 samples around its centre, and the strongest peaks of its pitch
    /// salience within the band looked for (strongest first; the first is `frequency`), which ``PitchPath``
    /// chooses among.
    public struct Output: Sendable {
        public var index: Int
        public var frequency: Double
        public var voicing: Double
        public var level: Double
        public var peak: Float
        public var peaks = Peaks()
    }

    /// A salience peak: a bin at least as salient as the one below it and more than the one above (within the
    /// band), its pitch refined from its neighbours as the frame's own, and its salience (a logit).
    public struct Peak: Sendable {
        public var frequency: Double
        public var salience: Float
    }

    /// At most ``capacity`` peaks, held inline.
    public struct Peaks: Sendable {
        public static let capacity = 3
        public private(set) var count = 0
        private var storage = InlineArray<3, Peak>(repeating: Peak(frequency: 0, salience: 0))

        public init() {}

        public subscript(index: Int) -> Peak {
            precondition(index < count)
            return storage[index]
        }

        /// Inserts `peak` in order of salience; past ``capacity``, the weakest gives way.
        mutating func insert(_ peak: Peak) {
            var at = count
            while at > 0 && storage[at - 1].salience < peak.salience { at -= 1 }
            guard at < Self.capacity else { return }
            count = min(count + 1, Self.capacity)
            var i = count - 1
            while i > at {
                storage[i] = storage[i - 1]
                i -= 1
            }
            storage[at] = peak
        }
    }

    public let weights: PitchNetWeights
    /// The band of pitches looked for: bins outside it are never chosen, and a frame whose strongest bin lies
    /// outside it is unvoiced.
    private let allowed: (minimum: Double, maximum: Double)

    // The front end.
    private let transforms: [Transform]
    /// The newest 2048 + one hop of samples: the longest window of the next frame, and room for a hop more.
    private let audio: UnsafeMutablePointer<Float>
    private var filled = 0
    /// Samples pushed since the start, and frames whose spectra were taken.
    public private(set) var pushed = 0
    private var framesTaken = 0

    // The body: each layer's weights (reordered band-innermost), and each stage's ring of its input frames.
    private let kernels: [Kernel]
    private let stages: [Stage]
    private let scratch: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)
    private let head: UnsafeMutablePointer<Float>
    private let voicingBands: UnsafeMutablePointer<Float>
    private let salienceWeights: [Float], salienceBias: Float
    private let voicingA: (weights: [Float], bias: [Float])
    private let voicingB: (weights: [Float], bias: Float)
    private let binHertz: [Double]
    private let binLog: [Double]
    /// Per frame, by index modulo 8: the input's mean, the salience of each pitch bin, level and peak.
    private let means: UnsafeMutablePointer<Float>
    private let salience: UnsafeMutablePointer<Float>
    private let levels: UnsafeMutablePointer<(Double, Float)>
    private let summary: UnsafeMutablePointer<Float>

    /// Builds the network from `weights` (checked when they were read), looking for pitches from `minimum` to
    /// `maximum` Hz (within the network's range).
    public init(weights: PitchNetWeights, minimum: Double = range.minimum, maximum: Double = range.maximum) {
        self.weights = weights
        allowed = (minimum, maximum)
        transforms = Self.transformSizes.map { Transform(size: $0, weights: weights) }
        audio = .allocate(capacity: 2048 + Self.hop)
        kernels = Self.layers.map { Kernel($0, weights: weights) }
        let frame = Self.channels * Self.stride
        // Stages with a look-ahead of one frame: c0, b1a, b1b, b6a, b6b, head, and the voicing head.
        stages = [
            Stage(width: 3 * Self.stride), Stage(width: frame), Stage(width: frame), Stage(width: frame), Stage(width: frame),
            Stage(width: frame), Stage(width: 5),
        ]
        scratch = (.allocate(capacity: frame), .allocate(capacity: frame))
        head = .allocate(capacity: 4 * Self.stride)
        voicingBands = .allocate(capacity: 4 * Self.stride)
        (salienceWeights, salienceBias) = (weights.floats("salience.weight"), weights.floats("salience.bias")[0])
        voicingA = (weights.floats("voicing.a.weight"), weights.floats("voicing.a.bias"))
        voicingB = (weights.floats("voicing.b.weight"), weights.floats("voicing.b.bias")[0])
        binHertz = weights.floats("bins.hz").map(Double.init)
        binLog = weights.doubles("bins.log")
        means = .allocate(capacity: 8)
        salience = .allocate(capacity: 8 * Self.bins)
        levels = .allocate(capacity: 8)
        summary = .allocate(capacity: 5)
        for buffer in [scratch.0, scratch.1] { buffer.initialize(repeating: 0, count: frame) }
        head.initialize(repeating: 0, count: 4 * Self.stride)
        voicingBands.initialize(repeating: 0, count: 4 * Self.stride)
        means.initialize(repeating: 0, count: 8)
        salience.initialize(repeating: 0, count: 8 * Self.bins)
        levels.initialize(repeating: (0, 0), count: 8)
        summary.initialize(repeating: 0, count: 5)
        audio.initialize(repeating: 0, count: 2048 + Self.hop)
        reset()
    }

    deinit {
        audio.deallocate()
        scratch.0.deallocate()
        scratch.1.deallocate()
        head.deallocate()
        voicingBands.deallocate()
        means.deallocate()
        salience.deallocate()
        levels.deallocate()
        summary.deallocate()
    }

    /// Starts afresh, as for a new signal: the samples before its start are silence.
    public func reset() {
        audio.update(repeating: 0, count: 2048 + Self.hop)
        filled = 1024
        pushed = 0
        framesTaken = 0
        for stage in stages { stage.reset() }
    }

    /// Takes the next samples of the signal (16 kHz) and hands over every frame they complete, in order.
    public func push(_ samples: UnsafeBufferPointer<Float>, _ body: (Output) -> Void) {
        var index = 0
        while index < samples.count {
            let count = min(samples.count - index, 2048 - filled)
            (audio + filled).update(from: samples.baseAddress! + index, count: count)
            filled += count
            index += count
            pushed += count
            if filled == 2048 { takeFrame(body) }
        }
    }

    /// Decides the frames still held back at the end of the signal: one frame per whole hop pushed (at least
    /// one), as the published model gives, then starts afresh.
    public func finish(_ body: (Output) -> Void) {
        let frames = max(1, pushed / Self.hop)
        while framesTaken < frames {
            (audio + filled).update(repeating: 0, count: 2048 - filled)
            filled = 2048
            takeFrame(body)
        }
        // Each stage in turn sees zeros past the last frame, as the published model pads each layer.
        for stage in stages.indices { run(from: stage, input: nil, body) }
        reset()
    }

    /// The spectra of the frame the full window is centred on, into the first stage; the window moves on a hop.
    private func takeFrame(_ body: (Output) -> Void) {
        let input = stages[0].next
        var sum: Float = 0
        for (channel, transform) in transforms.enumerated() {
            let row = input + channel * Self.stride + Self.margin
            transform.bands(of: audio + 1024 - transform.size / 2, into: row)
            for band in 0..<Self.bands { sum += row[band] }
        }
        let index = framesTaken
        means[index & 7] = sum / Float(3 * Self.bands)
        var power: Double = 0
        var peak: Float = 0
        for i in 768..<1280 {
            power += Double(audio[i] * audio[i])
            peak = max(peak, abs(audio[i]))
        }
        levels[index & 7] = ((power / 512).squareRoot(), peak)
        framesTaken += 1
        audio.update(from: audio + Self.hop, count: 2048 - Self.hop)
        filled -= Self.hop
        run(from: 0, input: input, body)
    }

    /// Runs the network from stage `first` on: `input` is that stage's next input frame, already in its ring
    /// (nil: the end, zeros past the last frame). Each stage answers for the frame before its newest input.
    private func run(from first: Int, input: UnsafeMutablePointer<Float>?, _ body: (Output) -> Void) {
        var ended = input == nil
        for s in first..<stages.count {
            let stage = stages[s]
            if ended {
                stage.next.update(repeating: 0, count: stage.width)
            }
            stage.advance()
            let time = stage.received - 2
            guard time >= 0 else { return }
            ended = false
            let out: UnsafeMutablePointer<Float> = s + 1 < stages.count ? stages[s + 1].next : summary
            switch s {
            case 0:
                kernels[0].apply(stage.frames(around: time), into: out, count: Self.bands, relu: true)
            case 1:
                kernels[1].apply(stage.frames(around: time), into: out, count: Self.bands, relu: true)
            case 2:
                // b1's pair, with the block's input (stage 1's frame) added back; then b2 to b5 on the same frame.
                kernels[2].apply(stage.frames(around: time), into: out, count: Self.bands, skip: stages[1].frame(time), relu: true)
                for pair in 0..<4 {
                    let (a, b) = (kernels[3 + 2 * pair], kernels[4 + 2 * pair])
                    withUnsafeTemporaryAllocation(of: UnsafePointer<Float>.self, capacity: 1) { frames in
                        frames[0] = UnsafePointer(out)
                        a.apply(UnsafePointer(frames.baseAddress!), into: scratch.0, count: Self.bands, relu: true)
                        frames[0] = UnsafePointer(scratch.0)
                        b.apply(
                            UnsafePointer(frames.baseAddress!), into: scratch.1, count: Self.bands, skip: UnsafePointer(out), relu: true)
                    }
                    out.update(from: scratch.1, count: Self.channels * Self.stride)
                }
            case 3:
                kernels[11].apply(stage.frames(around: time), into: out, count: Self.bands, relu: true)
            case 4:
                kernels[12].apply(stage.frames(around: time), into: out, count: Self.bands, skip: stages[3].frame(time), relu: true)
            case 5:
                // The head on bands 0 to 95, then the salience of each pitch bin and the voicing features.
                kernels[13].apply(stage.frames(around: time), into: head, count: Self.bins, relu: true)
                let scores = salience + (time & 7) * Self.bins
                for bin in 0..<Self.bins {
                    var s = salienceBias
                    for c in 0..<4 { s += salienceWeights[c] * head[c * Self.stride + Self.margin + bin] }
                    scores[bin] = s
                }
                withUnsafeTemporaryAllocation(of: UnsafePointer<Float>.self, capacity: 1) { frames in
                    frames[0] = UnsafePointer(head)
                    kernels[15].apply(UnsafePointer(frames.baseAddress!), into: voicingBands, count: Self.bins, relu: false)
                }
                for c in 0..<4 {
                    var best = -Float.infinity
                    for bin in 0..<Self.bins { best = max(best, voicingBands[c * Self.stride + Self.margin + bin]) }
                    out[c] = best
                }
                out[4] = means[time & 7]
            default:
                // The voicing head: a convolution over three frames of the five features, and one to a logit.
                let frames = stage.frames(around: time)
                var logit = voicingB.bias
                for o in 0..<16 {
                    var a = voicingA.bias[o]
                    for i in 0..<5 {
                        for t in 0..<3 { a += voicingA.weights[(o * 5 + i) * 3 + t] * frames[t][i] }
                    }
                    logit += voicingB.weights[o] * max(0, a)
                }
                body(decide(time, logit: logit))
            }
        }
    }

    /// The pitch and voicing of frame `index` from its bins' salience and the voicing logit.
    private func decide(_ index: Int, logit: Float) -> Output {
        let scores = salience + (index & 7) * Self.bins
        var best = -1, strongest = 0
        var peaks = Peaks()
        for bin in 0..<Self.bins {
            if scores[bin] > scores[strongest] { strongest = bin }
            guard inside(bin) else { continue }
            if best < 0 || scores[bin] > scores[best] { best = bin }
            if (bin == 0 || !inside(bin - 1) || scores[bin] >= scores[bin - 1])
                && (bin + 1 == Self.bins || !inside(bin + 1) || scores[bin] > scores[bin + 1])
            {
                peaks.insert(Peak(frequency: refined(bin, scores), salience: scores[bin]))
            }
        }
        let (level, peak) = levels[index & 7]
        return Output(
            index: index, frequency: best >= 0 ? refined(best, scores) : 0, voicing: inside(strongest) ? 1 / (1 + exp(-Double(logit))) : 0,
            level: level, peak: peak, peaks: peaks)
    }

    private func inside(_ bin: Int) -> Bool { binHertz[bin] >= allowed.minimum && binHertz[bin] <= allowed.maximum }

    /// The pitch of `bin`: a softmax over it and its neighbours (none past either end of the band), in double
    /// precision.
    private func refined(_ bin: Int, _ scores: UnsafeMutablePointer<Float>) -> Double {
        let top = Double(scores[bin])
        var weight = 0.0, sum = 0.0
        for neighbour in (bin - 1)...(bin + 1) where neighbour >= 0 && neighbour < Self.bins && inside(neighbour) {
            let e = exp(Double(scores[neighbour]) - top)
            weight += e
            sum += e * binLog[neighbour]
        }
        return exp(sum / weight)
    }
}

extension PitchNet {
    /// One short-time spectrum onto the 128 bands: a periodic Hann window, FFTW's real transform, magnitudes,
    /// the band map, logarithms.
    final class Transform {
        let size: Int
        private let window: [Float]
        private let bins: [Int32], bands: [Int32], gains: [Float]
        private let frame: UnsafeMutablePointer<Float>
        private let spectrum: UnsafeMutablePointer<fftwf_complex>
        private let magnitude: UnsafeMutablePointer<Float>
        private let plan: fftwf_plan

        init(size: Int, weights: PitchNetWeights) {
            self.size = size
            window = weights.floats("stft\(size).window")
            bins = weights.integers("stft\(size).bin")
            bands = weights.integers("stft\(size).band")
            gains = weights.floats("stft\(size).weight")
            frame = fftwf_alloc_real(size)!
            spectrum = fftwf_alloc_complex(size / 2 + 1)!
            magnitude = .allocate(capacity: size / 2 + 1)
            let (input, output) = (frame, spectrum)
            plan = FFTWPlanner.withLock { fftwf_plan_dft_r2c_1d(Int32(size), input, output, UInt32(FFTW_ESTIMATE))! }
        }

        deinit {
            FFTWPlanner.withLock { fftwf_destroy_plan(plan) }
            fftwf_free(frame)
            fftwf_free(spectrum)
            magnitude.deallocate()
        }

        /// The log band energies of the `size` samples from `samples` into `row[0..<128]`.
        func bands(of samples: UnsafePointer<Float>, into row: UnsafeMutablePointer<Float>) {
            window.withUnsafeBufferPointer { w in
                for i in 0..<size { frame[i] = samples[i] * w[i] }
            }
            fftwf_execute(plan)
            for k in 0...(size / 2) {
                let (re, im) = (spectrum[k].0, spectrum[k].1)
                magnitude[k] = (re * re + im * im).squareRoot()
            }
            row.update(repeating: 0, count: PitchNet.bands)
            for i in bins.indices { row[Int(bands[i])] += gains[i] * magnitude[Int(bins[i])] }
            for band in 0..<PitchNet.bands { row[band] = log(row[band] + 1e-8) }
        }
    }

    /// A stage's input frames: a ring of three, by frame index, and the next one to fill.
    final class Stage {
        let width: Int
        private let storage: UnsafeMutablePointer<Float>
        private let pointers: UnsafeMutablePointer<UnsafePointer<Float>>
        /// Frames received so far (the next one's index).
        private(set) var received = 0

        init(width: Int) {
            self.width = width
            storage = .allocate(capacity: 3 * width)
            storage.initialize(repeating: 0, count: 3 * width)
            pointers = .allocate(capacity: 3)
            pointers.initialize(repeating: UnsafePointer(storage), count: 3)
        }

        deinit {
            storage.deallocate()
            pointers.deallocate()
        }

        func reset() {
            storage.update(repeating: 0, count: 3 * width)
            received = 0
        }

        /// Where the next frame goes.
        var next: UnsafeMutablePointer<Float> { storage + (received % 3) * width }

        /// Counts the frame written at ``next`` as received.
        func advance() { received += 1 }

        /// The frame of index `time` (one of the last three received; zeros before the first).
        func frame(_ time: Int) -> UnsafePointer<Float> { UnsafePointer(storage + (time % 3) * width) }

        /// The frames before, at and after `time`, for a convolution that looks one frame either way.
        func frames(around time: Int) -> UnsafePointer<UnsafePointer<Float>> {
            // Before the first frame, a slot not yet written holds zeros: the padding.
            pointers[0] = time > 0 ? frame(time - 1) : UnsafePointer(storage + ((time + 2) % 3) * width)
            pointers[1] = frame(time)
            pointers[2] = frame(time + 1)
            return UnsafePointer(pointers)
        }
    }

    /// One convolution's weights, reordered so that the band is innermost, and its loop nest.
    final class Kernel {
        let layer: Layer
        private let weights: UnsafeMutablePointer<Float>
        private let bias: UnsafeMutablePointer<Float>

        init(_ layer: Layer, weights file: PitchNetWeights) {
            self.layer = layer
            let source = file.floats("\(layer.name).weight")
            let (o, i, w, f) = (layer.outputs, layer.inputs, layer.width, layer.frames)
            weights = .allocate(capacity: o * i * w * f)
            // From [output][input][band][frame] to [output][input][frame][band].
            for a in 0..<o {
                for b in 0..<i {
                    for t in 0..<f {
                        for k in 0..<w { weights[((a * i + b) * f + t) * w + k] = source[((a * i + b) * w + k) * f + t] }
                    }
                }
            }
            bias = .allocate(capacity: o)
            bias.initialize(from: file.floats("\(layer.name).bias"), count: o)
        }

        deinit {
            weights.deallocate()
            bias.deallocate()
        }

        @inline(__always)
        private static func load(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
            UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
        }

        @inline(__always)
        private static func store(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
            UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Float>.self)
        }

        /// out[o][b] = bias[o] + Σ w[o][i][k][t] · frames[t][i][b + k·dilation − pad] (+ skip[o][b]), for bands
        /// b below `count`, rectified when `relu`; the rest of each row stays zero.
        func apply(
            _ frames: UnsafePointer<UnsafePointer<Float>>, into out: UnsafeMutablePointer<Float>, count: Int,
            skip: UnsafePointer<Float>? = nil, relu: Bool
        ) {
            let (inputs, width, span, dilation) = (layer.inputs, layer.width, layer.frames, layer.dilation)
            let rowStride = PitchNet.stride, origin = PitchNet.margin - layer.pad
            var w = UnsafePointer(weights)
            for o in 0..<layer.outputs {
                let start = w
                var band = 0
                while band < count {
                    w = start
                    var a0 = SIMD8<Float>(repeating: bias[o]), a1 = a0, a2 = a0, a3 = a0
                    for i in 0..<inputs {
                        for t in 0..<span {
                            var p = frames[t] + i * rowStride + origin + band
                            for _ in 0..<width {
                                let s = SIMD8<Float>(repeating: w.pointee)
                                w += 1
                                a0 += s * Self.load(p)
                                a1 += s * Self.load(p + 8)
                                a2 += s * Self.load(p + 16)
                                a3 += s * Self.load(p + 24)
                                p += dilation
                            }
                        }
                    }
                    let q = out + o * rowStride + PitchNet.margin + band
                    if let skip {
                        let r = skip + o * rowStride + PitchNet.margin + band
                        a0 += Self.load(r)
                        a1 += Self.load(r + 8)
                        a2 += Self.load(r + 16)
                        a3 += Self.load(r + 24)
                    }
                    if relu {
                        let zero = SIMD8<Float>(repeating: 0)
                        a0.replace(with: zero, where: a0 .< zero)
                        a1.replace(with: zero, where: a1 .< zero)
                        a2.replace(with: zero, where: a2 .< zero)
                        a3.replace(with: zero, where: a3 .< zero)
                    }
                    Self.store(a0, q)
                    Self.store(a1, q + 8)
                    Self.store(a2, q + 16)
                    Self.store(a3, q + 24)
                    band += 32
                }
                // A row cut short of a whole block (95 bins) keeps zeros past its end, as the next layer's padding.
                if band > count { (out + o * rowStride + PitchNet.margin + count).update(repeating: 0, count: band - count) }
            }
        }
    }
}
