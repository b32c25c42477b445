import ChoirAudio
import ChoirPlayback
import ChoirPractice
import ChoirScore
import ChoirTestSupport
import Foundation
import Glibc
import Synchronization
import Testing

/// Real-time round trips through one PulseAudio server with a null sink, one test at a time: the tests share the
/// server, and running them side by side would make each the other's load.
@Suite(.serialized)
struct RealTimeTests {
    private static let shared = Mutex<(server: PulseServer, handedOut: Date)?>(nil)

    /// The suite's server, started on first use and again when it may be about to exit. It exits by itself
    /// after `PulseServer.idleExit` seconds without clients, counted from the end of the last test that used it,
    /// which came after it was last handed out: one handed out again within half that time is sure to serve its
    /// test's first client, where one found alive at the end of its idle time may refuse it while exiting.
    static func server() throws -> PulseServer {
        try shared.withLock { shared in
            let now = Date()
            if let current = shared, current.server.isAlive, now.timeIntervalSince(current.handedOut) < PulseServer.idleExit / 2 {
                shared = (current.server, now)
                return current.server
            }
            shared = nil
            let started = try PulseServer()
            shared = (started, now)
            return started
        }
    }

    /// A real-time round trip without a sound card: a tone is played into a PulseAudio null sink and
    /// `choir pitch --live` listens to the sink's monitor through ALSA's `pulse` device.
    @Test func liveCaptureThroughPulseAudio() throws {
        let server = try Self.server()
        let wav = try PitchCommandTests.tone(330, seconds: 4, name: "live")
        let player = try server.play(wav)
        defer { player.terminate() }
        let result = try CLI.run(["pitch", "--live", "--input", "pulse", "--duration", "3"], environment: server.environment)
        #expect(result.status == 0, "\(result.stderr)")
        let frames = result.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",").compactMap { Double($0) } }
        #expect(frames.count == (3 * 48000 - 1760) / 256 + 1)
        // The player and the capture each take a moment to reach the server, so the tone fills part of the take.
        let voiced = frames.filter { $0.count == 3 && $0[1] > 0 }.map { $0[1] }.sorted()
        #expect(voiced.count > 150, "\(voiced.count) of \(frames.count) voiced")
        let median = voiced.isEmpty ? 0 : voiced[voiced.count / 2]
        #expect(abs(1200 * log2(median / 330)) < 5, "median \(median) Hz")
        #expect(result.stderr.contains(", 0 overruns, 0 samples dropped"), "\(result.stderr)")
    }

    /// A choir command running against `server`, its output read line by line as it comes.
    struct Launched {
        let process = Process()
        let input = Pipe(), errors = Pipe()
        let lines: StampedLines

        init(_ arguments: [String], server: PulseServer, environment: [String: String] = [:]) throws {
            process.executableURL = CLI.executable
            process.arguments = arguments
            process.currentDirectoryURL = CLI.root
            process.environment = ProcessInfo.processInfo.environment.merging(server.environment) { $1 }.merging(environment) { $1 }
            let output = Pipe()
            (process.standardInput, process.standardOutput, process.standardError) = (input, output, errors)
            lines = StampedLines(output)
            try process.run()
        }

        /// Waits for the process to end; returns its exit status and what it said on standard error.
        func finish() -> (status: Int32, stderr: String) {
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, stderr)
        }

        /// Waits up to `seconds` for a line that `matches`; returns the first such line and when it came.
        func line(within seconds: Double = 10, _ matches: (String) -> Bool) -> (seconds: Double, line: String)? {
            lines.wait(within: seconds) { $0.contains(where: matches) }
            return lines.lines.first { matches($0.line) }
        }
    }

    /// The note changes `choir pitch --live` printed: (time, MIDI, when the listener said so) wherever the rounded
    /// pitch changes and holds for 12 frames (64 ms).
    static func noteChanges(_ heard: StampedLines) -> [(time: Double, midi: Int, said: Double)] {
        var changes: [(time: Double, midi: Int, said: Double)] = []
        var run: (start: Double, midi: Int, count: Int, said: Double)?
        for (said, line) in heard.lines {
            let row = line.split(separator: ",").compactMap { Double($0) }
            guard row.count == 3, row[1] > 0 else { continue }
            let midi = Int((69 + 12 * log2(row[1] / 440)).rounded())
            if run?.midi == midi { run!.count += 1 } else { run = (row[0], midi, 1, said) }
            if run!.count == 12, changes.last?.midi != midi { changes.append((run!.start, midi, run!.said)) }
        }
        return changes
    }

    /// The tenor on a clarinet, played through ALSA into a PulseAudio null sink while `choir pitch --live` listens
    /// to the sink's monitor: the pitches heard are the tenor's, spaced as the score says, each measure is shown
    /// as it is heard, and playback had no underrun. (The tracker is for sustained, voice-like tones: a piano's hammered attack, over the string
    /// still ringing before it, can read a twelfth low for the look-ahead's first frames.) A run with an underrun
    /// plays again, once: with every other suite beside it on two cores, a stream through the server underruns in
    /// about one run in a few (see ``sungComparison(take:data:server:record:)``); a player that underruns of itself
    /// does so every time.
    @Test func playThroughPulseAudio() throws {
        let server = try Self.server()
        func play() throws -> (status: Int32, stderr: String, shown: StampedLines, heard: StampedLines) {
            let listener = try Launched(["pitch", "--live", "--input", "pulse", "--duration", "9"], server: server)
            Thread.sleep(forTimeInterval: 1.5)
            let player = try Launched(
                [
                    "play", CLI.example, "--device", "pulse", "--solo", "T", "--instrument", "T=clarinet",
                    "--to", "3", "--bpm", "120",
                ], server: server)
            let (status, stderr) = player.finish()
            _ = listener.finish()
            Thread.sleep(forTimeInterval: 0.1)
            return (status, stderr, player.lines, listener.lines)
        }
        var (status, stderr, shown, heard) = try play()
        if status == 0 && !stderr.hasSuffix(", 0 underruns\n") {
            print("play: \(stderr.trimmingCharacters(in: .newlines)); playing again")
            (status, stderr, shown, heard) = try play()
        }
        #expect(status == 0, "\(stderr)")
        #expect(stderr.hasSuffix(", 0 underruns\n"), "\(stderr)")
        #expect(shown.lines.map(\.line) == ["measure 0", "measure 1", "measure 2", "measure 3"])
        let changes = Self.noteChanges(heard)
        // Tenor, measures 0-3: G3 | B3 B3 | G3 F♯3 | C4 G3 (the repeated B3 merges in this view).
        #expect(changes.map(\.midi) == [55, 59, 55, 54, 60, 55], "\(changes)")
        guard changes.count == 6, shown.lines.count == 4 else { return }
        // At ♩ = 120 the changes come 0.5, 1.5, 1, 0.5 and 1 s apart, the first one too: the stream starts with
        // silence, which is what PulseAudio swallows as it starts a stream. Each gap is checked on its own (within
        // 80 ms, a little more than the 64 ms a pitch must hold to count): on a loaded machine the server may
        // stretch the stream between them, which no client sees.
        let gaps = zip(changes.dropFirst(), changes).map { $0.time - $1.time }
        for (gap, expected) in zip(gaps, [0.5, 1.5, 1, 0.5, 1]) {
            #expect(abs(gap - expected) < 0.08, "a gap of \(gap) s where the score has \(expected) s")
        }
        // The position shown is the one heard: each measure is shown as its first note reaches the microphone, not
        // when the synthesizer renders it, a device buffer and the stream's silent start ahead. The listener says
        // what it heard a window and its decoder's lag later (about 60 ms).
        for (measure, change) in [(1, 1), (2, 2), (3, 4)] {
            let early = changes[change].said - shown.lines[measure].seconds
            #expect(early > -0.05 && early < 0.2, "measure \(measure) was shown \(early) s before the listener heard it")
            print("play: measure \(measure) shown \(String(format: "%.0f", early * 1000)) ms before the listener said it heard it")
        }
    }

    /// A player stopped for two seconds (SIGSTOP, as a machine that stalls it) underruns, says when, and plays on to
    /// the end: it underruns as it resumes, the stall after measure 1 was heard, which is about 2.1 s into the stream
    /// (half a second of lead-in, the server starting the stream, a beat of pickup at ♩ = 120, the device's buffer):
    /// 4.01 to 4.50 s in. (Stopped for half a second, then for one, it played on with 0 underruns in ci28 and ci31:
    /// the server had buffered more. Stopped for two, it once took the restarting stream's silence for a device that
    /// had stopped taking sound, and ended after measure 1.)
    /// On a server of its own, ended with the test, so that the underrun it makes cannot reach the suite's later
    /// tests (`calibrate`'s two measurements, run next on the shared server, once came 8.1 ms apart).
    @Test func anUnderrunIsCountedAndPlaced() throws {
        let server = try PulseServer()
        // Four measures, so that the stall still comes mid-stream when the line is read late (ci10 read it too late
        // to stop a stream of two: the frames were all written, and nothing underran).
        let player = try Launched(["play", CLI.example, "--device", "pulse", "--to", "4", "--bpm", "120"], server: server)
        let heard = try #require(player.line(within: 20) { $0 == "measure 1" })
        let stopped = StampedLines.now()
        let stall = 2.0
        kill(player.process.processIdentifier, SIGSTOP)
        Thread.sleep(forTimeInterval: stall)
        kill(player.process.processIdentifier, SIGCONT)
        let (status, stderr) = player.finish()
        #expect(status == 0, "\(stderr)")
        #expect(stderr.contains("played 7.5 s"), "\(stderr)")
        // When each underrun came is given: the stall's is one of them, and others can be the load of the suites
        // beside this one (in ci33 the stream underran at 1.76 s, before the stall, then at 4.05 s).
        let placed = stderr.firstMatch(of: /underruns \((?:the first \d+ )?at ([\d., ]+) s\)\n$/).map { String($0.1) } ?? ""
        let said = placed.split(separator: ", ").compactMap { Double($0) }
        let late = stopped - heard.seconds
        print("stalled \(String(format: "%.2f", late)) s after m. 1 was shown: \(stderr.trimmingCharacters(in: .newlines))")
        #expect(
            !stderr.contains(", 0 underruns") && said.contains { $0 > 1.3 + stall + late && $0 < 2.9 + stall + late },
            "\(stderr), stopped \(late) s after m. 1")
    }

    /// A server that freezes mid-piece (SIGSTOP) leaves `choir play` writing into a device that no longer answers:
    /// it ends within a few seconds, says why in a line of its own, and exits with EX_IOERR. (It used to exit 0: the
    /// stall ended the music, but was forgotten once the stream had been stopped.)
    @Test func aFrozenServerEndsPlayWithAnError() throws {
        let server = try PulseServer()
        let pid = server.processID
        // A frozen server cannot be stopped politely: it is killed before the server is let go.
        defer { withExtendedLifetime(server) { _ = kill(pid, SIGKILL) } }
        let player = try Launched(["play", CLI.example, "--device", "pulse"], server: server)
        _ = try #require(player.line(within: 20) { $0 == "measure 2" })
        kill(pid, SIGSTOP)
        let frozen = Date()
        let (status, stderr) = player.finish()
        #expect(Date().timeIntervalSince(frozen) < 12, "play outlived its device: \(stderr)")
        #expect(status == 74, "\(stderr)")
        #expect(stderr.hasSuffix("\nchoir: playback device 'pulse' stopped taking sound\n"), "\(stderr)")
    }

    /// `choir calibrate` through PulseAudio: the sweeps come back on the monitor; the two streams' clocks put
    /// them within a few milliseconds of where they were played, run after run, whatever moment each stream
    /// started at; the value is stored per pair of devices. A microphone that hears nothing is an error.
    @Test func calibrateMeasuresAndStoresTheRoundTrip() throws {
        let server = try Self.server()
        let config = try PracticeCommandTests.dataHome()
        let environment = server.environment.merging(["XDG_CONFIG_HOME": config]) { $1 }
        var measured: [Double] = [], refused = 0
        while measured.count < 2 {
            let result = try CLI.run(["calibrate", "--device", "pulse", "--input-device", "pulse"], environment: environment)
            // A server starved by the tests beside this one can report its streams' times unevenly; calibrate then
            // refuses, as it should, and the singer runs it again. Once is allowed (1 run in about 20 rehearsals).
            if result.status == 75 && result.stderr.hasPrefix("choir: the sweeps came back ") && refused == 0 {
                refused += 1
                continue
            }
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("round trip pulse -> pulse: "), "\(result.stdout)")
            #expect(result.stdout.contains(" of 6 sweeps agree within "), "\(result.stdout)")
            let table = try PracticeCommandTests.json(config + "/choir/latency.json")
            measured.append(try #require(table["pulse -> pulse"] as? Double))
        }
        // A null sink's monitor hears exactly what was played: what is left after the clocks is the server's
        // reporting error, a few milliseconds (docs/practice.md gives the figure this prints).
        print("calibrate through a PulseAudio null sink and its monitor: \(measured.map { String(format: "%.1f", $0) }) ms")
        #expect(measured.allSatisfy { abs($0) < 15 }, "\(measured)")
        #expect(abs(measured[0] - measured[1]) < 6, "\(measured)")

        let silent = try CLI.run(
            ["calibrate", "--device", "pulse", "--input-device", "pulse"],
            environment: environment.merging(["PULSE_SOURCE": "choir_mic.monitor"]) { $1 })
        #expect(silent.status == 75)
        #expect(silent.stderr.hasPrefix("choir: did not hear the sweeps (0 of 6, best match "), "\(silent.stderr)")
        #expect(silent.stderr.hasSuffix("expected 'pulse' to reach the microphone 'pulse'\n"), "\(silent.stderr)")
    }

    /// A live session through PulseAudio: the mix (the tenor alone, on a clarinet, whose samples are in tune)
    /// goes to the null sink, whose monitor is the microphone and stands for the singer (`--headphones`: without
    /// it, a microphone that hears only the mix hears nobody sing). Capture and playback are on one clock, so the
    /// notes heard are judged correct and on time. SIGINT ends the session cleanly with a report saying where it
    /// stopped, and a history that keeps it as interrupted there; SIGKILL keeps what was judged up to a second before.
    @Test(arguments: [SIGINT, SIGKILL])
    func liveSessionEndsOnSignal(signal: Int32) throws {
        let server = try Self.server()
        func signalled() throws -> (data: String, stdout: String, stderr: String, status: Int32) {
            let data = try PracticeCommandTests.dataHome()
            let session = Process()
            session.executableURL = CLI.executable
            session.arguments = [
                "practice", CLI.example, "--part", "tenor", "--solo", "tenor", "--my-instrument", "clarinet",
                "--input", "pulse", "--output", "pulse", "--headphones", "--report", data + "/report.json",
            ]
            session.currentDirectoryURL = CLI.root
            session.environment = ProcessInfo.processInfo.environment.merging(server.environment) { $1 }
                .merging(["XDG_DATA_HOME": data, "XDG_CONFIG_HOME": data, "NO_COLOR": "1"]) { $1 }
            let out = Pipe(), err = Pipe()
            session.standardOutput = out
            session.standardError = err
            let progress = StampedLines(out)
            try session.run()
            // Signalled a second after the 10th note was judged (the first of m. 5, as its progress line says),
            // not after a fixed time: a session slowed by ThreadSanitizer on a loaded machine had judged 5 in 14 s.
            progress.wait(within: 60) { $0.contains { $0.hasPrefix("measure 5: ") } }
            Thread.sleep(forTimeInterval: 1)
            kill(session.processIdentifier, signal)
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            session.waitUntilExit()
            return (data, progress.text(), stderr, session.terminationStatus)
        }
        var run = try signalled()
        // A session that underran while the rest of the suite loads both cores tests the load, not choir: it runs
        // again, up to three times in all, and the last is held to everything (a fault of choir's shows in each).
        for _ in 1..<3 where signal == SIGINT {
            let audio = (try? PracticeCommandTests.json(run.data + "/report.json"))?["audio"] as? [String: Any]
            guard audio?["underruns"] as? Int != 0 else { break }
            print("the session underran (\(audio ?? [:])); running it again")
            run = try signalled()
        }
        let (data, stdout, stderr) = (run.data, run.stdout, run.stderr)
        let history = try CLI.run(["history"], environment: ["XDG_DATA_HOME": data])
        let row = history.stdout.split(separator: "\n").first { $0.contains("#1 ") }.map(String.init) ?? ""
        if signal == SIGINT {
            #expect(run.status == 128 + SIGINT, "\(stderr)")
            #expect(stdout.contains("Accuracy: "), "\(stdout)")
            #expect(stdout.contains("\nAudio: 0 underruns, 0 overruns, 0 samples dropped\n"), "\(stdout)")
            // Ended before the end, the session is kept as interrupted, with what was sung.
            #expect(row.contains("(interrupted"), "\(history.stdout)")
            // The report and the history hold the same notes, and say where the session stopped.
            let judged = stdout.split(separator: "\n").first { $0.hasPrefix("Accuracy:") }.map(String.init) ?? ""
            let count = judged.split(separator: " ").last(where: { Int($0) != nil }).flatMap { Int($0) } ?? 0
            #expect(count >= 10, "\(judged)")
            let interrupted = stdout.split(separator: "\n").first { $0.hasPrefix("Interrupted in m. ") }.map(String.init) ?? ""
            #expect(interrupted.hasSuffix(", after \(count) of 28 notes; the rest not judged"), "\(stdout)")
            let rebuilt = try CLI.run(["report", "1"], environment: ["XDG_DATA_HOME": data])
            #expect(
                rebuilt.stdout.contains(judged + "\n" + interrupted + "\n") && rebuilt.stdout.contains("\nAudio: 0 underruns, "),
                "\(rebuilt.stdout)")
            let audio = try PracticeCommandTests.json(data + "/report.json")["audio"] as? [String: Any]
            #expect(audio?["underruns"] as? Int == 0 && audio?["overruns"] as? Int == 0, "\(String(describing: audio))")
            // What was played is what was written, so every note heard is correct, and on time: the clarinet
            // speaks within 30 ms in a rendered file, and the clocks add no more than a few milliseconds once running.
            let notes = try #require(PracticeCommandTests.json(data + "/report.json")["notes"] as? [[String: Any]])
            let verdicts = notes.map { $0["verdict"] as? String ?? "" }
            #expect(verdicts.allSatisfy { $0 == "correct" }, "\(verdicts)")
            // The first entrance comes as both streams have just started, and their offset is still settling: it
            // reads 27 to 56 ms late (under ThreadSanitizer the most), where a rendered file reads it 29 ms.
            let onsets = notes.compactMap { $0["onset_error_s"] as? Double }
            #expect(
                onsets.count == notes.count && abs(onsets.first ?? 1) < 0.07 && onsets.dropFirst().allSatisfy { abs($0) < 0.045 },
                "\(onsets)")
        } else {
            #expect(run.status == SIGKILL)
            #expect(row.contains("interrupted"), "\(history.stdout)")
            let notes = try CLI.run(["report", "1"], environment: ["XDG_DATA_HOME": data]).stdout
            let judged = notes.split(separator: "\n").first { $0.hasPrefix("Accuracy:") }.map(String.init) ?? ""
            let count = judged.split(separator: " ").last(where: { Int($0) != nil }).flatMap { Int($0) } ?? 0
            #expect(count >= 10, "\(notes)")
        }
    }

    /// The audio server dies while a finished session's report is on the page, its devices stopped but not yet
    /// closed: Enter still ends choir, at once. (Closing the capture device deadlocked in PulseAudio's plugin, and
    /// choir waited for ever, deaf to signals, since the first had been taken.)
    @Test func choirEndsAfterItsServerHasGone() throws {
        let server = try PulseServer()
        defer { kill(server.processID, SIGKILL) }
        let data = try PracticeCommandTests.dataHome()
        let terminal = try Self.liveSession(["--view", "--to", "2"], data: data, server: server)
        let lingering = try terminal.wait(40) { $0.joined().contains("press Enter to close it") }
        try #require(lingering.joined().contains("press Enter to close it"), "\(lingering)")
        kill(server.processID, SIGKILL)
        Thread.sleep(forTimeInterval: 1)
        try terminal.send("Enter")
        let started = Date()
        let screen = try terminal.wait(15) { $0.joined().contains("[exit ") }
        #expect(screen.joined().contains("[exit 0]"), "\(screen.joined(separator: "\n"))")
        #expect(Date().timeIntervalSince(started) < 6, "choir took \(Date().timeIntervalSince(started)) s to end")
    }

    /// The audio server dies mid-session (SIGKILL), taking both devices with it, or freezes (SIGSTOP), leaving
    /// the plugin's calls waiting for ever: the session ends at once (within a few seconds when frozen) and
    /// cleanly, with a report that says why and a history holding the notes judged until then, kept as interrupted.
    @Test(arguments: [SIGKILL, SIGSTOP])
    func aVanishingDeviceEndsTheSessionCleanly(signal: Int32) throws {
        // A server of its own: the suite's goes on serving the other tests.
        let server = try PulseServer()
        let data = try PracticeCommandTests.dataHome()
        let pid = server.processID
        DispatchQueue.global().asyncAfter(deadline: .now() + 8) { kill(pid, signal) }
        // A frozen server cannot be stopped politely.
        defer { kill(pid, SIGKILL) }
        let started = Date()
        let result = try CLI.run(
            [
                "practice", CLI.example, "--part", "tenor", "--solo", "tenor", "--my-instrument", "clarinet",
                "--input", "pulse", "--output", "pulse", "--headphones", "--report", data + "/report.json",
            ],
            environment: server.environment.merging(["XDG_DATA_HOME": data, "XDG_CONFIG_HOME": data]) { $1 }, timeout: 40)
        #expect(Date().timeIntervalSince(started) < (signal == SIGKILL ? 12 : 20), "the session outlived its devices")
        // The report is out, and the status (EX_IOERR) says the session did not end as the singer chose.
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("; the session ends here\n") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stdout.contains("\nEnded early: ") && result.stdout.contains("\nInterrupted in m. "), "\(result.stdout)")
        let judged = try #require(PracticeCommandTests.json(data + "/report.json")["notes"] as? [[String: Any]])
        #expect(judged.count >= 5, "\(judged.count) notes judged")
        let audio = try PracticeCommandTests.json(data + "/report.json")["audio"] as? [String: Any]
        #expect(audio?["error"] is String, "\(String(describing: audio))")
        let history = try CLI.run(["history"], environment: ["XDG_DATA_HOME": data])
        let row = history.stdout.split(separator: "\n").first { $0.contains("#1 ") }.map(String.init) ?? ""
        // Ended early, it is kept as interrupted, with what was sung.
        #expect(row.contains("interrupted"), "\(history.stdout)")
        let rebuilt = try CLI.run(["report", "1"], environment: ["XDG_DATA_HOME": data])
        #expect(rebuilt.stdout.contains("\nEnded early: ") && rebuilt.stdout.contains("\nInterrupted in m. "), "\(rebuilt.stdout)")
    }
}

