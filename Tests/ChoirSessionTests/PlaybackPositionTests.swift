import ChoirSession
import Testing

/// The measure and beat a front end shows for a moment of the mix.
struct PlaybackPositionTests {
    static let example = "Resources/ExamplePieces/amazing_grace.musicxml"

    /// Amazing Grace at ♩ = 80 in 3/4: its one-beat pickup is beat 3 of measure 0, and measure 1 counts from 1.
    @Test func aPickupIsTheEndOfItsMeasure() throws {
        let resolved = try PlaybackPlan(score: Self.example).resolve()
        let beat = 0.75
        let shown = [0, 0.5, 1, 2, 3, 4.1].map { resolved.position(at: $0 * beat) }
        #expect(shown.map(\.measure) == ["0", "0", "1", "1", "1", "2"])
        #expect(shown.map(\.beat) == [3, 3, 1, 2, 3, 1])
    }

    /// With a count-in, the bar before the first beat is the count-in.
    @Test func theCountInComesBeforeTheFirstBeat() throws {
        var plan = PlaybackPlan(score: Self.example)
        plan.countIn = true
        let resolved = try plan.resolve()
        #expect(resolved.position(at: -0.1).measure == "count-in")
        #expect(resolved.position(at: 0).measure == "0")
    }

    /// With `--loop 3` each time round is a pass of its own, and shows the measures of the range again: the range is
    /// 36 s (the pickup's beat, fifteen bars of three and the last of two), so 40 s is m. 2 of the second pass.
    @Test func eachTimeRoundALoopIsAPass() throws {
        var plan = PlaybackPlan(score: Self.example)
        plan.passes = 3
        let resolved = try plan.resolve()
        #expect(resolved.schedule.passLength == 36 && resolved.schedule.length == 108)
        #expect([0, 35.9, 36, 40, 72.5, 200].map { resolved.pass(at: $0) } == [1, 1, 2, 2, 3, 3])
        #expect([0, 36, 40, 72 + 4].map { resolved.position(at: $0).measure } == ["0", "0", "2", "2"])
        #expect(resolved.position(at: 40).beat == resolved.position(at: 4).beat)
    }
}
