import ChoirTestSupport
import Foundation
import Testing

/// No sound card: `--device none` (or `null`, ALSA's device that swallows sound) plays silence on the music's true
/// time, for as long as the music lasts, in `choir play` and `choir view`.
@Suite struct NoSoundCardTests {
    /// The pickup and two bars at ♩ = 240 last 1.75 s, and the notes ring a second more: `choir play` takes that
    /// long on the clock from the first measure heard, printing each measure as it is reached (the pickup's beat,
    /// then a bar of 0.75 s).
    @Test(arguments: ["none", "null"])
    func playKeepsTheMusicsTime(device: String) throws {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["play", CLI.example, "--device", device, "--to", "2", "--bpm", "240"]
        process.currentDirectoryURL = CLI.root
        let output = Pipe(), errors = Pipe()
        (process.standardOutput, process.standardError) = (output, errors)
        let lines = StampedLines(output)
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let ended = HTTPProbe.now()
        #expect(process.terminationStatus == 0, "\(said)")
        #expect(said == "choir: played 2.8 s on '\(device)', 0 underruns\n")
        let heard = lines.lines
        #expect(heard.map(\.line) == ["measure 0", "measure 1", "measure 2"])
        guard heard.count == 3 else { return }
        let times = [heard[1].seconds - heard[0].seconds, heard[2].seconds - heard[1].seconds, ended - heard[0].seconds]
        // Within 0.15 s: the lines are stamped as they are read, at the lowest priority beside the live tests.
        #expect(abs(times[0] - 0.25) < 0.15 && abs(times[1] - 0.75) < 0.15 && times[2] > 2.7 && times[2] < 3.6, "\(times)")
    }

    /// `choir view --device none` plays from the page: the music waits for it, plays for as long as it lasts
    /// (1.75 s, and the second the notes ring) and waits at its end, still up 9 s later (it used to end by itself after about 8 s), until the
    /// page's end button.
    @Test func theViewPlaysFromThePageWithNoSoundCard() throws {
        let data = try PracticeCommandTests.dataHome()
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["view", CLI.example, "--device", "none", "--to", "2", "--bpm", "240"]
        process.currentDirectoryURL = CLI.root
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": data, "NO_COLOR": "1"]) { $1 }
        let input = Pipe(), output = Pipe(), errors = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (input, output, errors)
        let lines = StampedLines(output)
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        func line(within seconds: Double = 10, _ matches: (String) -> Bool) -> (seconds: Double, line: String)? {
            let end = HTTPProbe.now() + seconds
            while HTTPProbe.now() < end {
                if let found = lines.lines.first(where: { matches($0.line) }) { return found }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return nil
        }
        let first = try #require(line(within: 60) { $0.hasPrefix("Score view: ") })
        let (host, page) = try ScoreViewTests.split(String(first.line.dropFirst("Score view: ".count)))
        let tab = try #require(HTTPProbe(port: try ScoreViewTests.port(host)))
        #expect(tab.upgrade(page + "live", host: host, origin: "http://" + host)?.status == 101)
        let state = try JSONSerialization.jsonObject(with: Data((tab.text() ?? "{}").utf8)) as? [String: Any]
        #expect(state?["paused"] as? Bool == true, "\(String(describing: state))")
        tab.send(HTTPProbe.frame(opcode: 1, Array(#"{"command":"pause"}"#.utf8)))
        let playing = try #require(line { $0 == "playing" })
        let held = try #require(line { $0 == "paused" })
        #expect(
            held.seconds - playing.seconds > 2.7 && held.seconds - playing.seconds < 3.5, "held after \(held.seconds - playing.seconds) s")
        Thread.sleep(forTimeInterval: max(0, playing.seconds + 9 - HTTPProbe.now()))
        #expect(process.isRunning)
        tab.send(HTTPProbe.frame(opcode: 1, Array(#"{"command":"quit"}"#.utf8)))
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(said)")
        #expect(said.hasPrefix("choir: the view played on 'none' for ") && said.hasSuffix(" s, 0 underruns\n"), "\(said)")
        #expect(lines.lines.map(\.line).filter { $0.hasPrefix("measure ") } == ["measure 0", "measure 1", "measure 2"])
    }
}