/// A terminal for a test: a private tmux server with one window of a given size running one command.
final class TerminalSession {
    let socket = "choir-test-\(UUID().uuidString)"
    let environment: [String: String]
    /// Everything the command wrote to the terminal, escapes and all: a crash's message written on the alternate
    /// screen is in no scrollback, only here.
    let output: String

    init(_ command: [String], width: Int = 80, height: Int = 24, environment: [String: String]) throws {
        self.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        // The shell keeps the window open after choir exits, so that its last screen can be read, and says whether
        // the terminal was left in cooked mode ("icanon") or raw ("-icanon").
        let line =
            command.map { "'\($0)'" }.joined(separator: " ")
            + "; echo \"[exit $?] $(stty -a | grep -o -- '-*icanon')\"; sleep 60"
        output = FileManager.default.temporaryDirectory.appendingPathComponent(socket + ".out").path
        var status: Int32 = 0
        // One client runs both commands, so the pipe is in place before the server reads the pane's first output.
        let client = try spawn(
            "/usr/bin/tmux",
            [
                "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)", "-c", CLI.root.path, line, ";",
                "pipe-pane", "-o", "cat > '\(output)'",
            ],
            environment: self.environment)
        waitpid(client, &status, 0)
        let running = try tmux(["has-session"])
        try #require(running.isEmpty, "tmux did not start: \(running)")
    }

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(atPath: output)
    }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        try runTool("/usr/bin/tmux", ["-L", socket, "-f", "/dev/null"] + arguments, environment: environment).output
    }

    /// The screen's text, one string per row.
    func screen() throws -> [String] {
        try tmux(["capture-pane", "-p"]).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    func send(_ keys: String...) throws { try tmux(["send-keys"] + keys) }

    /// A tmux format's value for the window's pane, such as `#{alternate_on}`.
    func pane(_ format: String) throws -> String {
        try tmux(["display", "-p", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits up to `timeout` seconds for the screen to satisfy `condition`; returns the last screen.
    @discardableResult
    func wait(_ timeout: Double = 10, until condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var last: [String] = []
        while Date() < deadline {
            last = try screen()
            if condition(last) { return last }
            Thread.sleep(forTimeInterval: 0.1)
        }
        // Not a failure by itself (the caller's expectations say what was wanted), but what scrolled off the
        // screen, such as a crash's message, is kept in the log.
        let history = (try? tmux(["capture-pane", "-p", "-S", "-"])) ?? ""
        FileHandle.standardError.write(Data("terminal \(socket) timed out; its history:\n\(history)\n".utf8))
        if let written = FileManager.default.contents(atPath: output) {
            let text = String(decoding: written, as: UTF8.self).replacing(/\u{1B}\[[0-9;?]*[A-Za-z]/, with: "")
            FileHandle.standardError.write(Data("the end of what it wrote:\n\(text.suffix(5000))\n".utf8))
        }
        return last
    }
}

extension RealTimeTests {
    static func liveSession(_ extra: [String], data: String, server: PulseServer) throws -> TerminalSession {
        try TerminalSession(
            [
                CLI.executable.path, "practice", CLI.example, "--part", "tenor", "--solo", "tenor", "--my-instrument", "clarinet",
                "--input", "pulse", "--output", "pulse", "--headphones",
            ] + extra,
            environment: server.environment.merging([
                "XDG_DATA_HOME": data, "XDG_CONFIG_HOME": data, "XDG_CACHE_HOME": data, "NO_COLOR": "1", "TERM": "xterm-256color",
            ]) { $1 })
    }

    /// `--view` beside the live view: the page's bouncing ball is over the note the session is at, whose pitch and
    /// measure the engraving gives; the pages turn on, that note always in sight; performance mode obeys only the
    /// transport keys; and the page shows what was sung within 50 ms of the terminal.
    @Test func theScoreViewFollowsALiveSession() throws {
        let server = try Self.server()
        let data = try PracticeCommandTests.dataHome()
        let terminal = try Self.liveSession(["--view", "--report", data + "/live.json"], data: data, server: server)
        var address = "", first = ""
        let deadline = Date().addingTimeInterval(20)
        while address.isEmpty && Date() < deadline {
            let normal = try terminal.tmux(["capture-pane", "-p", "-a"]) + "\n" + terminal.screen().joined(separator: "\n")
            first = normal.split(separator: "\n").first.map(String.init) ?? ""
            address =
                normal.split(separator: "\n").first { $0.hasPrefix("Score view: ") }.map { String($0.dropFirst("Score view: ".count)) }
                ?? ""
            Thread.sleep(forTimeInterval: 0.1)
        }
        try #require(address.hasPrefix("http://127.0.0.1:"))
        #expect(first == "Score view: " + address, "the first line printed: \(first)")
        let browser = try Browser()
        try browser.open(address)
        let sample = """
            (() => {
              const ball = document.querySelector('#ball'), stage = document.querySelector('#stage');
              const note = ball.dataset.id && document.getElementById(ball.dataset.id), box = note && note.getBoundingClientRect();
              const area = stage.getBoundingClientRect();
              // Before the page has laid out or heard from the session, a number can be NaN, which JSON cannot carry.
              const finite = (x) => (Number.isFinite(x) ? x : -1);
              return { time: finite(Number(stage.dataset.time)), hidden: ball.hidden, index: finite(Number(ball.dataset.note ?? -1)),
                pitch: note ? note.dataset.pname + note.dataset.oct : '', measure: note ? note.closest('g.measure').dataset.n : '',
                // Whether the note is in a slot of the stage that shows, within its bounds.
                seen: !!box && [...document.querySelectorAll('.slot')].some((slot) => { const edge = slot.getBoundingClientRect();
                  return !slot.hidden && slot.contains(note) && box.top + box.height / 2 >= edge.top && box.top + box.height / 2 <= edge.bottom; }),
                where: document.querySelector('#where').textContent,
                pages: `${stage.dataset.top}/${stage.dataset.bottom}`, engraving: stage.dataset.engraving ?? '' };
            })()
            """
        var samples: [(terminal: String, page: [String: Any])] = []
        var performed = false
        // The last sample before performance mode's checks, which take the loop away for a few seconds.
        var beforePerforming = 0
        var screen: [String] = []
        let end = Date().addingTimeInterval(90)
        while Date() < end {
            screen = try terminal.screen()
            if screen.joined().contains("press Enter to close it") { break }
            guard let page = try browser.eval(sample) as? [String: Any] else { continue }
            samples.append((screen[0], page))
            // Once into m. 5, performance mode: the other keys are ignored, space pauses and plays.
            if !performed && screen[0].contains("m. 5:") {
                performed = true
                beforePerforming = samples.count - 1
                try browser.key("f")
                #expect(try browser.wait("document.body.classList.contains('performance')"))
                for key in ["m", "+", "l"] { try browser.key(key) }
                Thread.sleep(forTimeInterval: 0.6)
                let top = try terminal.screen()[0]
                #expect(!top.contains("muted") && !top.contains("%)") && !top.contains("loop"), "\(top)")
                // The page redraws for performance mode. With the other suites loading both cores, one screenshot in
                // `just test` showed neither the staff nor the ball 0.6 s after the keys: it is taken again until it
                // shows them, for up to 3 s more.
                var shot = try browser.screenshot(data + "/performance.png")
                for _ in 0..<10
                where shot.pixels(near: (0xff, 0xf4, 0xb8), tolerance: 6).count <= 2000
                    || shot.pixels(near: (0xe8, 0x59, 0x0c), tolerance: 12).count <= 100
                {
                    Thread.sleep(forTimeInterval: 0.3)
                    shot = try browser.screenshot(data + "/performance.png")
                }
                #expect(shot.pixels(near: (0xee, 0xf1, 0xf5), tolerance: 2).count < 100, "the toolbar shows in performance mode")
                #expect(shot.pixels(near: (0xff, 0xf4, 0xb8), tolerance: 6).count > 2000, "the tenor's staff is not highlighted")
                #expect(shot.pixels(near: (0xe8, 0x59, 0x0c), tolerance: 12).count > 100, "no ball")
                try browser.key("Space")
                #expect(try terminal.wait { $0[0].contains("paused") }[0].contains("paused"))
                try browser.key("Space")
                #expect(try terminal.wait { $0[0].hasSuffix("playing") }[0].hasSuffix("playing"))
                try browser.key("Escape")
            }
            Thread.sleep(forTimeInterval: 0.15)
        }
        try #require(performed && beforePerforming + 1 < samples.count)
        try terminal.send("Enter")
        screen = try terminal.wait { $0.joined().contains("[exit 0]") }
        // The tenor's notes as `choir notes` lists them ([onset, duration, midi, seconds, measure, …]), each named
        // as the report spells it. A note the pause fell in is not judged, so it has no name: its pitch is not checked.
        let listed = try CLI.run(["notes", CLI.example, "--part", "tenor", "--json"])
        let parts =
            try #require(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])["parts"] as? [[String: Any]]
        let notes = try #require(parts?.first?["notes"] as? [[Any]])
        let report = try PracticeCommandTests.json(data + "/live.json")
        let names = Dictionary(
            try #require(report["notes"] as? [[String: Any]]).map {
                ($0["index"] as! Int, ($0["expected_name"] as! String).lowercased().filter { $0.isLetter || $0.isNumber })
            }
        ) { first, _ in first }

        // The ball is over the note at the page's time, the engraving's own pitch and measure; and the page's measure
        // is the terminal's, but for samples taken as a measure turned.
        var wrongNote: [String] = [], sameMeasure = 0, sung = 0, sampled = Set<String>()
        for (top, page) in samples where (page["time"] as! Double) >= 0 && page["hidden"] as? Bool == false {
            sung += 1
            let time = page["time"] as! Double
            guard let index = notes.lastIndex(where: { ($0[3] as! Double) <= time + 1e-3 }) else { continue }
            let measure = notes[index][4] as! String
            sampled.insert(measure)
            if page["index"] as? Int != index || page["measure"] as? String != measure
                || names[index].map({ page["pitch"] as? String != $0 }) == true
            {
                wrongNote.append("\(time): \(page) against note \(index) in m. \(measure), \(names[index] ?? "not judged")")
            }
            let where_ = (page["where"] as! String).split(separator: ":").first.map(String.init) ?? ""
            if top.contains(where_ + ":") { sameMeasure += 1 }
        }
        #expect(wrongNote.count <= sung / 50, "\(wrongNote.count) of \(sung):\n\(wrongNote.prefix(5).joined(separator: "\n"))")
        // The ball was seen throughout: of the measures after the page first heard the session's time (the session
        // plays as it starts, while the page engraves and connects: in ci41 the page said 0 s, then nothing till 6.75 s),
        // but those played while performance mode was checked, no two in a row were missed, nor the last. The samples
        // come as the loop can take them, 135 alone and 59 in ci40, where a slow look left m. 1 (2.25 s) without one.
        // With the other suites loading both cores, as few as 4 measures were left to check (ci42: the page heard the
        // session at 7.6 s, and performance mode's checks took mm. 5–12).
        let times = (samples[beforePerforming].page["time"] as! Double, samples[beforePerforming + 1].page["time"] as! Double)
        let checking = min(times.0, times.1)...max(times.0, times.1)
        let firstSeen =
            samples.lazy.filter { ($0.page["time"] as! Double) > 0 && $0.page["hidden"] as? Bool == false }
            .map { $0.page["time"] as! Double }.first ?? .infinity
        let starts = notes.map { ($0[4] as! String, $0[3] as! Double) }.reduce(into: [(String, Double)]()) {
            if $0.last?.0 != $1.0 { $0.append($1) }
        }
        let measures = zip(starts, starts.dropFirst().map(\.1) + [.infinity]).filter { measure, end in
            end > firstSeen && !checking.overlaps(measure.1..<end)
        }.map(\.0.0)
        let missed = measures.map { !sampled.contains($0) }
        #expect(
            measures.count >= 4 && missed.last == false && !zip(missed, missed.dropFirst()).contains { $0 && $1 },
            "\(sung) samples from \(firstSeen) s, none in mm. \(Set(measures).subtracting(sampled).sorted()) of \(measures)")
        #expect(Double(sameMeasure) >= 0.85 * Double(sung), "\(sameMeasure) of \(sung) samples in the terminal's measure")

        // The pages turn on from the first to the last (whole, or the next one's top over this one's bottom), and the
        // note the ball is on is always in sight.
        // (Before the page has its engraving, the stage shows no page: "undefined/undefined".) Performance mode
        // resizes the pane, and the page engraves the score again for it: its pages break elsewhere, so the page
        // number may go back (ci on 16623bc: 1/1, 2/2, then 1/1 in performance mode's engraving, 2/2 after it). The
        // pages only ever turn on within one engraving.
        let states = samples.map { (engraving: $0.page["engraving"] as! String, pages: $0.page["pages"] as! String) }
            .filter { !$0.pages.contains("undefined") }
        let order = states.reduce(into: [(engraving: String, pages: String)]()) { if $0.last.map({ $0 != $1 }) ?? true { $0.append($1) } }
        let turns = order.map { (engraving: $0.engraving, pages: $0.pages.split(separator: "/").compactMap { Int($0) }) }
        #expect(
            order.first?.pages == "1/1" && turns.count >= 2 && turns.last.map { $0.pages[0] == $0.pages[1] } == true
                && zip(turns, turns.dropFirst()).allSatisfy {
                    $0.engraving != $1.engraving || ($0.pages[1] <= $1.pages[1] && $0.pages[0] <= $1.pages[0])
                }, "\(order)")
        let misplaced = samples.filter { $0.page["hidden"] as? Bool == false && $0.page["seen"] as? Bool != true }
        #expect(misplaced.isEmpty, "\(misplaced.prefix(3).map(\.page))")

        // The delays from microphone to screen, as the session measured them for the terminal and the page.
        let said = screen.joined()
        func delays(_ prefix: String) -> (median: Int, p95: Int)? {
            guard let range = said.range(of: prefix) else { return nil }
            let numbers = said[range.upperBound...].split { !$0.isNumber }.prefix(3).compactMap { Int($0) }
            return numbers.count == 3 ? (numbers[0], numbers[2]) : nil
        }
        let view = try #require(delays("the score view showed what was sung "), "\(said)")
        let tty = try #require(delays("choir: the view showed what was sung "), "\(said)")
        print(
            "delay to the screen, median and 95th percentile: terminal \(tty.median) and \(tty.p95) ms, score view \(view.median) and \(view.p95) ms"
        )
        // The page is not systematically behind the terminal. Its tail is headless Chromium painting and reporting
        // back on two cores the other suites load (95th percentile 245 ms against the terminal's 100 in ci11): a
        // figure for the benchmarks (`Benchmarks/measure-live.py`, the StudioPage benchmark), not a test's bound.
        #expect(view.median <= tty.median + 50, "terminal \(tty), score view \(view)")
    }

    /// `choir view`: the example engraved in a browser and played from the page on a PulseAudio null sink, while
    /// `choir pitch --live` listens to the sink's monitor. The music waits for the page; space plays it, and the ball
    /// follows the tenor's notes; a click on a measure plays from there, as the listener hears; + speeds it up; at the
    /// end it waits to be played again, from the top; the page's end button ends choir. Without --part the ball
    /// follows the top line, nothing is highlighted, and the singer's own buttons are gone. It plays in periods of
    /// 512 frames: the default 256 underran once in 7.7 s with the rest of the tests, Chromium and the listener
    /// sharing two cores.
    @Test func theViewCommandPlaysFromThePage() throws {
        let server = try Self.server()
        let data = try PracticeCommandTests.dataHome()
        let cache = ["XDG_CACHE_HOME": data]
        let browser = try Browser()
        // The test's own Chromium lays the page out beside the sound server's client on two cores that the other test
        // runs also load, and an underrun there shifts what the listener hears (2 in rehearsal 6, and the sound of
        // m. 6 came 107 ms off): played again after one, up to three times in all, and judged on the last playing.
        // Underruns are counted and placed by `playThroughPulseAudio` and `anUnderrunIsCountedAndPlaced`; here what
        // the page and the listener show is the test (in rehearsal 13 both playings underran, 1 and 4 times, and the
        // second still passed every check below).
        var played = try Self.playFromThePage(server: server, browser: browser, environment: cache)
        for _ in 1..<3 where played.underruns != 0 {
            print("view: \(played.ended.stderr.trimmingCharacters(in: .newlines)); playing again")
            played = try Self.playFromThePage(server: server, browser: browser, environment: cache)
        }
        #expect(played.ended.status == 0 && played.ended.stderr.contains("choir: the view played on 'pulse' for "), "\(played.ended)")
        // Playing from the first sample on, the page has a time past 0 in every one; one lost to a slow page at most.
        #expect(played.sampled >= 7 && played.followed.isEmpty, "\(played.sampled) of 8 samples while playing: \(played.followed)")
        // The music waited for the page, at the start.
        #expect(played.waiting["play"] as? String == "play" && played.waiting["time"] as? Double == 0, "\(played.waiting)")
        // The click plays m. 5 next, whether it came in m. 2 or, on a loaded machine, in m. 3.
        let clicked = played.measures.firstIndex(of: "measure 5") ?? played.measures.count
        #expect(
            [["measure 0", "playing", "measure 1", "measure 2"], ["measure 0", "playing", "measure 1", "measure 2", "measure 3"]]
                .contains(Array(played.measures[..<clicked]))
                && played.measures[clicked...] == ["measure 5", "measure 6", "paused", "playing", "measure 0"], "\(played.measures)")
        #expect(played.held > played.fifth + 2.5, "m. 5 heard at \(played.fifth), the end at \(played.held)")
        // What the listener heard from the click on: m. 5's B3, then m. 6's G3 a measure and a half later (at 105%).
        let changes = played.changes
        #expect(changes.prefix(2).map(\.midi) == [59, 55], "\(changes)")
        if changes.count >= 2 { #expect(abs(changes[1].time - changes[0].time - 1.5 / 1.05) < 0.08, "\(changes)") }

        // Without --part: the top line's notes lead the ball, and there is no line of the singer's.
        let everyone = try Launched(["view", CLI.example, "--device", "pulse", "--to", "2"], server: server, environment: cache)
        let address = try #require(everyone.line(within: 60) { $0.hasPrefix("Score view: ") }, "\(everyone.finish())")
        try browser.open(String(address.line.dropFirst("Score view: ".count)))
        // The session's state has reached the page (its socket is open: a key pressed before is lost).
        try #require(try browser.wait("document.body.dataset.time !== undefined"))
        let shown = try #require(try browser.eval(Self.pageState) as? [String: Any])
        #expect(
            shown["title"] as? String == "Amazing Grace" && shown["mine"] as? Int == 0 && shown["singer"] as? [Bool] == [false, false],
            "\(shown)")
        try browser.key("Space")
        #expect(
            try browser.wait(
                "(() => { const ball = document.querySelector('#ball'), note = ball.dataset.id && document.getElementById(ball.dataset.id); return !ball.hidden && note && note.closest('g.staff').dataset.n === '1'; })()"
            ))
        try everyone.input.fileHandleForWriting.write(contentsOf: Data("\n".utf8))
        let closed = everyone.finish()
        #expect(closed.status == 0, "\(closed)")
    }

    /// What the page shows of the session: its title, whether the accuracy is hidden, how many of the singer's notes
    /// it highlights, the play button's word, whether the singer's own buttons show, its time and its tempo.
    static let pageState = """
        (() => ({ title: document.querySelector('#title').textContent, accuracy: document.querySelector('#accuracy').hidden,
          mine: document.querySelectorAll('g.note.mine').length, play: document.querySelector('#bar button[data-key=" "]').textContent,
          singer: ['m', 'p'].map((key) => !document.querySelector(`#bar button[data-key="${key}"]`).hidden),
          time: Number(document.querySelector('#stage').dataset.time), tempo: document.querySelector('#tempo').textContent }))()
        """

    /// What `theViewCommandPlaysFromThePage` observes of one playing, for it to judge once it knows whether the
    /// playing underran.
    struct PagePlay {
        var ended: (status: Int32, stderr: String)
        var underruns: Int
        /// What the page showed a second after it opened, before it was played.
        var waiting: [String: Any]
        var sampled: Int, followed: [String]
        var measures: [String]
        var fifth: Double, held: Double
        var changes: [(time: Double, midi: Int, said: Double)]
    }

    /// `choir view` of the tenor's first six measures at ♩ = 120 played from the page in `browser`, with `choir pitch
    /// --live` listening: played from the top, m. 5 clicked half a second into m. 2, sped up, played to the end and
    /// started again, then ended from the page. What does not depend on the timing is expected here.
    static func playFromThePage(server: PulseServer, browser: Browser, environment: [String: String]) throws -> PagePlay {
        let viewer = try Launched(
            [
                "view", CLI.example, "--part", "tenor", "--device", "pulse", "--solo", "T", "--instrument", "T=clarinet",
                "--to", "6", "--bpm", "120", "--period", "512",
            ], server: server, environment: environment)
        let first = try #require(viewer.line(within: 60) { $0.hasPrefix("Score view: ") }, "\(viewer.finish())")
        #expect(viewer.lines.lines.first?.line == first.line)
        try browser.open(String(first.line.dropFirst("Score view: ".count)))
        // Drawn, and the session's state has reached the page: its socket is open (in ci31 a Space pressed before
        // it opened was lost, and the music never played).
        try #require(
            try browser.wait(
                "document.querySelectorAll('g.note.mine').length > 0 && document.body.dataset.time !== undefined"))
        var shown = try #require(try browser.eval(Self.pageState) as? [String: Any])
        #expect(shown["title"] as? String == "Amazing Grace — Tenor" && shown["accuracy"] as? Bool == true, "\(shown)")
        #expect(shown["singer"] as? [Bool] == [true, true] && (shown["mine"] as? Int ?? 0) > 10, "\(shown)")
        // The music waits for the page.
        Thread.sleep(forTimeInterval: 1)
        shown = try #require(try browser.eval(Self.pageState) as? [String: Any])
        let waiting = shown
        #expect(!viewer.lines.lines.contains { $0.line == "playing" })

        let listener = try Launched(["pitch", "--live", "--input", "pulse", "--duration", "10"], server: server)
        Thread.sleep(forTimeInterval: 1)
        try browser.key("Space")
        #expect(viewer.line { $0 == "playing" } != nil)
        // The ball is on the tenor's note being heard, as `choir notes` places them (in quarter notes, at ♩ = 120).
        let listed = try CLI.run(["notes", CLI.example, "--part", "tenor", "--json"])
        let parts =
            try #require(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])["parts"] as? [[String: Any]]
        let notes = try #require(parts?.first?["notes"] as? [[Any]])
        let ball =
            "(() => { const ball = document.querySelector('#ball'); return [Number(document.querySelector('#stage').dataset.time), ball.hidden, Number(ball.dataset.note ?? -1)]; })()"
        var followed: [String] = [], sampled = 0
        for _ in 0..<8 {
            Thread.sleep(forTimeInterval: 0.13)
            guard let sample = try browser.eval(ball) as? [Any], let time = sample[0] as? Double, time > 0 else { continue }
            sampled += 1
            // The page shows its time rounded to the millisecond, so a note that starts within half of one may be
            // either side of it.
            let near = Set([time - 5e-4, time + 5e-4].map { edge in notes.lastIndex { ($0[0] as! Double) * 0.5 <= edge } ?? -1 })
            if sample[1] as? Bool != false || !near.contains(sample[2] as? Int ?? -2) {
                followed.append("\(sample) against notes \(near.sorted())")
            }
        }

        // Half a second into m. 2, a click on m. 5: it plays from there.
        let second = try #require(viewer.line { $0 == "measure 2" })
        Thread.sleep(forTimeInterval: max(0, second.seconds + 0.5 - StampedLines.now()))
        _ = try browser.eval(#"document.querySelector('g.measure[data-n="5"]').dispatchEvent(new MouseEvent('click', { bubbles: true }))"#)
        let fifth = try #require(viewer.line { $0 == "measure 5" })
        try browser.key("+")
        #expect(try browser.wait("document.querySelector('#tempo').textContent === '♩ = 126 (105%)'"))
        // Played to its end, it waits there; played again, it starts from the top.
        let held = try #require(viewer.line(within: 15) { $0 == "paused" })
        #expect(try browser.wait("document.querySelector('#bar button[data-key=\" \"]').textContent === 'play'"))
        _ = listener.finish()
        try browser.key("Space")
        #expect(viewer.lines.wait { $0.count { $0 == "measure 0" } == 2 })
        let measures = viewer.lines.lines.map(\.line).filter { $0.hasPrefix("measure ") || $0 == "playing" || $0 == "paused" }
        let changes = Self.noteChanges(listener.lines).filter { $0.said > fifth.seconds - 0.05 }
        _ = try browser.eval(#"document.querySelector('#bar button[data-key="q"]').click()"#)
        let ended = viewer.finish()
        #expect(ended.stderr.contains(" underruns"), "\(ended)")
        let underruns = ended.stderr.firstMatch(of: /, (\d+) underruns/).flatMap { Int($0.1) } ?? 99
        return PagePlay(
            ended: ended, underruns: underruns, waiting: waiting, sampled: sampled, followed: followed, measures: measures,
            fifth: fifth.seconds,
            held: held.seconds, changes: changes)
    }

    /// A live session with no sound (`--output none`) plays its mix silently on the music's true time, so that its
    /// transport works as with a device: the pickup and two bars at ♩ = 240 and their ring take 2.75 s; paused from
    /// the page, the session takes as much longer, and the page's clock stands still meanwhile.
    @Test func aLiveSessionWithNoSoundIsSteeredOnTrueTime() throws {
        let server = try Self.server()
        let data = try PracticeCommandTests.dataHome()
        let session = try Launched(
            [
                "practice", CLI.example, "--part", "tenor", "--input", "pulse", "--output", "none", "--headphones", "--to", "2", "--bpm",
                "240", "--no-history", "--view",
            ], server: server, environment: ["XDG_CACHE_HOME": data, "XDG_DATA_HOME": data])
        defer { if session.process.isRunning { kill(session.process.processIdentifier, SIGKILL) } }
        try session.input.fileHandleForWriting.close()
        let first = try #require(session.line(within: 60) { $0.hasPrefix("Score view: ") }, "\(session.finish())")
        let started = first.seconds
        let (host, page) = try ScoreViewTests.split(String(first.line.dropFirst("Score view: ".count)))
        let tab = try #require(HTTPProbe(port: try ScoreViewTests.port(host)))
        #expect(tab.upgrade(page + "live", host: host, origin: "http://" + host)?.status == 101)
        // The page is sent what changes: the latest state is the last message, however long ago it came.
        var latest: [String: Any]?
        func state() -> [String: Any]? {
            while let text = tab.text(within: 0.05) { latest = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] }
            return latest
        }
        // The singer pauses what they hear: the page's clock has moved. On a busy machine the first captured hop,
        // which puts the session on the mix's time line, can come a second or more after the page opens.
        var moving: [String: Any]?
        while moving == nil && StampedLines.now() - started < 30 {
            Thread.sleep(forTimeInterval: 0.1)
            moving = state().flatMap { ($0["time"] as? Double ?? 0) > 0 ? $0 : nil }
        }
        try #require(moving != nil, "\(String(describing: latest))")
        let pausedAt = StampedLines.now()
        tab.send(HTTPProbe.frame(opcode: 1, Array(#"{"command":"pause"}"#.utf8)))
        // What was rendered before the pause is still heard for the output's latency, longer on a busy machine.
        var paused = try #require(state())
        repeat {
            Thread.sleep(forTimeInterval: 0.3)
            let next = try #require(state())
            if paused["paused"] as? Bool == true && next["time"] as? Double == paused["time"] as? Double { break }
            paused = next
        } while StampedLines.now() - pausedAt < 3
        Thread.sleep(forTimeInterval: 0.8)
        let stillPaused = try #require(state())
        #expect(
            paused["paused"] as? Bool == true && stillPaused["time"] as? Double == paused["time"] as? Double, "\(paused) \(stillPaused)")
        let pause = StampedLines.now() - pausedAt
        tab.send(HTTPProbe.frame(opcode: 1, Array(#"{"command":"pause"}"#.utf8)))
        let ended = session.finish()
        let took = StampedLines.now() - started
        #expect(ended.status == 0, "\(ended.stderr)")
        // Unpaused, it would take 1.5–2 s less than this.
        #expect(took - pause > 2.4 && took - pause < 3.9, "the session took \(took) s, paused for \(pause) s")
    }

    /// `choir view` on a terminal: a line says where the music is, and the terminal's keys steer it as the page's do.
    @Test func theViewCommandTakesTheTerminalsKeys() throws {
        let server = try Self.server()
        let data = try PracticeCommandTests.dataHome()
        let terminal = try TerminalSession(
            [CLI.executable.path, "view", CLI.example, "--part", "tenor", "--device", "pulse"],
            environment: server.environment.merging(["XDG_CACHE_HOME": data, "NO_COLOR": "1", "TERM": "xterm-256color"]) { $1 })
        var screen = try terminal.wait(60) { $0.count > 1 && $0[1].hasPrefix("m. 0:3  ♩ = 80  paused") }
        #expect(screen[0].hasPrefix("Score view: http://127.0.0.1:") && screen[1].hasPrefix("m. 0:3  ♩ = 80  paused"), "\(screen)")
        let steps: [(keys: [String], shows: (String) -> Bool)] = [
            (["Space"], { $0.contains("m. 1:") && $0.hasSuffix("playing") }),
            (["Right", "Right"], { $0.contains("m. 3:") }),
            (["+", "l"], { $0.contains("♩ = 84 (105%)  playing, loop mm. ") }),
        ]
        for (keys, shows) in steps {
            try terminal.tmux(["send-keys"] + keys)
            screen = try terminal.wait { shows($0[1]) }
            #expect(shows(screen[1]), "after \(keys): \(screen[1])")
        }
        try terminal.send("q")
        screen = try terminal.wait { $0.joined().contains("[exit 0]") }
        #expect(screen.joined(separator: "\n").contains("choir: the view played on 'pulse' for "), "\(screen)")
    }

    /// The live view in an 80×24 pseudo-terminal: it fills the screen with what the singer needs, and every
    /// key does what the help line says.
    @Test func liveViewFollowsTheKeys() throws {
        let server = try Self.server()
        let data = try PracticeCommandTests.dataHome()
        let terminal = try Self.liveSession([], data: data, server: server)
        // The first wait is long: a ThreadSanitizer build on a loaded machine can take a while to get going.
        var screen = try terminal.wait(30) { $0.joined().contains("m. 2:") }
        try #require(screen.count >= 24, "\(screen)")
        let text = screen.joined(separator: "\n")
        #expect(screen.count >= 24 && screen.allSatisfy { $0.count <= 80 }, "\(text)")
        #expect(screen[0].hasPrefix("Amazing Grace — Tenor") && screen[0].contains("♩ = 80   playing"), "\(text)")
        // The current syllable in brackets, the words after it on the same line.
        #expect(screen[1].contains("[") && screen[1].count > 60, "\(text)")
        #expect(screen[3].contains("target "), "\(text)")
        #expect(screen.contains { $0.hasPrefix("accuracy ") }, "\(text)")
        #expect(screen.contains { $0.hasPrefix("space pause · ←/→ measure · l loop") }, "\(text)")
        // The roll: the tenor's notes as bars (dashes without colour), the sung trace over them.
        #expect(screen.contains { $0.contains("-----") }, "\(text)")
        screen = try terminal.wait { $0.joined().contains("•") && !$0.joined().contains("accuracy –") }
        #expect(
            screen.joined().contains("•") && screen.contains { $0.hasPrefix("accuracy ") && $0.contains("%") },
            "\(screen.joined(separator: "\n"))")

        try terminal.send("+")
        screen = try terminal.wait { $0[0].contains("♩ = 84 (105%)") }
        #expect(screen[0].contains("♩ = 84 (105%)"), "\(screen[0])")
        try terminal.send("-", "-")
        screen = try terminal.wait { $0[0].contains("(95%)") }
        #expect(screen[0].contains("♩ = 76 (95%)"), "\(screen[0])")
        try terminal.send("m")
        screen = try terminal.wait { $0[0].contains("my part muted") }
        #expect(screen[0].contains("my part muted"), "\(screen[0])")
        try terminal.send("m")
        screen = try terminal.wait { !$0[0].contains("muted") }
        #expect(!screen[0].contains("muted"), "\(screen[0])")
        try terminal.send("Space")
        screen = try terminal.wait { $0[0].contains("paused") }
        #expect(screen[0].contains("paused"), "\(screen[0])")
        // The view shows what is heard, so it stops once the device has played what was rendered before the pause.
        Thread.sleep(forTimeInterval: 0.5)
        let pausedAt = try terminal.screen()[0]
        Thread.sleep(forTimeInterval: 1)
        let later = try terminal.screen()[0]
        #expect(later == pausedAt, "paused, yet \(pausedAt) became \(later)")
        try terminal.send("Space")
        screen = try terminal.wait { $0[0].hasSuffix("playing") }
        #expect(screen[0].hasSuffix("playing"), "\(screen[0])")
        let measure = { (line: String) -> Int in
            Int(line.split(separator: " ").first { $0.contains(":") }?.split(separator: ":").first ?? "") ?? -1
        }
        let before = measure(screen[0])
        try terminal.send("Right", "Right")
        screen = try terminal.wait { measure($0[0]) >= before + 2 }
        #expect(measure(screen[0]) >= before + 2, "\(before) → \(screen[0])")
        try terminal.send("l")
        screen = try terminal.wait { $0[0].contains("loop mm.") }
        #expect(screen[0].contains("loop mm."), "\(screen[0])")
        try terminal.send("q")
        screen = try terminal.wait { $0.joined().contains("[exit 0]") }
        let report = screen.joined(separator: "\n")
        #expect(report.contains("Accuracy: ") && report.contains("[exit 0]"), "\(report)")
        // Quit before the end, the session says where it stopped, and the history keeps it as interrupted.
        #expect(report.contains("\nInterrupted in m. ") && report.contains(" notes; the rest not judged"), "\(report)")
        let history = try CLI.run(["history"], environment: ["XDG_DATA_HOME": data]).stdout
        #expect(history.split(separator: "\n").first { $0.contains("#1 ") }?.contains("(interrupted") == true, "\(history)")
        // The delay from microphone to screen, as the session measured it (its figure is for the notes, not a test).
        // The line is longer than the screen is wide, so the rows are joined as they wrapped.
        let unwrapped = screen.joined()
        #expect(unwrapped.contains("choir: the view showed what was sung ") && unwrapped.contains(" ms to its centre"), "\(report)")
    }

    /// A pencil mark at m. 12 shows in the live view as the measure nears, and in the report after.
    @Test func theLiveViewShowsAMarkAtItsMeasure() throws {
        let server = try Self.server()
        let data = try PracticeCommandTests.dataHome()
        let marked = try CLI.run(
            ["mark", "add", CLI.example, "--part", "tenor", "--measure", "12", "breathe after 'grace'"],
            environment: ["XDG_DATA_HOME": data])
        try #require(marked.status == 0, "\(marked.stderr)")
        let terminal = try Self.liveSession(["--from", "11", "--to", "12"], data: data, server: server)
        // In the bar before, and in the measure itself.
        for bar in ["m. 11:", "m. 12:"] {
            let screen = try terminal.wait { $0[0].contains(bar) }
            #expect(screen[0].contains(bar) && screen[2].contains("✎ m. 12: breathe after 'grace'"), "\(screen.joined(separator: "\n"))")
        }
        var screen: [String]
        screen = try terminal.wait(20) { $0.joined().contains("[exit 0]") }
        #expect(screen.joined(separator: "\n").contains("Your marks:\n  m. 12: breathe after 'grace'"), "\(screen.joined(separator: "\n"))")
    }

    /// SIGTERM (a session killed) and SIGHUP (its terminal closed, as when an SSH session drops) end a live session in
    /// order: the history keeps what was judged, as interrupted where it stopped, the terminal is back in cooked mode
    /// on its normal screen, the report is printed (not for SIGHUP: the terminal has gone), and the exit status is
    /// 128 + the signal.
    @Test(arguments: [SIGTERM, SIGHUP])
    func terminationSignalsEndTheSessionInOrder(signal: Int32) throws {
        let server = try Self.server()
        let data = try PracticeCommandTests.dataHome()
        let terminal = try Self.liveSession([], data: data, server: server)
        try terminal.wait { $0.joined().contains("m. 3:") }
        #expect(try terminal.pane("#{alternate_on}") == "1")
        let shell = try terminal.pane("#{pane_pid}")
        let choir = try #require(
            Int32(
                try runTool("/usr/bin/pgrep", ["-P", shell], environment: [:]).output
                    .trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(choir, signal)
        let screen = try terminal.wait(15) { $0.joined().contains("[exit ") }
        let text = screen.joined(separator: "\n")
        #expect(text.contains("[exit \(128 + signal)] icanon"), "\(text)")
        #expect(try terminal.pane("#{alternate_on}") == "0")
        #expect(text.contains("Accuracy: ") == (signal == SIGTERM), "\(text)")
        let history = try CLI.run(["history"], environment: ["XDG_DATA_HOME": data])
        let row = history.stdout.split(separator: "\n").first { $0.contains("#1 ") }.map(String.init) ?? ""
        #expect(row.contains("(interrupted"), "\(history.stdout)")
        let rebuilt = try CLI.run(["report", "1"], environment: ["XDG_DATA_HOME": data]).stdout
        let judged = rebuilt.split(separator: "\n").first { $0.hasPrefix("Accuracy:") }.map(String.init) ?? ""
        #expect(judged.hasSuffix(" notes)") && !judged.hasPrefix("Accuracy: 0.0%"), "\(rebuilt)")
        let interrupted = rebuilt.split(separator: "\n").first { $0.hasPrefix("Interrupted in m. ") }.map(String.init) ?? ""
        #expect(interrupted.hasSuffix(" notes; the rest not judged"), "\(rebuilt)")
        if signal == SIGTERM { #expect(text.contains(judged) && text.contains(interrupted), "\(text)") }
    }

    /// A front end other than the command line: `session-driver` runs a live session through ChoirSession's API
    /// alone, reads snapshots, loops a phrase twice, steps back and lets the range finish. Every pass is in the
    /// history, which rebuilds exactly the report the front end got.
    ///
    /// Once in the whole suite's runs so far, the loop's pass came out early and wrong (27 of 32 notes right) under the
    /// other suites' load, and alone it never has. A run whose streams underran or overran tests the load, not the
    /// front end, so it is driven again, up to three times in all; the last is held to everything, and says what its
    /// streams did.
    @Test func aFrontEndDrivesALiveSessionThroughTheLibrary() throws {
        let server = try Self.server()
        var data = "", printed = "", driver: (status: Int32, output: String) = (0, "")
        for attempt in 1...3 {
            data = try PracticeCommandTests.dataHome()
            printed = data + "/printed.json"
            driver = try runTool(
                CLI.product("session-driver").path,
                [CLI.example, "tenor", data + "/choir/history.sqlite", printed],
                environment: ProcessInfo.processInfo.environment.merging(server.environment) { $1 })
            let audio = (try? PracticeCommandTests.json(printed))?["audio"] as? [String: Any]
            let faltered = ["underruns", "overruns", "dropped_samples"].filter { (audio?[$0] as? Int ?? 0) > 0 }
            guard driver.status == 0, !faltered.isEmpty, attempt < 3 else { break }
            print("the front end's session: \(faltered.joined(separator: ", ")) (\(audio ?? [:])); driving it again")
        }
        let stored = data + "/stored.json"
        try #require(driver.status == 0, "\(driver.output)")
        let log = driver.output.split(separator: "\n").map(String.init)
        #expect(
            log.first?.hasPrefix("snapshot pass 1 at m. ") == true && log.contains { $0.hasPrefix("looping mm. 1–") }, "\(driver.output)")
        #expect(log.contains { $0.hasPrefix("snapshot pass 3 ") } && log.contains { $0.hasPrefix("snapshot pass 4 ") }, "\(driver.output)")
        let report = try CLI.run(["report", "1", "--json", stored], environment: ["XDG_DATA_HOME": data])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(try String(contentsOfFile: stored, encoding: .utf8) == String(contentsOfFile: printed, encoding: .utf8))
        // Pass by pass: the phrase twice, then from a measure back to the end, every note heard as played.
        let notes = try #require(PracticeCommandTests.json(stored)["notes"] as? [[String: Any]])
        let passes = Dictionary(grouping: notes, by: { $0["pass"] as? Int ?? 0 })
        #expect(passes.keys.sorted() == [1, 2, 3, 4], "\(passes.mapValues(\.count))")
        #expect(passes[2]?.count ?? 0 >= 4 && passes[3]?.count ?? 0 >= 2 && passes[4]?.count ?? 0 >= 8, "\(passes.mapValues(\.count))")
        #expect(report.stdout.contains("\nPasses: 1: "), "\(report.stdout)")
        let verdicts = notes.map { $0["verdict"] as? String ?? "" }
        let audio = try PracticeCommandTests.json(stored)["audio"] ?? "none"
        #expect(Double(verdicts.count { $0 == "correct" }) >= 0.9 * Double(verdicts.count), "\(verdicts); the streams: \(audio)")
    }

    /// With `--lock` only space and q work: the tempo keys are ignored.
    @Test func performanceLockIgnoresTheOtherKeys() throws {
        let server = try Self.server()
        let data = try PracticeCommandTests.dataHome()
        let terminal = try Self.liveSession(["--lock"], data: data, server: server)
        var screen = try terminal.wait { $0.joined().contains("m. 1:") }
        #expect(
            screen[0].contains("locked") && screen.contains { $0.hasPrefix("locked: space pause · q quit") },
            "\(screen.joined(separator: "\n"))")
        try terminal.send("+", "m", "l", "Right")
        try terminal.send("Space")
        screen = try terminal.wait { $0[0].contains("paused") }
        #expect(screen[0].contains("♩ = 80   paused, locked"), "\(screen[0])")
        try terminal.send("q")
        screen = try terminal.wait { $0.joined().contains("[exit 0]") }
        #expect(screen.joined().contains("Accuracy: "), "\(screen.joined(separator: "\n"))")
    }
}

extension RealTimeTests {
    /// The whole live path with no sound card: choir plays the full mix into one null sink while a singer, the
    /// bundled take with its planted mistakes, sings into a second sink whose monitor is choir's microphone. The
    /// singer starts on the first beat after the count-in as choir's output is heard, the way a person would, so
    /// the live verdicts must be the file-mode verdicts on the same take.
    @Test func liveSessionJudgesAsTheFileSessionDoes() throws {
        let data = try PracticeCommandTests.dataHome()
        let takePath = CLI.root.appendingPathComponent("Resources/DemoTakes/amazing_grace_tenor.wav").path
        let (live, comparison, stderr) = try Self.sungComparison(
            take: takePath, data: data, server: try Self.server(), record: data + "/heard.flac")
        #expect(Double(comparison.agreeing) >= 0.95 * Double(comparison.expected.count), "\(comparison)")
        // Both sessions place the singer's entrances alike, mostly within a few milliseconds.
        #expect(comparison.lags.count >= comparison.expected.count / 2 && abs(comparison.medianLag) <= 80, "\(comparison)")
        #expect(Set(comparison.expected).count > 2, "the take's planted mistakes were judged: \(comparison.expected)")
        print("live session: \(comparison)")

        // What the microphone heard was kept on the mix's time line: the command the session printed judges it
        // again as the live session judged it, entrances where the live session heard them.
        let said = try #require(stderr.split(separator: "\n").first { $0.hasPrefix("choir: recorded ") }, "\(stderr)")
        let command = try #require(said.components(separatedBy: "; judge it again with: choir ").last)
        #expect(said.hasPrefix("choir: recorded ") && said.contains(" s to \(data)/heard.flac;"), "\(said)")
        let again = try CLI.run(command.split(separator: " ").map(String.init) + ["--report", data + "/again.json"])
        try #require(again.status == 0, "\(again.stderr)")
        let rejudged = Self.compare(try PracticeCommandTests.json(data + "/again.json"), live)
        #expect(Double(rejudged.agreeing) >= 0.95 * Double(rejudged.expected.count), "\(rejudged)")
        #expect(rejudged.lags.count >= rejudged.expected.count / 2 && abs(rejudged.medianLag) <= 10, "\(rejudged)")
        print("the live session's recording judged again: \(rejudged)")
    }

    /// The same, with the loudspeakers heard: PulseAudio loops choir's sink into the microphone's, 6 dB down, which
    /// puts the mix 10 dB under the singer, as a microphone in a room hears loudspeakers. The singer leaves out
    /// notes that the mix plays (the tenor line is in it), so only a judge that tells the singer from the
    /// loudspeakers calls them missing; the live verdicts must still be the file session's, and the session
    /// measures how loud the loudspeakers came through.
    @Test func liveSessionTellsTheSingerFromTheLoudspeakers() throws {
        let server = try Self.server()
        let data = try PracticeCommandTests.dataHome()
        let takePath = data + "/take.wav"
        try Self.writeTake(to: takePath, mistakes: [3: .missing, 9: .flat, 13: .missing, 18: .wrong, 24: .missing])
        let module = try server.run(
            "pactl", ["load-module", "module-loopback", "source=choir_test.monitor", "sink=choir_mic", "latency_msec=30"])
        try #require(module.status == 0, "\(module.output)")
        let index = module.output.trimmingCharacters(in: .whitespacesAndNewlines)
        defer { _ = try? server.run("pactl", ["unload-module", index]) }
        // The loopback's stream into choir_mic, by its driver (`pactl list short sink-inputs`: index, sink, client, driver).
        let inputs = try server.run("pactl", ["list", "short", "sink-inputs"]).output.split(separator: "\n").map {
            $0.split(separator: "\t")
        }
        let loop = try #require(inputs.first { $0.count > 3 && $0[3] == "module-loopback.c" }?.first)
        try #require(try server.run("pactl", ["set-sink-input-volume", String(loop), "-6dB"]).status == 0)

        let (live, comparison, _) = try Self.sungComparison(take: takePath, data: data, server: server)
        #expect(comparison.expected.count { $0 == "missing" } == 3, "\(comparison.expected)")
        #expect(Double(comparison.agreeing) >= 0.95 * Double(comparison.expected.count), "\(comparison)")
        let bleed = (live["audio"] as? [String: Any])?["loudspeakers_db"] as? Double
        #expect(bleed.map { (-16 ... -4).contains($0) } == true, "loudspeakers at \(String(describing: bleed)) dB")
        print("live session with the loudspeakers heard: \(comparison)")
    }

    /// The tenor of the example sung by choir's synthetic singer with `mistakes` planted, at 16 kHz.
    static func writeTake(to path: String, mistakes: [Int: PlantedMistake]) throws {
        let score = try ScoreReader.read(contentsOf: CLI.root.appendingPathComponent(CLI.example).path)
        var options = PlaybackOptions()
        options.singer = try LineSelector.select("tenor", from: score.lines)
        let schedule = try Schedule(score: score, lines: score.lines, options: options)
        let notes = ExpectedNote.notes(of: options.singer!, in: schedule, score: score)
        let take = SyntheticSinger(sampleRate: 16000, seed: 11).sing(notes, mistakes: mistakes, length: schedule.length + 1)
        let writer = try AudioFile.Writer(path: path, sampleRate: 16000)
        try take.samples.withUnsafeBufferPointer { try writer.append(interleaved: $0) }
        try writer.finish()
    }

    /// Judges `take` as a file, then live: choir plays the mix into one null sink while take-singer, listening to
    /// it, sings the take into the other, whose monitor is choir's microphone, starting on the first beat after
    /// the count-in the way a person would; with `record`, the live session keeps what its microphone heard there.
    /// Returns the live report, the comparison and what the live session printed on standard error.
    ///
    /// The singer places its take from its own reading of when it heard the count-in; under load on two cores that
    /// reading has been 50 to 350 ms off (in about one run in five), and notes then show as late or early, while the
    /// live session's recording, judged again, gives the live verdicts exactly. And once in a few runs, with the
    /// other suites beside it, a stream through the shared PulseAudio server underruns (the singer's, the mix's, or
    /// both in one run), and the rest of the take then comes late. The machine itself did not stall then: a probe
    /// thread at real-time priority, sleeping a millisecond at a time, never waited more than 7 ms over the whole
    /// suite. Such a run tests the server and the load, not choir's judging, so the singer sings again, up to five
    /// times in all (three were not always enough: in one run of the whole suite, one singing was placed 191 ms off
    /// and the next two underran); a fault of choir's shows in every one, and the last is held to everything (no
    /// underrun, no overrun).
    static func sungComparison(take takePath: String, data: String, server: PulseServer, record: String? = nil) throws
        -> (live: [String: Any], comparison: Comparison, stderr: String)
    {
        var (live, file, stderr, sang) = try singerSession(take: takePath, data: data, server: server, record: record)
        var comparison = compare(live, file)
        // 25 ms: well placed, the singer is within 6 ms; the shortest timing tolerance is 60 ms, and a singer a good
        // part of that off moves notes near it across.
        func underruns() -> Int? { (live["audio"] as? [String: Any])?["underruns"] as? Int }
        func faltered() -> String? {
            if sang != "0 underruns\n" { return "the singer's voice broke off: \(sang.trimmingCharacters(in: .newlines))" }
            if underruns() != 0 { return "the mix underran (\(String(describing: live["audio"])))" }
            guard comparison.lags.count >= comparison.expected.count / 2 && abs(comparison.medianLag) > 25 else { return nil }
            return "the singer was \(comparison.medianLag) ms off"
        }
        for _ in 1..<5 {
            guard let why = faltered() else { break }
            print("\(why); singing again")
            (live, file, stderr, sang) = try singerSession(take: takePath, data: data, server: server, record: record)
            comparison = compare(live, file)
        }
        #expect(sang == "0 underruns\n", "\(sang)")
        let audio = live["audio"] as? [String: Any]
        #expect(audio?["underruns"] as? Int == 0 && audio?["overruns"] as? Int == 0, "\(String(describing: audio))")
        return (live, comparison, stderr)
    }

    /// Starts take-singer on `take`, sung as the tenor after the example's count-in: it listens to choir's sink,
    /// `choir_test`, and sings into `choir_mic`, whose monitor is choir's microphone. Returns once it listens, with
    /// what it prints and says on standard error.
    static func startSinger(take takePath: String, data: String, server: PulseServer) throws -> (
        singer: Process, sung: Pipe, errors: Pipe
    ) {
        // Where the count-in's first sound (as loud as take-singer listens for) and the first beat fall in the mix.
        let mixPath = data + "/mix.wav"
        let render = try CLI.run(["render", CLI.example, "--count-in", "--part", "tenor", "-o", mixPath])
        try #require(render.status == 0, "\(render.stderr)")
        let mix = try AudioFile.read(contentsOf: mixPath)
        try #require(mix.sampleRate == 48000)
        let firstSound = try #require(mix.samples.firstIndex { abs($0) > 0.02 })
        let score = try ScoreReader.read(contentsOf: CLI.root.appendingPathComponent(CLI.example).path)
        var options = PlaybackOptions()
        options.countIn = true
        options.singer = try LineSelector.select("tenor", from: score.lines)
        let firstBeat = Int(try Schedule(score: score, lines: score.lines, options: options).preroll * Double(mix.sampleRate))

        // The singer listens to choir's sink and sings into the other one.
        let singer = Process()
        singer.executableURL = CLI.product("take-singer")
        singer.arguments = [
            takePath, "pulse:choir_test.monitor", "pulse:choir_mic", "pulse:choir_mic.monitor", "\(firstSound)", "\(firstBeat)",
        ]
        singer.environment = ProcessInfo.processInfo.environment.merging(server.environment) { $1 }
        let sung = Pipe(), singerErr = Pipe()
        singer.standardOutput = sung
        singer.standardError = singerErr
        try singer.run()
        let ready = String(decoding: sung.fileHandleForReading.availableData, as: UTF8.self)
        if ready != "listening\n" { kill(singer.processIdentifier, SIGKILL) }
        try #require(ready == "listening\n", "\(String(decoding: singerErr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
        return (singer, sung, singerErr)
    }

    /// What the singer printed comes last: its underruns, which put the rest of its take late.
    static func singerSession(take takePath: String, data: String, server: PulseServer, record: String?) throws
        -> (live: [String: Any], file: [String: Any], stderr: String, sang: String)
    {
        let common = ["practice", CLI.example, "--part", "tenor", "--no-history"]
        // The singer sings the take on the live session's beat: the file session judges it where it is, unplaced.
        let file = try CLI.run(common + ["--input", takePath, "--output", "none", "--no-align", "--report", data + "/file.json"])
        try #require(file.status == 0, "\(file.stderr)")

        let (singer, sung, singerErr) = try startSinger(take: takePath, data: data, server: server)
        defer { if singer.isRunning { kill(singer.processIdentifier, SIGKILL) } }

        let session = Process()
        session.executableURL = CLI.executable
        session.arguments =
            common + ["--count-in", "--input", "pulse:choir_mic.monitor", "--output", "pulse:choir_test", "--report", data + "/live.json"]
            + (record.map { ["--record", $0] } ?? [])
        session.currentDirectoryURL = CLI.root
        session.environment = ProcessInfo.processInfo.environment.merging(server.environment) { $1 }.merging(["NO_COLOR": "1"]) { $1 }
        let err = Pipe()
        session.standardOutput = FileHandle.nullDevice
        session.standardError = err
        try session.run()
        defer { if session.isRunning { kill(session.processIdentifier, SIGKILL) } }

        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        session.waitUntilExit()
        #expect(session.terminationStatus == 0, "\(stderr)")
        let sang = String(decoding: sung.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        singer.waitUntilExit()
        #expect(
            singer.terminationStatus == 0, "\(sang)\(String(decoding: singerErr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))"
        )
        let live = try PracticeCommandTests.json(data + "/live.json")
        return (live, try PracticeCommandTests.json(data + "/file.json"), stderr, sang)
    }

    /// How a live session's verdicts and entrances compare with a file session's on the same take.
    struct Comparison: CustomStringConvertible {
        var got: [String], expected: [String]
        /// How much later the live session heard each entrance than the file session, in ms, sorted.
        var lags: [Int]
        var agreeing: Int { zip(got, expected).count { $0 == $1 } }
        var medianLag: Int { lags.isEmpty ? 0 : lags[lags.count / 2] }
        var description: String {
            let differing = zip(got, expected).enumerated().filter { $0.element.0 != $0.element.1 }
                .map { "note \($0.offset): \($0.element.1) → \($0.element.0)" }
            return "\(agreeing) of \(expected.count) verdicts agree with the file session (median lag \(medianLag) ms)"
                + (differing.isEmpty ? "" : "; " + differing.joined(separator: ", "))
        }
    }

    static func compare(_ live: [String: Any], _ file: [String: Any]) -> Comparison {
        let notes = { (report: [String: Any]) in report["notes"] as? [[String: Any]] ?? [] }
        let lags = zip(notes(live), notes(file)).compactMap { pair -> Int? in
            guard let heard = pair.0["onset_error_s"] as? Double, let written = pair.1["onset_error_s"] as? Double else { return nil }
            return Int(((heard - written) * 1000).rounded())
        }.sorted()
        return Comparison(
            got: notes(live).map { $0["verdict"] as? String ?? "" }, expected: notes(file).map { $0["verdict"] as? String ?? "" },
            lags: lags)
    }

}

extension RealTimeTests {
    /// `--drill` takes the weakest passages of the last session in the history (the demo take's: measures 6–7
    /// and 12) and loops each with a count-in, from `--drill-start` up to the written tempo. The singer here is
    /// the tenor's own clarinet heard through the sink's monitor, right every time, so each passage takes one
    /// pass at 90% and one at 100%. The drill is one session in the history, with every pass in it.
    @Test func drillLoopsTheWeakestPassagesUpToTempo() throws {
        let server = try Self.server()
        let data = try PracticeCommandTests.dataHome()
        let environment = server.environment.merging(["XDG_DATA_HOME": data, "XDG_CONFIG_HOME": data]) { $1 }
        let demo = try CLI.run(
            ["practice", CLI.example, "--part", "tenor", "--input", "Resources/DemoTakes/amazing_grace_tenor.wav", "--output", "none"],
            environment: environment)
        try #require(demo.status == 0, "\(demo.stderr)")
        let drill = try CLI.run(
            [
                "practice", CLI.example, "--part", "tenor", "--solo", "tenor", "--my-instrument", "clarinet", "--input", "pulse",
                "--output", "pulse", "--headphones", "--drill", "--drill-start", "90",
            ],
            environment: environment, timeout: 120)
        #expect(drill.status == 0, "\(drill.stderr)")
        let passes = drill.stdout.split(separator: "\n").filter { $0.hasPrefix("Drill:") || $0.hasPrefix("m") && !$0.hasPrefix("measure ") }
        #expect(
            passes == [
                "Drill: mm. 6–7, m. 12",
                // The tenor's A3 tied from m. 7 into m. 8 stops with the passage, and is judged in it.
                "mm. 6–7 at 90%: 100% (3 of 3 notes) → next at 100%",
                "mm. 6–7 at 100%: 100% (3 of 3 notes) → done",
                "m. 12 at 90%: 100% (2 of 2 notes) → next at 100%",
                "m. 12 at 100%: 100% (2 of 2 notes) → done",
            ], "\(drill.stdout)")
        let history = try CLI.run(["history"], environment: ["XDG_DATA_HOME": data])
        let row = history.stdout.split(separator: "\n").first { $0.contains("#2 ") }.map(String.init) ?? ""
        #expect(row.contains("100.0%") && row.contains("4 passes") && !history.stdout.contains("#3 "), "\(history.stdout)")
        let report = try CLI.run(["report", "2"], environment: ["XDG_DATA_HOME": data]).stdout
        #expect(
            report.contains(
                "\nAccuracy: 100.0% (10 of 10 notes)\nPasses: 1: 100% (3 of 3), 2: 100% (3 of 3), 3: 100% (2 of 2), 4: 100% (2 of 2)\n"),
            "\(report)")
    }

    /// Without a history, a first pass over the range finds the weakest measures; sung right, there is
    /// nothing to drill.
    @Test func drillWithoutHistoryStartsWithAFirstPass() throws {
        let server = try Self.server()
        let data = try PracticeCommandTests.dataHome()
        let drill = try CLI.run(
            [
                "practice", CLI.example, "--part", "tenor", "--solo", "tenor", "--my-instrument", "clarinet", "--input", "pulse",
                "--output", "pulse", "--headphones", "--drill", "--from", "6", "--to", "7",
            ],
            environment: server.environment.merging(["XDG_DATA_HOME": data, "XDG_CONFIG_HOME": data]) { $1 })
        #expect(drill.status == 0, "\(drill.stderr)")
        #expect(
            drill.stdout.hasPrefix("Drill: no session of Tenor in the history to learn from; a first pass finds the weakest measures.\n"),
            "\(drill.stdout)")
        #expect(drill.stdout.contains("\nAccuracy: 100.0% "), "\(drill.stdout)")
        #expect(drill.stdout.hasSuffix("\nDrill: every measure was right; nothing to drill.\n"), "\(drill.stdout)")
    }
}
