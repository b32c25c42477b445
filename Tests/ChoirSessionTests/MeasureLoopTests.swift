import ChoirSession
import FoundationEssentials
import Testing

/// A loop of measures chosen by the singer (dragged across the score on the page), on the mix playing silently on
/// true time. The sessions start paused and the loop is set before they play, so that what is heard does not depend
/// on how soon the test reads the events (under a loaded machine, seconds late).
struct MeasureLoopTests {
    /// The example with the tenor as mine, at 200% (a measure of 3/4 at ♩ = 160: 1.125 s), on no device, paused.
    static func session() throws -> PlaybackSession {
        var plan = PlaybackPlan(score: PlaybackPositionTests.example, part: "tenor")
        plan.tempoPercent = 200
        return try PlaybackSession(try plan.resolve(), device: "none", sampleRate: 48000, period: 256, startsPaused: true)
    }

    /// Whether `measures` is `round` played over and over, at least `times` times in all, then `after`. The round
    /// may be joined at any of its measures: a subscriber that falls behind loses the oldest events
    /// (``EventBroadcaster``), and in ci46, with the other suites loading both cores, the test first heard of the
    /// loop at m. 4.
    static func comesRound(_ measures: [String], _ round: [String], times: Int, then after: [String]) -> Bool {
        let body = measures.dropLast(after.count)
        guard Array(measures.suffix(after.count)) == after, let first = body.first, let joined = round.firstIndex(of: first) else {
            return false
        }
        return body.count >= round.count * times && body.last == round.last
            && body.enumerated().allSatisfy { $0.element == round[($0.offset + joined) % round.count] }
    }

    /// Measures 3–4 looped from the start: the music goes there at once (before the pickup is heard), plays them and
    /// comes round to m. 3 again, never reaching m. 5; the transport says "loop mm. 3–4". Ended, the music plays on
    /// past m. 4.
    @Test func aLoopOfMeasuresGoesThereAndComesRound() async throws {
        let session = try Self.session()
        let events = session.events()
        try session.start()
        session.send(.loop(measures: 3...4))
        session.send(.togglePause)
        var snapshot = SessionSnapshot(), measures: [String] = [], ended = false
        for await event in events {
            snapshot.apply(event)
            if case .position(let position) = event, position.measure != "-", measures.last != position.measure {
                measures.append(position.measure)
            }
            // Twice round (at least: the events may be read late), then the loop ends.
            if !ended && measures.count(where: { $0 == "3" }) >= 3 {
                #expect(snapshot.flags == ["loop mm. 3–4"])
                session.send(.loop(measures: nil))
                ended = true
            }
            if ended && measures.last == "6" { break }
        }
        session.stop()
        #expect(snapshot.loop == nil)
        // Paused at its start, the music may show its first measure before the loop's is heard; nothing else.
        let looped = Array(measures.drop { $0 == "0" })
        #expect(Self.comesRound(looped, ["3", "4"], times: 2, then: ["5", "6"]), "\(measures)")
    }

    /// A loop set around the measure the music is in keeps it there, from where it is; measure indices past the end
    /// are the last measure's.
    @Test func aLoopAroundTheMusicLetsItPlayOn() async throws {
        let session = try Self.session()
        let events = session.events()
        try session.start()
        session.send(.seek(measure: 1))
        var measures: [String] = [], asked = false, snapshot = SessionSnapshot()
        for await event in events {
            snapshot.apply(event)
            if case .position(let position) = event, position.measure != "-", measures.last != position.measure {
                measures.append(position.measure)
            }
            // Paused at m. 1: the loop of mm. 0–1, then play.
            if !asked && measures.last == "1" {
                session.send(.loop(measures: 0...1))
                session.send(.togglePause)
                asked = true
                measures = ["1"]
            }
            if asked && measures.count(where: { $0 == "0" }) == 2 { break }
        }
        #expect(snapshot.loop?.first == "0" && snapshot.loop?.last == "1")
        session.send(.loop(measures: 15...99))
        session.stop()
        #expect(measures == ["1", "0", "1", "0"], "\(measures)")
    }
}
