import ChoirBase

/// YIN guided by the learned tracker: what `auto` uses where other sound is expected. The network hears which pitch
/// is the voice's through an accompaniment but reads it coarsely (a frame every 16 ms, a few cents off); YIN reads
/// a period to the cent every few milliseconds, but where a piano or the loudspeakers repeat too, the period it
/// chooses may be theirs. So each YIN frame keeps, of the periods YIN weighed for its window, the one within
/// 30 cents of the network's pitch there; where none is, the network's own pitch stands if the network is sure
/// the frame is voiced; where the network hears no voice (voicing under 0.25), the frame is unvoiced, unless it
/// carries on the note the frame before sang (within a semitone), which needs only a voicing of 0.05: the network
/// is least sure inside a held note where the accompaniment swells, not where a voice starts.
///
/// Frames come at YIN's rate, each once the network has decided the frames around it: ``delay`` is the network's.
/// Building one allocates both trackers and a queue; `analyse` allocates nothing.
final class CombinedTracker: PitchTracker, @unchecked Sendable {
    public let configuration: PitchTrackerConfiguration
    private let yin: YINTracker
    private let net: NetTracker
    /// YIN's frames waiting for the network, oldest first, in a ring.
    private let waiting: UnsafeMutablePointer<PitchFrame>
    private let capacity = 256
    private var first = 0, count = 0
    /// The network's two newest frames.
    private var guides: (PitchFrame?, PitchFrame?) = (nil, nil)
    /// The pitch of the last frame handed over (0 if unvoiced).
    private var last = 0.0

    /// Within this of the network's pitch, a period YIN weighed is the voice's.
    static let reach = 30.0
    /// Below this voicing the network hears no voice…
    static let silent = 0.25
    /// …except on the note the frame before sang, where it hears none below this.
    static let held = 0.05

    public init(_ configuration: PitchTrackerConfiguration) throws(PitchTrackerError) {
        self.configuration = configuration
        yin = try YINTracker(configuration)
        net = try NetTracker(configuration)
        waiting = .allocate(capacity: capacity)
        waiting.initialize(repeating: PitchFrame(time: 0, frequency: 0, confidence: 0), count: capacity)
    }

    deinit {
        waiting.deinitialize(count: capacity)
        waiting.deallocate()
    }

    public var delay: Double { max(yin.delay, net.delay) }

    public func analyse(_ samples: UnsafeBufferPointer<Float>, time: Double, accompaniment: Double) -> PitchFrame? {
        if let frame = yin.analyse(samples, time: time, accompaniment: accompaniment), count < capacity {
            waiting[(first + count) % capacity] = frame
            count += 1
        }
        if let guide = net.analyse(samples, time: time, accompaniment: accompaniment) { guides = (guides.1, guide) }
        // The oldest YIN frame, once the network has a frame at or after it.
        guard count > 0, let newest = guides.1, newest.time >= waiting[first].time else { return nil }
        return next()
    }

    public func finish(_ body: (PitchFrame) -> Void) {
        yin.finish { frame in
            if count < capacity {
                waiting[(first + count) % capacity] = frame
                count += 1
            }
        }
        net.finish { guide in
            guides = (guides.1, guide)
            while count > 0 && guide.time >= waiting[first].time { body(next()) }
        }
        while count > 0 { body(next()) }
        guides = (nil, nil)
        last = 0
    }

    private func next() -> PitchFrame {
        let frame = waiting[first]
        first = (first + 1) % capacity
        count -= 1
        let guided = Self.guided(frame, between: guides.0, and: guides.1, after: last)
        last = guided.frequency
        return guided
    }

    /// `frame` guided by the network's frames `before` and `after` it (either may be missing), the frame before it
    /// having been decided at `previous` Hz (0 if unvoiced).
    static func guided(_ frame: PitchFrame, between before: PitchFrame?, and after: PitchFrame?, after previous: Double) -> PitchFrame {
        guard let guide = guide(at: frame.time, before, after) else { return frame }
        var out = frame
        out.frequency = 0
        let holding = previous > 0 && abs(PitchMath.cents(guide.frequency, from: previous)) < 100
        guard guide.voicing >= (holding ? held : silent) else { return out }
        var best: PitchCandidate?
        var nearest = reach
        for i in 0..<frame.candidates.count {
            let distance = abs(PitchMath.cents(frame.candidates[i].frequency, from: guide.frequency))
            if distance <= nearest {
                nearest = distance
                best = frame.candidates[i]
            }
        }
        if let best {
            out.frequency = best.frequency
            out.confidence = max(1 - best.aperiodicity, guide.voicing)
        } else if guide.voicing >= 0.5 {
            out.frequency = guide.frequency
            out.confidence = guide.voicing
        }
        return out
    }

    /// The network's pitch and voicing at `time`, from its frames either side: the voicing interpolated, the pitch
    /// the nearer frame's where they lie more than a semitone apart, else interpolated (in cents).
    private static func guide(at time: Double, _ before: PitchFrame?, _ after: PitchFrame?) -> (frequency: Double, voicing: Double)? {
        guard let a = before ?? after else { return nil }
        let b = after ?? a
        // The network's pitch whether or not it calls the frame voiced: its voicing says how far to trust it.
        let (fa, fb) = (a.candidates.count > 0 ? a.candidates[0].frequency : 0, b.candidates.count > 0 ? b.candidates[0].frequency : 0)
        let x = b.time > a.time ? max(0, min(1, (time - a.time) / (b.time - a.time))) : 0
        let voicing = a.confidence + (b.confidence - a.confidence) * x
        guard fa > 0 || fb > 0 else { return nil }
        if fa <= 0 || fb <= 0 || abs(PitchMath.cents(fb, from: fa)) > 100 {
            let nearer = x < 0.5 ? (fa > 0 ? fa : fb) : (fb > 0 ? fb : fa)
            return (nearer, voicing)
        }
        return (fa * PitchMath.ratio(cents: PitchMath.cents(fb, from: fa) * x), voicing)
    }

    /// Tracks a whole signal at YIN's rate: YIN and the network on the whole signal side by side, then each YIN
    /// frame guided by the network's frames around it.
    public static func track(signal: [Float], configuration: PitchTrackerConfiguration, threads: Int = 2)
        throws(PitchTrackerError) -> [PitchFrame]
    {
        var tracks = [Result<[PitchFrame], PitchTrackerError>](repeating: .success([]), count: 2)
        let each = max(1, threads / 2)
        tracks.withUnsafeMutableBufferPointer { tracks in
            Parallel.slices(of: 2, workers: 2) { which, _ in
                tracks[which] = Result { () throws(PitchTrackerError) -> [PitchFrame] in
                    which == 0
                        ? try YINTracker.track(signal: signal, configuration: configuration, threads: each)
                        : try NetTracker.track(signal: signal, configuration: configuration, threads: each)
                }
            }
        }
        let (frames, guides) = (try tracks[0].get(), try tracks[1].get())
        var next = 0
        var last = 0.0
        return frames.map { frame in
            while next < guides.count && guides[next].time < frame.time { next += 1 }
            let guided = guided(
                frame, between: next > 0 ? guides[next - 1] : nil, and: next < guides.count ? guides[next] : nil, after: last)
            last = guided.frequency
            return guided
        }
    }
}
