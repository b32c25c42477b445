import ChoirPractice
import ChoirSession
import FoundationEssentials
import Testing

/// A drill as a front end follows it: its events, pass by pass, with the drill's report last.
struct DrillSessionTests {
    /// The tenor line of the example as the drill plays it, without history (so a first pass comes first).
    static func plan() -> PracticePlan {
        var plan = PracticePlan(playback: PlaybackPlan(score: SessionEventTests.example, part: "tenor"))
        plan.input = .device("default")
        plan.loudspeakers = false
        plan.history = nil
        return plan
    }

    /// A pass sung right: the tenor's line alone on a clarinet, over `first`…`last` at `tempo`%, with the count-in
    /// a drill's pass (or a plan's item) plays, written to a WAV file.
    /// Transposed by `semitones`, every note is wrong.
    static func rightPass(_ first: String, _ last: String, tempo: Double, in folder: String, semitones: Int = 0) throws -> String {
        var playback = PlaybackPlan(score: SessionEventTests.example, part: "tenor")
        playback.transpose = semitones
        (playback.from, playback.to, playback.tempoPercent, playback.countIn) = (first, last, tempo, true)
        playback.soloed = ["tenor"]
        playback.myInstrument = "clarinet"
        let path = "\(folder)/\(first)-\(last)-\(Int(tempo))\(semitones == 0 ? "" : "-\(semitones)").wav"
        try MixRender.wav(try playback.resolve(), to: path, sampleRate: 48000)
        return path
    }

