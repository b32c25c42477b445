import Testing

@testable import ChoirPitch

/// The learned tracker's path through its salience peaks, on frames made by hand: a brief jump of the strongest
/// peak to another note is not followed, a held change is, a phrase after an unvoiced gap starts on its own
/// strongest peak, and frames come out in order, each ``PitchPath/lag`` frames after it went in.
struct PitchPathTests {
    /// A frame whose peaks are `peaks` (Hz, salience), voiced or not.
    static func frame(_ index: Int, _ peaks: [(Double, Float)]) -> PitchNet.Output {
        var output = PitchNet.Output(index: index, frequency: 0, voicing: 0.9, level: 0.1, peak: 0.3)
        for (frequency, salience) in peaks { output.peaks.insert(PitchNet.Peak(frequency: frequency, salience: salience)) }
        output.frequency = output.peaks[0].frequency
        return output
    }

    @Test func briefJumpsAreNotFollowedAndHeldChangesAre() {
        var frames: [(PitchNet.Output, Bool)] = []
        for i in 0..<30 {
            // A voice at 220 Hz over a note an octave under it, which is the stronger for two frames.
            frames.append((Self.frame(i, [(220, 5), (110, i == 10 || i == 11 ? 6 : 3)]), true))
        }
        for i in 30..<50 { frames.append((Self.frame(i, [(246.9, 5), (110, 3)]), true)) }
        for i in 50..<53 { frames.append((Self.frame(i, [(246.9, 1), (110, 2)]), false)) }
        // After the gap, the strongest peak is a fourth over the last note and a near tie with it.
        for i in 53..<70 { frames.append((Self.frame(i, [(329.6, 5), (246.9, 4.9)]), true)) }
        #expect(frames[10].0.frequency == 110 && frames[11].0.frequency == 110)

        let path = PitchPath()
        var decided: [PitchNet.Output] = []
        for (pushed, (frame, voiced)) in frames.enumerated() {
            let before = decided.count
            path.push(frame, voiced: voiced) { decided.append($0) }
            #expect(decided.count - before == (pushed >= PitchPath.lag ? 1 : 0))
        }
        path.finish { decided.append($0) }
        #expect(decided.map(\.index) == Array(0..<70))
        let expected = (0..<70).map { $0 < 30 ? 220 : $0 < 50 ? 246.9 : $0 < 53 ? 110 : 329.6 }
        #expect(decided.map(\.frequency) == expected)

        // It starts afresh after `finish`.
        decided = []
        for i in 0..<3 { path.push(Self.frame(i, [(110, 5), (220, 4)]), voiced: true) { decided.append($0) } }
        path.finish { decided.append($0) }
        #expect(decided.map(\.index) == [0, 1, 2] && decided.allSatisfy { $0.frequency == 110 })
    }
}
