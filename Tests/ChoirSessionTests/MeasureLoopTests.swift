import ChoirSession
import FoundationEssentials
import Testing

/// A loop of measures chosen by the singer (dragged across the score on the page), on the mix playing silently on
/// true time.
struct MeasureLoopTests {
    /// The example with the tenor as mine, at 200% (a measure of 3/4 at ♩ = 160: 1.125 s), on no device.
    static func session() throws -> PlaybackSession {
        var plan = PlaybackPlan(score: PlaybackPositionTests.example, part: "tenor")
        plan.tempoPercent = 200
        return try PlaybackSession(try plan.resolve(), device: "none", sampleRate: 48000, period: 256)
    }

    /// Measures 3–4 looped from the start: the music goes there at once (from before the pickup), plays them and
    /// comes round to m. 3 again, never reaching m. 5; the transport says "loop mm. 3–4". Ended, the music plays
    /// on past m. 4.
    @Test func aLoopOfMeasuresGoesThereAndComesRound() async throws {
        let session = try Self.session()
        let events = session.events()
        try session.start()
        session.send(.loop(measures: 3...4))
        var snapshot = SessionSnapshot(), measures: [String] = [], ended = false
        for await event in events {
            snapshot.apply(event)
            if case .position(let position) = event, measures.last != position.measure { measures.append(position.measure) }
            // Twice round, then the loop ends.
            if !ended && measures.count(where: { $0 == "3" }) == 3 {
                #expect(snapshot.flags == ["loop mm. 3–4"])
                session.send(.loop(measures: nil))
                ended = true
            }
            if ended && measures.last == "6" { break }
        }
        session.stop()
        #expect(snapshot.loop == nil)
        let looped = Array(measures.drop { $0 != "3" })
        #expect(looped == ["3", "4", "3", "4", "3", "4", "5", "6"], "\(measures)")
        // The music went to the loop at once: nothing before m. 3 was heard.
        #expect(!measures.contains("1") && !measures.contains("2"), "\(measures)")
    }

    /// A loop set inside the measures being played keeps playing where it is; measure indices past the end are the
    /// last measure's.
    @Test func aLoopAroundTheMusicLetsItPlayOn() async throws {
        let session = try Self.session()
        let events = session.events()
        try session.start()
        var measures: [String] = [], asked = false, snapshot = SessionSnapshot()
        for await event in events {
            snapshot.apply(event)
            if case .position(let position) = event, measures.last != position.measure { measures.append(position.measure) }
            if !asked && measures.last == "1" {
                session.send(.loop(measures: 0...1))
                asked = true
            }
            if measures.count(where: { $0 == "0" }) == 2 { break }
        }
        #expect(snapshot.loop?.first == "0" && snapshot.loop?.last == "1")
        session.send(.loop(measures: 15...99))
        session.stop()
        #expect(Array(measures.drop { $0 != "1" }) == ["1", "0"], "\(measures)")
    }
}
