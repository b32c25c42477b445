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

extension PlaybackPlanTests {
    /// What a plan asks for that cannot be, whatever the score, is refused before the score is read (this one is not
    /// there), in the command line's words; a plan that asks for none of it passes.
    @Test func whatCannotBeIsRefusedBeforeTheScoreIsRead() throws {
        let mine = PlaybackPlan(score: "/nonexistent.musicxml", part: "tenor")
        var refusals: [(PlaybackPlan, String)] = []
        var both = mine
        (both.tempoPercent, both.quarterNotesPerMinute) = (80, 100)
        refusals.append((both, "--tempo and --bpm conflict: --tempo scales the score's tempo, --bpm replaces it; give one"))
        var loud = mine
        loud.myVolume = 150
        refusals.append((loud, "--my-volume 150.0: expected 0 to 100"))
        var quiet = mine
        quiet.othersVolume = -1
        refusals.append((quiet, "--others-volume -1.0: expected 0 to 100"))
        var muted = PlaybackPlan(score: "/nonexistent.musicxml")
        muted.muteMine = true
        refusals.append((muted, "--my-volume, --others-volume and --mute-my-part need --part"))
        var clarinet = PlaybackPlan(score: "/nonexistent.musicxml")
        clarinet.myInstrument = "clarinet"
        refusals.append((clarinet, "--my-instrument needs --part"))
        for (plan, message) in refusals {
            #expect(throws: SessionError(.usage, message)) { try plan.check() }
        }
        var fine = mine
        (fine.tempoPercent, fine.myVolume, fine.othersVolume, fine.muteMine, fine.myInstrument) = (80, 0, 100, true, "piano")
        try fine.check()
    }
}
