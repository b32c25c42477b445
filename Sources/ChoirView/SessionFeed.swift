import ChoirBase
import ChoirPractice
import ChoirScore
import ChoirServer
import ChoirSession
import Foundation

/// A session on the page, a practice session or the mix alone: the music it draws (``setup``), then every change
/// the session's events bring sent to the tabs, at most 60 times a second for the position alone, each tab's
/// commands passed to the session, and a practice session's report, which its last event carries. It measures how
/// long after the microphone heard a sample the tabs painted it, by the moment each tab says it painted.
public final class SessionFeed: @unchecked Sendable {
    public let session: any SteeredSession
    public let score: ViewScore
    /// The page's music and the session's fixed facts, as served at `score.json`.
    public let setup: String
    /// The score engraved to each tab's size, as `engraving.json` answers.
    public let engravings: PageEngravings
    public private(set) var hub: ViewHub!
    private let events: AsyncStream<SessionEvent>
    private let sent = Locked(Sent())
    private let following = Locked<Task<Void, Never>?>(nil)
    /// When each recent message's newest sample was heard, by its number.
    private let heardBySequence = Locked<[Int: Int]>([:])
    private let lags = Locked(DelayTally())

    /// What the tabs have been sent, and what the session's events add up to.
    private struct Sent {
        var sequence = 0
        var results = 0
        var traceEnd = -Double.infinity
        var snapshot = SessionSnapshot()
        /// The state as the tabs were last sent it.
        var shown = SessionSnapshot()
        /// When the last state was sent, in ms on the monotonic clock.
        var at = 0
        /// Whether a pitch came after the last position.
        var pitched = false
        /// The session's report, once it has ended.
        var report: String?
    }

    /// The singer's lines alone, for the split view: their music as ``setup`` gives it (with the ids of their own
    /// engraving) and their engravings; engraved the first time a tab asks.
    private let alone = Locked<(setup: String, engravings: PageEngravings)?>(nil)

    /// `score.json`: the music the page draws; with `only=mine`, tied to the engraving of the singer's lines alone.
    public func respondSetup(_ request: HTTPRequest) -> HTTPResponse {
        guard request.query("only") == "mine" else { return HTTPResponse(contentType: "application/json", body: Array(setup.utf8)) }
        do {
            return HTTPResponse(contentType: "application/json", body: Array(try mineAlone().setup.utf8))
        } catch {
            return .plain(404, "\(error)")
        }
    }

    /// `engraving.json`: the engraving at a tab's size; with `only=mine`, of the singer's lines alone.
    public func respondEngraving(_ request: HTTPRequest) -> HTTPResponse {
        guard request.query("only") == "mine" else { return engravings.respond(request) }
        do {
            return try mineAlone().engravings.respond(request)
        } catch {
            return .plain(404, "\(error)")
        }
    }

    /// The singer's parts engraved alone, once.
    private func mineAlone() throws(SessionError) -> (setup: String, engravings: PageEngravings) {
        if let done = alone.withLock({ $0 }) { return done }
        let resolved = session.resolved, plan = resolved.plan
        let parts = Array(Set(resolved.singers.map { resolved.score.parts[resolved.lines[$0].partIndex].id })).sorted()
        guard !parts.isEmpty else { throw SessionError(.usage, "no line of yours to show alone: expected --part") }
        let engraving = try Engraving.of(score: plan.score, transpose: plan.transpose, parts: parts)
        let score = ViewScore(engraving, resolved: resolved, notes: session.notes, transpose: plan.transpose)
        let made = (
            setup: Self.setup(session, score),
            engravings: PageEngravings(score: plan.score, transpose: plan.transpose, parts: parts, base: engraving)
        )
        return alone.withLock { kept in
            if kept == nil { kept = made }
            return kept!
        }
    }

    /// Follows `session` from now on: made before the session starts, it misses none of its events.
    public init(_ session: any SteeredSession, engraving: Engraving) {
        self.session = session
        score = ViewScore(engraving, resolved: session.resolved, notes: session.notes, transpose: session.resolved.plan.transpose)
        setup = Self.setup(session, score)
        let plan = session.resolved.plan
        engravings = PageEngravings(score: plan.score, transpose: plan.transpose, base: engraving)
        events = session.events()
        hub = ViewHub(receive: { [weak self] in self?.receive($0) }, joined: { [weak self] in self?.greet() })
    }

    /// Starts sending the session's events to the tabs.
    public func start() {
        let events = self.events
        let task = Task.detached { [self] in
            for await event in events { take(event) }
        }
        following.withLock { $0 = task }
    }

    /// Stops following; the tabs' sockets close.
    public func stop() {
        guard let task = following.withLock({ $0 }) else { return }
        task.cancel()
        following.withLock { $0 = nil }
        hub.close()
    }

