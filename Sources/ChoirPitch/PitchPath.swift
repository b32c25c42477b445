import ChoirBase

/// Chooses each of the learned tracker's voiced frames' pitch among its strongest salience peaks (``PitchNet/Peaks``)
/// by the cheapest path through them, decided ``lag`` frames late.
///
/// Under an accompaniment the network's strongest peak now and then jumps for a frame or two to a note of the
/// accompaniment (an octave or so under the voice, mostly) while the voice's peak is still there, a little weaker.
/// A path pays `salienceCost` for each unit of salience its peak lies under the frame's strongest, and
/// `semitoneCost` for each semitone it moves between two voiced frames (at most two octaves' worth): a brief jump
/// away and back costs more than staying on the slightly weaker peak, while a new note the voice holds is followed
/// within the lag. Frames the network calls unvoiced cost no move, so a phrase starts wherever it starts. The
/// network's voicing is kept as it is.
///
/// The costs and the lag were chosen on the tuning half of the accompanied voices (`Benchmarks/compare-accompanied.py
/// --set=tuning`), where the network's raw pitch accuracy goes from 0.919 to 0.928 with the accompaniment 12 dB
/// under the voice, 0.842 → 0.861 at 6 dB and 0.632 → 0.653 at 0 dB, a voice alone unchanged (docs/pitch.md has
/// the checking half). Building one allocates its history; `push` allocates nothing.
final class PitchPath {
    /// Frames between a frame's output and its decision (64 ms): 8 or 16 frames gain little more.
    static let lag = 4
    static let salienceCost = 0.2
    static let semitoneCost = 0.2

    private struct Slot {
        var output: PitchNet.Output
        var voiced: Bool
        /// The cheapest path to each peak, and the peak of the frame before on it.
        var cost = InlineArray<3, Double>(repeating: 0)
        var from = InlineArray<3, Int>(repeating: 0)
    }

    private let slots: UnsafeMutablePointer<Slot>
    private let capacity = PitchPath.lag + 1
    private var observed = 0, decided = 0

    init() {
        slots = .allocate(capacity: capacity)
        slots.initialize(
            repeating: Slot(output: PitchNet.Output(index: 0, frequency: 0, voicing: 0, level: 0, peak: 0), voiced: false),
            count: capacity)
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// Takes the next frame, `voiced` as the tracker will call it, and hands over the one `lag` frames before it,
    /// its pitch now chosen.
    func push(_ output: PitchNet.Output, voiced: Bool, _ body: (PitchNet.Output) -> Void) {
        let slot = slots + observed % capacity
        slot.pointee.output = output
        slot.pointee.voiced = voiced
        let peaks = output.peaks
        let previous = observed > 0 ? slots + (observed - 1) % capacity : nil
        var cheapest = Double.infinity
        for k in 0..<peaks.count {
            var best = 0.0, from = 0
            if let previous, previous.pointee.output.peaks.count > 0 {
                let moving = previous.pointee.voiced && voiced
                best = .infinity
                for j in 0..<previous.pointee.output.peaks.count {
                    var cost = previous.pointee.cost[j]
                    if moving {
                        let semitones = abs(PitchMath.cents(peaks[k].frequency, from: previous.pointee.output.peaks[j].frequency)) / 100
                        cost += Self.semitoneCost * min(semitones, 24)
                    }
                    if cost < best {
                        best = cost
                        from = j
                    }
                }
            }
            slot.pointee.cost[k] = best + Self.salienceCost * Double(peaks[0].salience - peaks[k].salience)
            slot.pointee.from[k] = from
            cheapest = min(cheapest, slot.pointee.cost[k])
        }
        // Keep the numbers small: only differences between paths matter.
        for k in 0..<peaks.count { slot.pointee.cost[k] -= cheapest }
        observed += 1
        guard observed - decided > Self.lag else { return }
        body(decision(tracedFrom: observed - 1))
    }

    /// Hands over every frame still held back, at the end of the signal, in order; then starts afresh.
    func finish(_ body: (PitchNet.Output) -> Void) {
        while decided < observed { body(decision(tracedFrom: observed - 1)) }
        observed = 0
        decided = 0
    }

    /// Frame `decided`, with the pitch of its peak on the cheapest path to frame `newest`.
    private func decision(tracedFrom newest: Int) -> PitchNet.Output {
        var state = cheapestPeak(at: newest)
        var index = newest
        while index > decided {
            let slot = slots + index % capacity
            if slot.pointee.output.peaks.count > 0 { state = slot.pointee.from[state] }
            index -= 1
            // A frame without peaks cuts the path: the frames before it are traced from their own cheapest.
            if slot.pointee.output.peaks.count == 0 { state = cheapestPeak(at: index) }
        }
        var output = slots[decided % capacity].output
        if output.peaks.count > 0 { output.frequency = output.peaks[state].frequency }
        decided += 1
        return output
    }

    private func cheapestPeak(at index: Int) -> Int {
        let slot = slots + index % capacity
        var best = 0
        for k in 0..<slot.pointee.output.peaks.count where slot.pointee.cost[k] < slot.pointee.cost[best] { best = k }
        return best
    }
}
