import ChoirPractice
import ChoirSession
import Glibc

// `session-driver SCORE PART HISTORY REPORT.json`: a front end of the real-time tests, driving a live session
// through the library's API alone, in a process of its own so that its sound server's address stays out of the
// tests' process. It practises measures 1–8 of PART at 150% with the line played on a clarinet into `pulse` and
// heard back from the same server, and steers it as a singer would: loops the phrase being sung, lets it come
// round twice, ends the loop and steps back a measure, then lets the range play out. It writes the report it
// got to REPORT.json and prints one line per snapshot-observed change of pass.

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

let session: PracticeSession
do {
    session = try PracticeSession(plan)
    try session.start()
} catch {
    fail("\(error)")
}

/// Waits (up to `seconds`) until a snapshot satisfies `condition`; returns it.
func waitFor(_ what: String, seconds: Double = 30, _ condition: (SessionSnapshot) -> Bool) -> SessionSnapshot {
    let deadline = PracticeSession.clock() + Int(seconds * 1e9)
    while PracticeSession.clock() < deadline {
        let snapshot = session.snapshot
        if condition(snapshot) { return snapshot }
        if snapshot.ended { fail("the session ended before \(what)") }
        usleep(10_000)
    }
    fail("timed out waiting for \(what)")
}

var log = ""
// Into the second note's measure, then loop the phrase there.
var snapshot = waitFor("the first notes") { $0.results.count >= 2 }
log += "snapshot pass \(snapshot.pass) at m. \(snapshot.measure) with \(snapshot.results.count) verdicts\n"
session.send(.toggleLoop)
snapshot = waitFor("the loop") { $0.loop != nil }
log += "looping mm. \(snapshot.loop!.first)–\(snapshot.loop!.last)\n"
snapshot = waitFor("the loop's second time round") { $0.pass >= 3 && $0.results.count { $0.pass == 3 } >= 2 }
log += "snapshot pass \(snapshot.pass) at m. \(snapshot.measure)\n"
session.send(.toggleLoop)
session.send(.step(measures: -1))
snapshot = waitFor("the step back") { $0.pass >= 4 }
log += "snapshot pass \(snapshot.pass) at m. \(snapshot.measure)\n"
let outcome = session.wait()
log +=
    "ended \(outcome.ending == .completed ? "completed" : "\(outcome.ending)"), \(outcome.report.passes.count) passes, "
    + "\(outcome.report.results.count) verdicts\n"
guard outcome.ending == .completed else { fail(log) }
do { try ReportFile.write(JSONReport.render(outcome.report), to: arguments[4]) } catch { fail("\(error)") }
print(log, terminator: "")
