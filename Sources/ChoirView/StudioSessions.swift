import ChoirBase
import ChoirPractice
import ChoirServer
import ChoirSession
import Foundation

/// Where the studio's sessions play and listen, as `choir studio`'s options say.
public struct StudioDevices: Sendable {
    /// Where the mix plays: an ALSA device, or "none" (silence, on the music's true time).
    public var output = "default"
    /// The microphone a take sung live comes from: an ALSA capture device.
    public var input = "default"
    public var period = 256
    public var sampleRate = 48000

    public init() {}
}

/// The studio's session, one at a time: the mix played from the piece screen (``PlaybackSession``) or a take
/// judged (``PracticeSession``), each followed by a ``SessionFeed`` that the page shows at `session/N/` through the
/// score view's own page. Starting another ends the one before.
final class StudioSessions: Sendable {
    private struct Running {
        var id: Int
        var session: any SteeredSession
        var feed: SessionFeed
        /// The take's file, when the page sent it: removed with the session.
        var take: String?
    }

    private let running = Locked<Running?>(nil)
    /// Learn mode's drill, the latest (see ``learn(_:passage:ladder:takes:)``).
    let learning = Locked<StudioLearning?>(nil)
    /// Takes sent ahead for learn mode's passes, by the name the page was given for each.
    private let uploads = Locked<[String: String]>([:])
    /// How long after the microphone the page painted what was sung, in the last live take that has ended (see
    /// ``SessionFeed/lag``).
    let lastLag = Locked<(median: Int, percentile95: Int, maximum: Int)?>(nil)
    private let count = Locked(0)
    /// Held from ending one session to starting the next, so that two requests at once start one after the other.
    private let starting = NSLock()
    let devices: StudioDevices

    init(devices: StudioDevices) { self.devices = devices }

    /// Plays `resolved`'s mix on the studio's output, or (`paused`) holds it at its start until it is played, its score
    /// shown; returns the session's number.
    func play(_ resolved: ResolvedPlayback, paused: Bool = false) throws(SessionError) -> Int {
        let engraving = try Self.engrave(resolved.plan)
        starting.lock()
        defer { starting.unlock() }
        // The session before lets the device go first.
        end()
        let session = try PlaybackSession(
            resolved, device: devices.output, sampleRate: devices.sampleRate, period: devices.period, startsPaused: paused,
            holdsAtEnd: true)
        return try follow(session, engraving: engraving, take: nil) { () throws(SessionError) in try session.start() }
    }

    /// Judges a take of `playback`: the recording at `take` (which the session then owns, and which is removed if
    /// none starts), else the studio's microphone with the mix on its output (which with `headphones` it does not hear).
    func practise(_ playback: PlaybackPlan, take: String?, headphones: Bool = false) throws(SessionError) -> Int {
        var plan = PracticePlan(playback: playback)
        plan.loudspeakers = !headphones
        if let take {
            plan.input = .take(take)
        } else {
            plan.input = .device(devices.input)
            plan.output = MixDestination(devices.output)
        }
        plan.sampleRate = devices.sampleRate
        do {
            let engraving = try Self.engrave(playback)
            starting.lock()
            defer { starting.unlock() }
            end()
            let session = try PracticeSession(plan)
            return try follow(session, engraving: engraving, take: take) { () throws(SessionError) in try session.start() }
        } catch {
            if let take { try? FileManager.default.removeItem(atPath: take) }
            throw error
        }
    }

    /// Keeps a take sent ahead (at `file`, which the studio then owns) for learn mode; returns the name to ask for it by.
    func keep(upload file: String) -> String {
        let name = UUID().uuidString
        uploads.withLock { $0[name] = file }
        return name
    }

    /// Removes the takes sent ahead that no drill has taken.
    func discardUploads() {
        for file in uploads.withLock({ uploads in
            defer { uploads.removeAll() }
            return uploads.values
        }) {
            try? FileManager.default.removeItem(atPath: file)
        }
    }

