import ChoirLibrary
import ChoirSession
import Testing

/// The starting pitch as a front end asks for it: my lines' first notes, heard whatever the mix; and an item of a
/// plan checked before it is kept.
struct StartingPitchTests {
    /// The example's tenor starts on G3 and its bass on G2: sounded in the order of my lines, even with both muted
    /// and another line soloed; without a line of mine it is a one-line error.
    @Test func myLinesFirstNotesAreHeardWhateverTheMix() throws {
        var plan = PlaybackPlan(score: SessionEventTests.example, parts: ["Bass", "tenor"])
        plan.muted = ["Tenor", "Bass"]
        plan.soloed = ["Soprano"]
        plan.countIn = true
        plan.click = true
        plan.startingPitch = true
        let resolved = try plan.resolve()
        #expect(resolved.schedule.notes.map(\.midi) == [43, 55])
        #expect(resolved.schedule.notes.map(\.line) == [3, 2])
        #expect(resolved.schedule.notes.map(\.start) == [0, 1.75] && resolved.schedule.length == 3.25)
        #expect(resolved.mixer.gains[2] > 0 && resolved.mixer.gains[3] > 0)
        plan.parts = []
        #expect(throws: SessionError.self) { try plan.resolve() }
    }

    /// An item is kept with its line as the score names it; a line the score does not have is the run's error.
    @Test func anItemIsCheckedAsItWillRun() throws {
        let item = try RehearsalPlan.Item(piece: SessionEventTests.example, line: "t").checked(score: SessionEventTests.example)
        #expect(item.line == "Tenor")
        #expect(throws: SessionError.self) {
            try RehearsalPlan.Item(piece: SessionEventTests.example, line: "Descant").checked(score: SessionEventTests.example)
        }
    }
}