    static func folder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("choir-drill-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs `drill` as a front end does: starts each pass's session when it is announced, and collects the drill's
    /// events.
    static func follow(_ drill: DrillSession) async throws -> [DrillSession.Event] {
        let events = drill.events()
        drill.start()
        var collected: [DrillSession.Event] = []
        for await event in events {
            if case .passBegan(let pass) = event { try pass.session.start() }
            collected.append(event)
        }
        return collected
    }

    static func describe(_ event: DrillSession.Event) -> String {
        switch event {
        case .began: "began"
        case .passBegan(let pass): "begin \(pass.passage?.span ?? "all") #\(pass.number) at \(Int(pass.tempo))%"
        case .passEnded(let end):
            "end \(end.pass.passage?.span ?? "all") \(end.outcome.report.correct)/\(end.outcome.report.results.count) "
                + "\(end.next.map { "\($0)" } ?? "-") \(end.nextTempo.map { "\(Int($0))" } ?? "-")"
        case .passages(let passages): "passages " + passages.map(\.span).joined(separator: ", ")
        case .ended(let outcome): "ended \(outcome.ending) after \(outcome.passes.count)"
        }
    }

    /// With no history, the demo take is the first pass: its weakest measures (6–7 and 12, where the take's
    /// planted mistakes are) become the passages. Each is then sung right, from 90%: one pass at 90% (faster),
    /// one at 100% (done). Every pass has its start and its end, in order, each with its report; the drill's
    /// report, every pass's, comes last.
    @Test func aDrillPublishesEveryPassInOrderWithItsReportLast() async throws {
        let folder = try Self.folder()
        let takes = [
            SessionEventTests.demoTake,
            try Self.rightPass("6", "7", tempo: 90, in: folder), try Self.rightPass("6", "7", tempo: 100, in: folder),
            try Self.rightPass("12", "12", tempo: 90, in: folder), try Self.rightPass("12", "12", tempo: 100, in: folder),
        ]
        let drill = try DrillSession(Self.plan(), startPercent: 90, takes: takes)
        #expect(drill.needsFirstPass && drill.part == "Tenor")
        let events = try await Self.follow(drill)
        let demoNotes = try SessionEventTests.demoSession().notes.count
        #expect(
            events.map(Self.describe) == [
                "began",
                "begin all #1 at 100%",
                "end all \(events.firstCorrect ?? -1)/\(demoNotes) - -",
                "passages mm. 6–7, m. 12",
                "begin mm. 6–7 #1 at 90%", "end mm. 6–7 3/3 faster 100",
                "begin mm. 6–7 #2 at 100%", "end mm. 6–7 3/3 done 90",
                "begin m. 12 #1 at 90%", "end m. 12 2/2 faster 100",
                "begin m. 12 #2 at 100%", "end m. 12 2/2 done -",
                "ended completed after 5",
            ])
        // What a front end says of each pass, as it runs and once it has ended (nothing of the first pass).
        let labels = events.compactMap { event -> String?? in if case .passBegan(let pass) = event { pass.label } else { nil } }
        #expect(
            labels == [
                nil, "drill mm. 6–7, pass 1 at 90%", "drill mm. 6–7, pass 2 at 100%", "drill m. 12, pass 1 at 90%",
                "drill m. 12, pass 2 at 100%",
            ])
        let summaries = events.compactMap { event -> String?? in if case .passEnded(let end) = event { end.summary } else { nil } }
        #expect(
            summaries == [
                nil, "mm. 6–7 at 90%: 100% (3 of 3 notes) → next at 100%", "mm. 6–7 at 100%: 100% (3 of 3 notes) → done",
                "m. 12 at 90%: 100% (2 of 2 notes) → next at 100%", "m. 12 at 100%: 100% (2 of 2 notes) → done",
            ])
        #expect(
            drill.firstPassNotice == "Drill: no session of Tenor in the history to learn from; a first pass finds the weakest measures.")
        guard case .ended(let outcome) = events.last else { return }
        // The first pass found mistakes; the drilled ones had none.
        #expect(outcome.passes.first.map { $0.outcome.report.correct < $0.outcome.report.results.count } == true)
        #expect(outcome.passes.dropFirst().map { $0.outcome.report.accuracy } == [100, 100, 100, 100])
        // A late subscriber gets the state, with every pass, and the outcome.
        var late: [DrillSession.Event] = []
        for await event in drill.events() { late.append(event) }
        #expect(late.count == 2)
        if case .began(let state) = late.first { #expect(state.passes.count == 5 && state.current == nil && state.outcome != nil) }
    }

    /// Learn mode: the passage the singer chose (mm. 6–7), no first pass, a ladder from 90% in steps of 10 with a
    /// pass mark of 95%. The first pass sings a minor third high (wrong: again at 90%), the next two sing the
    /// passage right at 90% and at 100%: the ladder took two passes at 90% and one at 100%, as each pass's end says.
    @Test func aChosenPassageClimbsTheLadderToTheWrittenTempo() async throws {
        let folder = try Self.folder()
        let takes = [
            try Self.rightPass("6", "7", tempo: 90, in: folder, semitones: 3), try Self.rightPass("6", "7", tempo: 90, in: folder),
            try Self.rightPass("6", "7", tempo: 100, in: folder),
        ]
        let passage = Drill.Passage(first: "6", last: "7", mistakes: 0)
        let drill = try DrillSession(Self.plan(), ladder: Drill(start: 90, step: 10, passMark: 95), passage: passage, takes: takes)
        #expect(!drill.needsFirstPass)
        let events = try await Self.follow(drill)
        let described = events.map(Self.describe)
        #expect(
            described.count == 9 && described[3].hasPrefix("end mm. 6–7 ") && described[3].hasSuffix(" again 90")
                && Array(described[4...]) == [
                    "begin mm. 6–7 #2 at 90%", "end mm. 6–7 3/3 faster 100",
                    "begin mm. 6–7 #3 at 100%", "end mm. 6–7 3/3 done -",
                    "ended completed after 3",
                ] && Array(described[..<3]) == ["began", "passages mm. 6–7", "begin mm. 6–7 #1 at 90%"], "\(described)")
        let ladders = events.compactMap { if case .passEnded(let end) = $0 { end.ladder } else { nil } }
        #expect(ladders.map { $0.map(\.tempo) } == [[90], [90], [90, 100]])
        #expect(ladders.last?.map(\.passes) == [2, 1] && ladders.last?.map(\.reached) == [true, true])
        #expect((ladders.first?.first?.accuracies.first ?? 100) < 95)
    }

    /// A passage the score does not have is refused as `--from`/`--to` refuse it.
    @Test func aChosenPassageMustBeInTheScore() throws {
        #expect(throws: SessionError.self) {
            try DrillSession(Self.plan(), ladder: Drill(), passage: Drill.Passage(first: "6", last: "40", mistakes: 0))
        }
    }

    /// A drill that runs out of recordings ends there, as failed, after the passes it had.
    @Test func aDrillWithoutARecordingForItsNextPassFails() async throws {
        let drill = try DrillSession(Self.plan(), startPercent: 90, takes: [SessionEventTests.demoTake])
        let events = try await Self.follow(drill)
        #expect(
            events.map(Self.describe).suffix(2) == [
                "passages mm. 6–7, m. 12", "ended failed(the drill goes on after its 1 recordings: expected one per pass) after 1",
            ])
    }
}

extension [DrillSession.Event] {
    /// The notes the first pass got right.
    fileprivate var firstCorrect: Int? {
        compactMap { if case .passEnded(let end) = $0 { end.outcome.report.correct } else { nil } }.first
    }
}

extension DrillSessionTests {
    /// The passages found are said weakest first, or that nothing needs drilling.
    @Test func thePassagesAreSaidWeakestFirst() {
        let passages = [Drill.Passage(first: "6", last: "7", mistakes: 3), Drill.Passage(first: "12", last: "12", mistakes: 1)]
        #expect(DrillSession.notice(passages) == "Drill: mm. 6–7, m. 12")
        #expect(DrillSession.notice([]) == "Drill: every measure was right; nothing to drill.")
    }
}

extension DrillSessionTests {
    /// A drill listens to a live microphone (a take is a pass of its own, given with `takes`): a plan whose singer
    /// is a recording is refused before anything is read.
    @Test func aDrillOfARecordingIsRefused() {
        var plan = Self.plan()
        plan.input = .take("take.wav")
        let refused = #expect(throws: SessionError.self) { try DrillSession(plan, startPercent: 70) }
        #expect(refused == SessionError(.usage, "--drill needs a live microphone: expected --input DEVICE, not a take"))
    }
}