    /// The time from a captured sample to a tab's painting it: median, 95th percentile and maximum in ms; nil
    /// when no tab painted a live session's frame.
    public var lag: (median: Int, percentile95: Int, maximum: Int)? { lags.withLock { $0.summary } }

    /// Sends what `event` changed: at once a verdict, a change of note, pass or transport, and the end; the
    /// position and the pitch at most every 16 ms (a display's frame). The last event brings the report.
    private func take(_ event: SessionEvent) {
        let now = PracticeSession.clock() / 1_000_000
        sent.withLock { sent in
            let previous = sent.snapshot
            sent.snapshot.apply(event)
            let snapshot = sent.snapshot
            let urgent: Bool, due: Bool
            switch event {
            case .began, .judged, .transport, .pass, .ended: (urgent, due) = (true, true)
            // In a live practice session a position comes just before the pitch decided with it: the pitch sends both,
            // unless the last position had no pitch after it (nothing decided: silence, or paused).
            case .position:
                (urgent, due) = (previous.current?.index != snapshot.current?.index, !session.judges || !session.isLive || !sent.pitched)
                sent.pitched = false
            case .pitch:
                (urgent, due) = (false, true)
                sent.pitched = true
            case .audio: (urgent, due) = (false, false)
            }
            // Against what the tabs were last sent, so that a change held back for coming too soon after the last
            // goes with the next event, even one that changes nothing itself.
            if urgent || (due && now - sent.at >= 16 && !Self.same(sent.shown, snapshot)) {
                sent.at = now
                sent.shown = snapshot
                sent.sequence += 1
                let message = state(snapshot, sequence: sent.sequence, results: sent.results, traceAfter: sent.traceEnd)
                sent.results = snapshot.results.count
                sent.traceEnd = snapshot.trace.last?.time ?? sent.traceEnd
                if let heard = snapshot.heard {
                    heardBySequence.withLock { heardBySequence in
                        heardBySequence[sent.sequence] = heard
                        heardBySequence[sent.sequence - 600] = nil
                    }
                }
                let whole = greeting(sent)
                hub.publish(message) { whole }
            }
            if case .ended(let outcome?) = event {
                let report = Self.report(outcome.report, score: score, resolved: session.resolved)
                sent.report = report
                hub.publish(report) { greeting(sent) }
            }
        }
    }

    /// A tab that joins gets the whole state, and the report once there is one.
    private func greet() {
        sent.withLock { sent in hub.greet { greeting(sent) } }
    }

    private func greeting(_ sent: Sent) -> [String] {
        [state(sent.snapshot, sequence: sent.sequence, results: 0, traceAfter: -.infinity)] + (sent.report.map { [$0] } ?? [])
    }

    /// Whether nothing the page shows differs.
    private static func same(_ a: SessionSnapshot, _ b: SessionSnapshot) -> Bool {
        a.time == b.time && a.tempoPercent == b.tempoPercent && a.mineMuted == b.mineMuted && a.loop?.first == b.loop?.first
            && a.loop?.last == b.loop?.last && a.sung == b.sung && a.ended == b.ended && a.trace.last == b.trace.last
    }

    private func state(_ snapshot: SessionSnapshot, sequence: Int, results from: Int, traceAfter: Double) -> String {
        let results = snapshot.results.count >= from ? snapshot.results[from...] : snapshot.results[...]
        let message = JSON.object([
            ("type", "state"), ("sequence", .int(sequence)), ("time", .number(snapshot.time)), ("measure", .string(snapshot.measure)),
            ("beat", .int(snapshot.beat)), ("tempo", .number(snapshot.tempo.rounded())), ("percent", .int(snapshot.tempoPercent)),
            ("paused", .bool(snapshot.paused)), ("pass", .int(snapshot.pass)),
            // What differs from playing on (paused, a loop, muted, locked), in the words the terminal shows too.
            ("flags", .array(snapshot.flags.map(JSON.string))),
            ("loop", snapshot.loop.map { .array([.string($0.first), .string($0.last)]) } ?? .null),
            ("current", snapshot.current.map { .int($0.index) } ?? .null), ("sung", JSON(snapshot.sung)),
            ("trace", .array(snapshot.trace.filter { $0.time > traceAfter }.map { .array([.number($0.time), .number($0.midi)]) })),
            ("results", .array(results.map(Self.result))), ("accuracy", .string(snapshot.accuracy)), ("ended", .bool(snapshot.ended)),
        ])
        return message.serialized()
    }

    /// A verdict as the page colours it: the note, its pass, the verdict, and what was sung, for the note's tooltip.
    private static func result(_ result: NoteResult) -> JSON {
        .array([.int(result.note.index), .int(result.pass), .string(result.verdict.rawValue), .string(result.summary)])
    }

