import Testing

@testable import ChoirSession

/// The needle's offset from the note to sing, for sung pitches whose distance from A♭4 (68) is known.
struct TuningOffsetTests {
    @Test(arguments: [
        (68.2, 20.0, 0, 0, true),
        (67.6, -40.0, 0, 0, false),
        (58.12, -988.0, 0, -1, false),
        (71.0, 300.0, 0, 1, false),
        (80.3, 30.0, 1, 0, false),
        (55.9, -10.0, -1, 0, true),
    ])
    func anOctaveAwayIsFoldedAndFurtherOffIsBeyondTheNeedle(sung: Double, cents: Double, octaves: Int, beyond: Int, inTune: Bool) {
        let offset = TuningOffset(sung: sung, target: 68)
        #expect(abs(offset.cents - cents) < 1e-9, "\(offset.cents)")
        #expect(offset.octaves == octaves && offset.beyond == beyond && offset.isInTune(within: 25) == inTune)
        #expect(offset.isInTune(within: 45) == (abs(cents) <= 45))
    }
}
