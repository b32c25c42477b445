import Glibc

/// The second half of the pitch tracker: a hidden Markov model over the periods ``YINDetector`` suggests,
/// decoded by Viterbi with a fixed lag.
///
/// The states of a frame are "unvoiced" and each of its candidate periods (so the model is sparse: a pitch
/// that no dip suggests cannot be sung there). A candidate is observed with its probability; "unvoiced" with
/// the rest. From one frame to the next the voice stays voiced or unvoiced with probability 1 − s, and a
/// voiced pitch moves by Δ cents with a weight of exp(−|Δ| / σ): a path through a wrong octave pays 1200 / σ
/// on the way in and again on the way out, which a few stray frames cannot earn back. s and σ are given per
/// second, so the model means the same at every hop.
///
/// Each frame is decided `lag` frames after it was observed, from the best path to the newest frame: the
/// frames after it can still overturn a doubtful choice. Building a decoder allocates its history; `decode`
/// allocates nothing and takes no lock.
public final class PitchDecoder: @unchecked Sendable {
    /// Frames between observing a frame and deciding it.
    public let lag: Int
    private let switchCost: Double
    private let stayCost: Double
    /// σ: the cents a voiced pitch moves between frames for each unit of log-probability.
    private let centsPerUnit: Double

    private struct Slot {
        var observation: PitchObservation
        var cents = InlineArray<8, Double>(repeating: 0)
        /// Log-probability of the best path ending unvoiced, and ending at each candidate.
        var unvoiced = 0.0
        var voiced = InlineArray<8, Double>(repeating: 0)
        /// The state of the frame before on each best path: −1 for unvoiced, else a candidate.
        var unvoicedFrom: Int = -1
        var voicedFrom = InlineArray<8, Int>(repeating: -1)
    }

    private let slots: UnsafeMutablePointer<Slot>
    private let capacity: Int
    /// The states of the frames still held back, on the best path: where `finish` traces it.
    private let path: UnsafeMutablePointer<Int>
    /// Frames observed, and frames decided.
    private var observed = 0
    private var decided = 0

    /// A decoder for frames `hop` seconds apart that decides each one `lag` frames later. A voice changes
    /// from sung to unsung or back about `switchesPerSecond` times a second, and glides at about
    /// `centsPerSecond`.
    public init(hop: Double, lag: Int, switchesPerSecond: Double = 1.75, centsPerSecond: Double = 5000) {
        precondition(hop > 0 && lag >= 0)
        self.lag = lag
        let s = min(0.5, switchesPerSecond * hop)
        switchCost = log(s)
        stayCost = log(1 - s)
        centsPerUnit = max(1, centsPerSecond * hop)
        capacity = lag + 1
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: Slot(observation: PitchObservation(time: 0, level: 0)), count: capacity)
        path = .allocate(capacity: capacity)
        path.initialize(repeating: -1, count: capacity)
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
        path.deallocate()
    }

    /// Starts afresh, as for a new signal.
    public func reset() {
        observed = 0
        decided = 0
    }

    /// Takes the next frame's observation; returns the frame `lag` frames before it, now decided, if there
    /// is one.
    public func decode(_ observation: PitchObservation) -> PitchFrame? {
        let slot = slots + observed % capacity
        slot.pointee.observation = observation
        let count = observation.candidates.count
        for k in 0..<count { slot.pointee.cents[k] = PitchMath.cents(observation.candidates[k].frequency, from: PitchMath.a4) }
        let unvoicedEvidence = log(max(1e-9, 1 - observation.candidates.voicedProbability))
        if observed == 0 {
            slot.pointee.unvoiced = unvoicedEvidence
            slot.pointee.unvoicedFrom = -1
            for k in 0..<count {
                slot.pointee.voiced[k] = log(max(1e-12, observation.candidates[k].probability))
                slot.pointee.voicedFrom[k] = -1
            }
        } else {
            let previous = slots + (observed - 1) % capacity
            let before = previous.pointee.observation.candidates.count
            var bestVoiced = -1
            for j in 0..<before where bestVoiced < 0 || previous.pointee.voiced[j] > previous.pointee.voiced[bestVoiced] {
                bestVoiced = j
            }
            let stayedUnvoiced = previous.pointee.unvoiced + stayCost
            if bestVoiced >= 0, previous.pointee.voiced[bestVoiced] + switchCost > stayedUnvoiced {
                slot.pointee.unvoiced = previous.pointee.voiced[bestVoiced] + switchCost + unvoicedEvidence
                slot.pointee.unvoicedFrom = bestVoiced
            } else {
                slot.pointee.unvoiced = stayedUnvoiced + unvoicedEvidence
                slot.pointee.unvoicedFrom = -1
            }
            for k in 0..<count {
                var best = previous.pointee.unvoiced + switchCost
                var from = -1
                let cents = slot.pointee.cents[k]
                for j in 0..<before {
                    let score = previous.pointee.voiced[j] + stayCost - abs(previous.pointee.cents[j] - cents) / centsPerUnit
                    if score > best {
                        best = score
                        from = j
                    }
                }
                slot.pointee.voiced[k] = best + log(max(1e-12, observation.candidates[k].probability))
                slot.pointee.voicedFrom[k] = from
            }
        }
        // Keep the numbers near 0: only differences between paths matter.
        var top = slot.pointee.unvoiced
        for k in 0..<count { top = max(top, slot.pointee.voiced[k]) }
        slot.pointee.unvoiced -= top
        for k in 0..<count { slot.pointee.voiced[k] -= top }
        observed += 1
        guard observed - decided > lag else { return nil }
        var state = bestState(of: slot)
        var index = observed - 1
        while index > decided {
            state = predecessor(of: state, at: index)
            index -= 1
        }
        decided += 1
        return frame(at: index, state: state)
    }

    /// Decides every frame still held back, at the end of the signal, in order.
    public func finish(_ body: (PitchFrame) -> Void) {
        guard observed > decided else { return }
        var state = bestState(of: slots + (observed - 1) % capacity)
        var index = observed - 1
        while true {
            path[index - decided] = state
            if index == decided { break }
            state = predecessor(of: state, at: index)
            index -= 1
        }
        for index in decided..<observed { body(frame(at: index, state: path[index - decided])) }
        decided = observed
    }

    private func bestState(of slot: UnsafeMutablePointer<Slot>) -> Int {
        var state = -1
        var best = slot.pointee.unvoiced
        for k in 0..<slot.pointee.observation.candidates.count where slot.pointee.voiced[k] > best {
            best = slot.pointee.voiced[k]
            state = k
        }
        return state
    }

    private func predecessor(of state: Int, at index: Int) -> Int {
        let slot = slots + index % capacity
        return state < 0 ? slot.pointee.unvoicedFrom : slot.pointee.voicedFrom[state]
    }

    private func frame(at index: Int, state: Int) -> PitchFrame {
        let observation = slots[index % capacity].observation
        var frame = PitchFrame(
            time: observation.time, frequency: 0, confidence: max(0, 1 - observation.aperiodicity),
            level: observation.level, accompaniment: observation.accompaniment)
        frame.candidates = observation.candidates
        if state >= 0 {
            let chosen = observation.candidates[state]
            frame.frequency = chosen.frequency
            frame.confidence = max(0, 1 - chosen.aperiodicity)
        }
        return frame
    }
}
