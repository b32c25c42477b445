import ChoirBase
import ChoirPitch
import Glibc

/// Where a recorded take's singing lies against the score: a take may begin with silence, a breath or a count-in
/// of its own, or be cut a little short at its start, so that its time 0 is not the first beat.
///
/// The shift is searched from −3 to 3 s in 10 ms steps, scoring each by how well the first phrases fit: every frame
/// the singer sang inside a note's body at the note's pitch counts 1 (0.5 an octave away, which a singer taking a
/// line in another octave does), and every frame sung in the phrases' rests counts −0.5. The best scores form a
/// plateau (a long note fits over a stretch of shifts), whose middle is taken.
public enum TakeAlignment {
    /// How far the search reaches either way, in seconds.
    public static let reach = 3.0
    /// The smallest shift the fit of whole notes tells from none, and that a take is said to start off the beat by.
    public static let smallest = 0.05

    /// The shift, in seconds, by which `frames` (on the take's clock, time 0 being the notes' `start`) fit `notes`
    /// best, later being positive; 0 when no shift fits clearly better than none. `isSung` tells the singer's
    /// frames from the rest.
    public static func offset(
        frames: [PitchFrame], notes: [ExpectedNote], start: Double, isSung: (PitchFrame) -> Bool
    ) -> Double {
        guard let first = notes.first else { return 0 }
        // The first phrases: twelve seconds of notes, and at least eight of them.
        let fitted = notes.enumerated().prefix { $0.offset < 8 || $0.element.onset < first.onset + 12 }.map(\.element)
        let times = frames.map(\.time)
        let sung = frames.map { frame -> Double? in isSung(frame) ? PitchMath.midi(hertz: frame.frequency) : nil }
        func span(from lower: Double, to upper: Double) -> Range<Int> {
            func index(_ time: Double) -> Int {
                var low = 0, high = times.count
                while low < high {
                    let middle = (low + high) / 2
                    if times[middle] < time { low = middle + 1 } else { high = middle }
                }
                return low
            }
            let a = index(lower), b = index(upper)
            return a..<max(a, b)
        }
        // The score of a shift, and the most it could be (every frame of the notes' bodies sung on their pitch).
        func fit(_ shift: Double) -> (score: Double, most: Double) {
            var total = 0.0, most = 0.0
            var previousEnd: Double?
            for note in fitted {
                let onset = note.onset + start + shift, end = note.end + start + shift
                if let previousEnd, onset - previousEnd > 0.1 {
                    for i in span(from: previousEnd + 0.05, to: onset - 0.05) where sung[i] != nil { total -= 0.5 }
                }
                let edge = min(0.05, note.duration / 4)
                for i in span(from: onset + edge, to: end - edge) {
                    most += 1
                    guard let midi = sung[i] else { continue }
                    let distance = abs(midi - Double(note.midi))
                    if distance <= 0.6 {
                        total += 1
                    } else if abs(distance - 12) <= 0.6 {
                        total += 0.5
                    }
                }
                previousEnd = end
            }
            return (total, most)
        }
        let shifts = stride(from: -reach, through: reach + 1e-9, by: 0.01).map { $0 }
        let scores = shifts.map { fit($0).score }
        guard let best = scores.indices.max(by: { scores[$0] < scores[$1] }), scores[best] > 0 else { return 0 }
        // The middle of the plateau around the best shift.
        let level = scores[best] - 0.02 * abs(scores[best])
        var low = best, high = best
        while low > 0 && scores[low - 1] >= level { low -= 1 }
        while high < scores.count - 1 && scores[high + 1] >= level { high += 1 }
        let shift = (shifts[low] + shifts[high]) / 2
        // A shift that fits no better than none (within 5%, or three frames) is no evidence of one, nor is one that
        // fits less than a third of the notes' frames: the take is of another line, or of nothing the score says.
        let none = fit(0).score
        guard abs(shift) >= smallest, scores[best] - none >= max(3, 0.05 * scores[best]), scores[best] >= fit(shift).most / 3 else {
            return 0
        }
        return shift
    }
}
