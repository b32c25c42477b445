import ChoirSession
import Testing

/// What a front end hands the engine as text, read as the engine reads it.
struct PlaybackPlanTests {
    /// A line's setting is split at its last separator, so that a line's name may hold one; one without a separator is
    /// a slip of the command line (or of the page's query), said with the setting's name.
    @Test func aLinesSettingIsSplitAtItsLastSeparator() throws {
        #expect(try PlaybackPlan.assignment("Tenor=clarinet", option: "--instrument") == ("Tenor", "clarinet"))
        #expect(try PlaybackPlan.assignment("T=1=40", option: "--volume") == ("T=1", "40"))
        #expect(try PlaybackPlan.assignment("Alto:30", option: "volume", separator: ":") == ("Alto", "30"))
        #expect(try PlaybackPlan.assignment("Alto=", option: "--volume") == ("Alto", ""))
        let slip = #expect(throws: SessionError.self) { try PlaybackPlan.assignment("kazoo", option: "--instrument") }
        #expect(slip == SessionError(.usage, "--instrument kazoo: expected LINE=VALUE"))
        let page = #expect(throws: SessionError.self) { try PlaybackPlan.assignment("Alto=30", option: "volume", separator: ":") }
        #expect(page?.description == "volume Alto=30: expected LINE:VALUE")
    }
}