    private func receive(_ incoming: ViewHub.Incoming) {
        if let painted = incoming.painted {
            guard let heard = heardBySequence.withLock({ $0[painted] }) else { return }
            lags.withLock { $0.add(nanoseconds: Self.moment(painted: incoming.at) - heard) }
            return
        }
        let command: SessionCommand? =
            switch incoming.command {
            case "pause": .togglePause
            case "step": incoming.by.map { .step(measures: $0) }
            case "seek": incoming.measure.map { .seek(measure: $0) }
            // Measures dragged across on the score, or typed: a loop of those; without them, the phrase's.
            case "loop":
                if let from = incoming.from, let to = incoming.to { .loop(measures: min(from, to)...max(from, to)) } else { .toggleLoop }
            case "tempo": incoming.by.map { .tempo(by: $0) }
            case "mute": .toggleMute
            case "prompt": .promptNextNote
            case "quit": .quit
            default: nil
            }
        if let command { session.send(command) }
    }

    /// When a tab painted a frame, on the session's clock: the moment it says, taken from the wall clock it read to
    /// the monotonic one, so that the trip of its report back is not counted; never later than the report came.
    /// A tab that does not say, or says a time over ten seconds ago (a page's clock is not choir's to trust), now.
    static func moment(painted at: Double?) -> Int {
        let now = PracticeSession.clock()
        guard let at, at.isFinite else { return now }
        let ago = Date().timeIntervalSince1970 * 1000 - at
        guard (0...10_000).contains(ago) else { return now }
        return now - Int(ago * 1_000_000)
    }

    private static func setup(_ session: any SteeredSession, _ score: ViewScore) -> String {
        let resolved = session.resolved, schedule = resolved.schedule
        let measures = schedule.measures.indices.map { played in
            let engraved = score.engraving.measures[score.playedMeasures[played]]
            return JSON.object([
                ("id", .string(engraved.id)), ("number", .string(resolved.score.measures[schedule.measures[played].index].number)),
                ("start", .number(schedule.measures[played].start)), ("page", .int(engraved.page)),
            ])
        }
        let notes = session.notes.map { note in
            JSON.object([
                ("index", .int(note.index)), ("id", JSON(score.noteIDs[note.index])), ("onset", .number(note.onset)),
                ("duration", .number(note.duration)), ("midi", .int(note.midi)), ("name", .string(note.name)),
                ("measure", .string(note.measure)),
            ])
        }
        return JSON.object([
            ("title", .string(resolved.title)), ("part", JSON(resolved.part)),
            ("judged", .bool(session.judges)),
            ("verse", .int(resolved.plan.verse)), ("live", .bool(session.isLive)),
            ("locked", .bool(session.locked)), ("tempo", .number(schedule.initialTempo)), ("length", .number(schedule.length)),
            (
                "colours",
                .object(HTMLReport.colours.sorted { $0.key.rawValue < $1.key.rawValue }.map { ($0.key.rawValue, .string($0.value)) })
            ),
            // Each verdict's sign, which tells it apart where its colour does not.
            ("marks", .object(Verdict.allCases.map { ($0.rawValue, .string($0.mark)) })),
            ("pages", .array(score.engraving.pages.map(JSON.string))),
            ("mine", .array(score.mine.map { .array([.int($0.staff), .int($0.layer)]) })),
            ("measures", .array(measures)), ("notes", .array(notes)),
            ("lyrics", .array(schedule.lyrics.map { .array([.number($0.start), .string($0.text), .bool($0.continues)]) })),
        ]).serialized()
    }

    /// The report for the page: the figures, each engraved measure's accuracy for the heat map, and "Work on".
    private static func report(_ report: SessionReport, score: ViewScore, resolved: ResolvedPlayback) -> String {
        var byMeasure: [Int: (right: Int, all: Int)] = [:]
        for result in report.results {
            guard let played = resolved.schedule.measures.firstIndex(where: { $0.index == result.note.measureIndex }) else { continue }
            let engraved = score.playedMeasures[played]
            byMeasure[engraved, default: (0, 0)].all += 1
            if result.verdict.isCorrect { byMeasure[engraved]!.right += 1 }
        }
        let counts = report.counts
        return JSON.object([
            ("type", "report"), ("notes", .int(report.results.count)), ("correct", .int(report.correct)),
            ("accuracy", .number((report.accuracy * 10).rounded() / 10)),
            ("verdicts", .object(Verdict.allCases.map { ($0.rawValue, .int(counts[$0] ?? 0)) })),
            (
                "measures",
                .array(
                    byMeasure.keys.sorted().map { index in
                        let figures = byMeasure[index]!
                        // By its number too, for an engraving of the singer's lines alone, whose ids differ.
                        return .array([
                            .string(score.engraving.measures[index].id), .number(100 * Double(figures.right) / Double(figures.all)),
                            .string(score.engraving.measures[index].number),
                        ])
                    })
            ),
            (
                "workOn",
                .array(report.weakestPassages.map { .object([("summary", .string($0.summary)), ("suggestion", .string($0.suggestion))]) })
            ),
        ]).serialized()
    }
}
