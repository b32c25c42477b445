import ChoirPractice
import Testing

@testable import ChoirSession

/// A run's state, looked at again and again, becomes each event once: the changes only, in the order a front end
/// needs them, the verdicts numbered by the pass they were sung in.
struct SessionPublisherTests {
    static let example = "Resources/ExamplePieces/amazing_grace.musicxml"

    /// The tenor line of the example, looped `passes` times, and a publisher into a broadcaster with a subscriber.
    static func publisher(passes: Int = 1) throws -> (
        SessionPublisher, EventBroadcaster<SessionEvent, SessionSnapshot>, ResolvedPlayback, AsyncStream<SessionEvent>
    ) {
        var plan = PlaybackPlan(score: example, part: "tenor")
        plan.passes = passes
        let resolved = try plan.resolve()
        let notes = ExpectedNote.notes(of: resolved.singers, in: resolved.schedule, score: resolved.score)
        let broadcaster = EventBroadcaster<SessionEvent, SessionSnapshot>(SessionSnapshot())
        let events = broadcaster.subscribe()
        return (SessionPublisher(broadcaster, resolved: resolved, notes: notes), broadcaster, resolved, events)
    }

    /// The events after the first (`began`), each in a word or two.
    static func labels(_ events: AsyncStream<SessionEvent>) async -> [String] {
        var labels: [String] = []
        for await event in events {
            switch event {
            case .began, .ended: continue
            case .position(let position): labels.append("position m. \(position.measure)")
            case .pitch(let pitch):
                labels.append("pitch \(pitch.sung.map { "\($0)" } ?? "-") \(pitch.heard.map { "\($0)" } ?? "-") \(pitch.trace.map(\.time))")
            case .judged(let result): labels.append("judged \(result.note.index) pass \(result.pass)")
            case .transport(let state): labels.append("transport paused \(state.paused)")
            case .pass(let pass): labels.append("pass \(pass)")
            case .audio(let audio): labels.append("audio \(audio.underruns) underruns")
            }
        }
        return labels
    }

    static func result(_ note: ExpectedNote) -> NoteResult {
        NoteResult(note: note, verdict: .correct, medianCents: 0, onsetError: nil, inTunePercent: 100)
    }

    /// The same state twice publishes nothing the second time; a pitch event carries only the trace points added
    /// since the last; a transport change comes before the position it leads to, then the pass, pitch, verdicts and
    /// the devices' health.
    @Test func onlyWhatChangedIsPublishedInOrder() async throws {
        var (publisher, broadcaster, resolved, events) = try Self.publisher()
        let notes = ExpectedNote.notes(of: resolved.singers, in: resolved.schedule, score: resolved.score)
        let measures = resolved.schedule.measures.map { (start: $0.start, number: resolved.score.measures[$0.index].number) }
        let (first, second) = (measures[1], measures[2])
        let trace = [TracePoint(time: 1, midi: 60), TracePoint(time: 2, midi: 61), TracePoint(time: 3, midi: 62)]
        let paused = SessionEvent.TransportState(paused: true, tempo: 90, tempoPercent: 100, loop: nil, mineMuted: false)
        let audio = AudioHealth(underruns: 2, overruns: 0, droppedSamples: 0)

        publisher.publish(at: first.start + 0.01, pass: 1, results: [], trace: [])
        // Looked at again with nothing new: nothing.
        publisher.publish(at: first.start + 0.01, pass: 1, results: [], trace: [])
        publisher.publish(
            at: first.start + 0.01, pass: 1, results: [Self.result(notes[0])], trace: Array(trace[..<2]), sung: 60.5, heard: 7)
        publisher.publish(
            at: second.start + 0.01, transport: paused, pass: 2, results: [Self.result(notes[0]), Self.result(notes[1])], trace: trace,
            audio: audio)
        publisher.publish(
            at: second.start + 0.01, transport: paused, pass: 2, results: [Self.result(notes[0]), Self.result(notes[1])], trace: trace,
            audio: audio)
        #expect(publisher.published == 2)
        broadcaster.finish(with: .ended(nil))

        #expect(
            await Self.labels(events) == [
                "position m. \(first.number)",
                "pitch 60.5 7 [1.0, 2.0]", "judged 0 pass 1",
                "transport paused true", "position m. \(second.number)", "pass 2", "pitch - - [3.0]", "judged 1 pass 1",
                "audio 2 underruns",
            ])
    }

    /// With `--loop 2`, a note sung on the second time through the range is in pass 2, though the judge, which
    /// knows only its own passes, says 1.
    @Test func aVerdictIsNumberedByTheTimeThroughTheRange() async throws {
        var (publisher, broadcaster, resolved, events) = try Self.publisher(passes: 2)
        let notes = ExpectedNote.notes(of: resolved.singers, in: resolved.schedule, score: resolved.score)
        let perPass = notes.count / 2
        let time = notes[perPass].onset
        publisher.publish(at: time, pass: 2, results: [Self.result(notes[0]), Self.result(notes[perPass])], trace: [])
        broadcaster.finish(with: .ended(nil))
        #expect(resolved.schedule.passes == 2 && notes[perPass].onset >= resolved.schedule.passLength)
        #expect(
            await Self.labels(events) == [
                "position m. \(resolved.position(at: time).measure)", "pass 2", "judged 0 pass 1", "judged \(perPass) pass 2",
            ])
    }
}
