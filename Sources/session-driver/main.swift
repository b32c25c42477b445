import ChoirPractice
import ChoirSession
import Glibc

// `session-driver SCORE PART HISTORY REPORT.json`: a front end of the real-time tests, driving a live session
// through the library's API alone, in a process of its own so that its sound server's address stays out of the
// tests' process. It practises measures 1–8 of PART at 150% with the line played on a clarinet into `pulse` and
// heard back from the same server, and steers it as a singer would: loops the phrase being sung, lets it come
// round twice, ends the loop and steps back a measure, then lets the range play out. It writes the report it
// got to REPORT.json and prints one line per change of pass its events showed.

func fail(_ message: String) -> Never {
    let line = "session-driver: \(message)\n"
    _ = write(2, line, line.utf8.count)
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 5 else { fail("usage: session-driver SCORE PART HISTORY REPORT.json") }

var playback = PlaybackPlan(score: arguments[1], part: arguments[2])
playback.from = "1"
playback.to = "8"
playback.tempoPercent = 150
playback.soloed = [arguments[2]]
playback.myInstrument = "clarinet"
var plan = PracticePlan(playback: playback)
plan.input = .device("pulse")
plan.output = .device("pulse")
plan.loudspeakers = false
plan.history = arguments[3]

/// Runs a session of `plan` to its end, waiting on its events as a front end of the library would, and writes its
/// report to `reportPath`; returns the log.
func drive(_ plan: PracticePlan, reportPath: String) async -> String {
    let session: PracticeSession
    let events: AsyncStream<SessionEvent>
    do {
        session = try PracticeSession(plan)
        events = session.events()
        try session.start()
    } catch {
        fail("\(error)")
    }
    var following = events.makeAsyncIterator()
    var snapshot = SessionSnapshot()

    /// Follows the events (for up to `seconds`) until the session they add up to satisfies `condition`.
    func waitFor(_ what: String, seconds: Double = 30, _ condition: (SessionSnapshot) -> Bool) async -> SessionSnapshot {
        let deadline = PracticeSession.clock() + Int(seconds * 1e9)
        while let event = await following.next() {
            snapshot.apply(event)
            if condition(snapshot) { return snapshot }
            if snapshot.ended { fail("the session ended before \(what)") }
            if PracticeSession.clock() > deadline { fail("timed out waiting for \(what)") }
        }
        fail("the session's events ended before \(what)")
    }

    var log = ""
    // Into the second note's measure, then loop the phrase there.
    var seen = await waitFor("the first notes") { $0.results.count >= 2 }
    log += "snapshot pass \(seen.pass) at m. \(seen.measure) with \(seen.results.count) verdicts\n"
    session.send(.toggleLoop)
    seen = await waitFor("the loop") { $0.loop != nil }
    log += "looping mm. \(seen.loop!.first)–\(seen.loop!.last)\n"
    seen = await waitFor("the loop's second time round") { $0.pass >= 3 && $0.results.count { $0.pass == 3 } >= 2 }
    log += "snapshot pass \(seen.pass) at m. \(seen.measure)\n"
    session.send(.toggleLoop)
    session.send(.step(measures: -1))
    seen = await waitFor("the step back") { $0.pass >= 4 }
    log += "snapshot pass \(seen.pass) at m. \(seen.measure)\n"
    // The last event is the session's outcome.
    var outcome: PracticeSession.Outcome?
    while let event = await following.next() {
        if case .ended(let ended) = event { outcome = ended }
    }
    guard let outcome else { fail(log + "no outcome among the events") }
    // The last event comes from the session's own thread, as it ends: waiting lets that thread finish.
    guard session.wait().report.results == outcome.report.results else { fail(log + "the events' outcome is not the session's") }
    log +=
        "ended \(outcome.ending == .completed ? "completed" : "\(outcome.ending)"), \(outcome.report.passes.count) passes, "
        + "\(outcome.report.results.count) verdicts\n"
    guard outcome.ending == .completed else { fail(log) }
    do { try ReportFile.write(JSONReport.render(outcome.report), to: reportPath) } catch { fail("\(error)") }
    return log
}

print(await drive(plan, reportPath: arguments[4]), terminator: "")