    /// Learn mode: drills `passage` of `playback`'s line up `ladder` (``DrillSession``), each pass the running
    /// session in turn; the singer is the takes sent ahead under `names`, one per pass, or the microphone with the mix
    /// on the output (which with `headphones` it does not hear).
    func learn(_ playback: PlaybackPlan, passage: Drill.Passage, ladder: Drill, takes names: [String], headphones: Bool = false)
        throws(SessionError)
    {
        let kept = uploads.withLock { uploads in names.map { uploads.removeValue(forKey: $0) } }
        let takes = kept.compactMap { $0 }
        do throws(SessionError) {
            guard takes.count == names.count else { throw SessionError(.usage, "a take that was not sent: expected one sent to takes") }
            var plan = PracticePlan(playback: playback)
            plan.loudspeakers = !headphones
            plan.input = .device(devices.input)
            if takes.isEmpty { plan.output = MixDestination(devices.output) }
            plan.sampleRate = devices.sampleRate
            let engraving = try Self.engrave(playback)
            starting.lock()
            defer { starting.unlock() }
            end()
            let drill = try DrillSession(plan, ladder: ladder, passage: passage, takes: takes)
            let learning = StudioLearning(drill, passage: passage, ladder: ladder)
            self.learning.withLock { $0 = learning }
            let events = drill.events()
            drill.start()
            Task.detached { [self] in
                for await event in events {
                    learning.apply(event)
                    if case .passBegan(let pass) = event { show(pass, of: learning, engraving: engraving) }
                }
                for take in takes { try? FileManager.default.removeItem(atPath: take) }
            }
        } catch {
            for take in takes { try? FileManager.default.removeItem(atPath: take) }
            throw error
        }
    }

    /// Makes a drill's pass the running session and starts it; once the studio has moved on, the pass ends at once
    /// (and the drill with it).
    private func show(_ pass: DrillSession.Pass, of learning: StudioLearning, engraving: Engraving) {
        starting.lock()
        defer { starting.unlock() }
        guard !learning.isAbandoned else {
            pass.session.send(.quit)
            try? pass.session.start()
            return
        }
        endRunning()
        if let id = try? follow(
            pass.session, engraving: engraving, take: nil, start: { () throws(SessionError) in try pass.session.start() })
        {
            learning.shown(pass: pass.number, as: id)
        }
    }

    /// The engraving of `plan`'s score in its key, engraved before the session before ends, which plays on meanwhile.
    private static func engrave(_ plan: PlaybackPlan) throws(SessionError) -> Engraving {
        try Engraving.of(score: plan.score, transpose: plan.transpose)
    }

    /// Follows `session` on `engraving` and starts it.
    private func follow(_ session: any SteeredSession, engraving: Engraving, take: String?, start: () throws(SessionError) -> Void)
        throws(SessionError) -> Int
    {
        let feed = SessionFeed(session, engraving: engraving)
        let id = count.withLock { count in
            count += 1
            return count
        }
        feed.start()
        do { try start() } catch {
            feed.stop()
            throw error
        }
        running.withLock { $0 = Running(id: id, session: session, feed: feed, take: take) }
        return id
    }

    /// Passes a command to session `id`, if it is the one running.
    func send(_ command: SessionCommand, to id: Int) -> Bool {
        guard let session = running.withLock({ $0?.id == id ? $0?.session : nil }) else { return false }
        session.send(command)
        return true
    }

    /// The feed of session `id`, if it is the one running.
    func feed(_ id: String?) -> SessionFeed? {
        running.withLock { running in running.flatMap { String($0.id) == id ? $0.feed : nil } }
    }

    /// Ends the running session, if any, and lets its tabs go; a drill in learn mode ends with it.
    func end() {
        learning.withLock { $0 }?.abandon()
        endRunning()
    }

    private func endRunning() {
        guard
            let ended = running.withLock({ running in
                defer { running = nil }
                return running
            })
        else { return }
        ended.session.send(.quit)
        if let playback = ended.session as? PlaybackSession { playback.stop() }
        if let practice = ended.session as? PracticeSession { _ = practice.wait() }
        if let lag = ended.feed.lag { lastLag.withLock { $0 = lag } }
        ended.feed.stop()
        if let take = ended.take { try? FileManager.default.removeItem(atPath: take) }
    }

    /// The routes of `session/N/`: the score view's page, script and style, the session's music, its WebSocket; and
    /// learn mode's ladder as it climbs, on `learn/live`.
    func route(_ router: inout Router) throws(SessionError) {
        router.webSocket("learn/live") { [self] socket in
            guard let learning = learning.withLock({ $0 }) else {
                socket.close(code: 1008, reason: "no passage is being learnt")
                return WebSocket.Handlers(text: { _ in })
            }
            return learning.follow(socket)
        }
        try router.serve(page: "view.html", files: ["view.js", "view.css"], at: "session/:id/")
        router.get("session/:id/score.json") { [self] request in
            guard let feed = feed(request.parameters["id"]) else { return .plain(404, "no such session") }
            return feed.respondSetup(request)
        }
        router.get("session/:id/engraving.json") { [self] request in
            guard let feed = feed(request.parameters["id"]) else { return .plain(404, "no such session") }
            return feed.respondEngraving(request)
        }
        router.webSocket("session/:id/live") { [self] socket in
            guard let feed = feed(socket.request.parameters["id"]) else {
                socket.close(code: 1008, reason: "no such session")
                return WebSocket.Handlers(text: { _ in })
            }
            return feed.hub.open(socket)
        }
    }
}
