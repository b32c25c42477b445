import ChoirAudio
import Foundation
import Testing

/// `choir practice` on takes (file sessions), its reports and the history.
struct PracticeCommandTests {
    static let take = "Resources/DemoTakes/amazing_grace_tenor.wav"

    /// A fresh data directory, so each test has its own history.
    static func dataHome() throws -> String {
        let path = NSTemporaryDirectory() + "choir-data-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func json(_ path: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
    }

    /// Each "Work on" command runs as a shell reads it when pasted (with the take as its input), though the
    /// score's path has spaces and the line's name a number.
    @Test func workOnCommandsRunAsPrinted() throws {
        let folder = NSTemporaryDirectory() + "choir work on \(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let score = folder + "/amazing grace.musicxml"
        try String(contentsOfFile: CLI.root.appendingPathComponent(CLI.example).path, encoding: .utf8)
            .replacingOccurrences(of: "<part-name>Tenor</part-name>", with: "<part-name>Tenor 2</part-name>")
            .write(toFile: score, atomically: true, encoding: .utf8)
        let session = try CLI.run(["practice", score, "--part", "Tenor 2", "--input", Self.take, "--output", "none", "--no-history"])
        #expect(session.status == 0, "\(session.stderr)")
        let commands = session.stdout.split(separator: "\n").compactMap { line in
            line.range(of: ": choir practice ").map { String(line[line.index($0.lowerBound, offsetBy: 2)...]) }
        }
        #expect(commands.count == 2)
        #expect(commands.first?.contains("'Tenor 2'") == true)
        for command in commands {
            let run = try CLI.run(
                ["-c", "choir() { \"$CHOIR\" \"$@\"; }; \(command) --input \(Self.take) --output none --no-history"],
                environment: ["CHOIR": CLI.executable.path], executable: URL(fileURLWithPath: "/bin/sh"))
            #expect(run.status == 0, "\(command): \(run.stderr)")
            #expect(run.stdout.contains("Accuracy:"), "\(command)")
        }
    }

    /// The demo take has three planted mistakes (flat in m. 6, late in mm. 7 and 12); the report names them
    /// and the history keeps the session.
    @Test func demoTakeReportAndHistory() throws {
        let data = try Self.dataHome()
        let report = data + "/report.json", html = data + "/report.html", mix = data + "/mix.wav"
        let result = try CLI.run(
            ["practice", CLI.example, "--part", "tenor", "--input", Self.take, "--output", mix, "--report", report, "--html", html],
            environment: ["XDG_DATA_HOME": data])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == (try CLI.golden("practice-demo-take.txt", result.stdout)))

        let document = try Self.json(report)
        #expect(
            Set(document.keys) == [
                "score", "part", "tempo_qpm", "transpose", "verse", "kind", "tolerance_cents", "summary", "measures", "notes", "chord",
            ])
        #expect(document["kind"] as? String == "file" && document["transpose"] as? Int == 0)
        let summary = document["summary"] as! [String: Any]
        #expect(Set(summary.keys) == ["notes", "passes", "correct", "accuracy_pct", "mean_abs_cents", "bias_cents", "verdicts"])
        let notes = document["notes"] as! [[String: Any]]
        #expect(
            Set(notes[0].keys) == [
                "index", "pass", "measure", "onset_s", "duration_s", "expected_midi", "expected_name", "line", "verdict", "median_cents",
                "onset_error_s", "in_tune_pct",
                "voiced_pct", "frames_judged", "sang", "chord",
            ])
        let verdicts = Dictionary(uniqueKeysWithValues: notes.map { ($0["index"] as! Int, $0["verdict"] as! String) })
        #expect(verdicts[11] == "flat")
        // The flat note's evidence: most of it sung, its pitch judged on many frames, nobody else's note.
        let flat = notes[11]
        #expect((flat["voiced_pct"] as? Double ?? 0) > 80 && (flat["frames_judged"] as? Int ?? 0) > 50, "\(flat)")
        #expect(flat["sang"] is NSNull && (flat["median_cents"] as? Double ?? 0) < -25)
        #expect(verdicts[13] == "late")
        #expect(verdicts[22] == "late")
        #expect(verdicts.values.filter { $0 != "correct" }.count == 3, "only the planted mistakes are flagged")
        // Each note against the chord: the second, the tenor's B3 over the bass's G2, a major third (a tenth).
        let chord = try #require(notes[1]["chord"] as? [String: Any])
        #expect(
            chord["bass_line"] as? String == "Bass" && chord["bass_name"] as? String == "G2"
                && chord["interval"] as? String == "major third")
        #expect(abs((chord["pure_cents"] as! Double) - ((notes[1]["median_cents"] as! Double) + 13.69)) <= 0.11)

        // The mix covers the piece; the HTML page holds the piano roll, the trace and the heat map.
        let audio = try WAVFile.read(contentsOf: mix)
        #expect(audio.duration > 30 && audio.samples.contains { abs($0) > 0.05 })
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("<svg id=\"pianoroll\"") && page.contains("class=\"trace\"") && page.contains("id=\"heatmap\""))
        #expect(!page.contains("http://") || page.contains("xmlns=\"http://www.w3.org/2000/svg\""))

        // The history lists the session, and rebuilds the same report.
        let history = try CLI.run(["history"], environment: ["XDG_DATA_HOME": data])
        #expect(history.status == 0)
        #expect(history.stdout.contains("amazing_grace.musicxml") && history.stdout.contains("#1 ") && history.stdout.contains("89.3%"))
        let rebuilt = try CLI.run(["report", "1", "--json", data + "/again.json"], environment: ["XDG_DATA_HOME": data])
        #expect(rebuilt.stdout == result.stdout)
        #expect(try String(contentsOfFile: data + "/again.json", encoding: .utf8) == String(contentsOfFile: report, encoding: .utf8))
    }

    /// A take without `--output` is judged at once, without playback: the report of `--output none`, and no device
    /// opened (there is none here).
    @Test func aTakeIsJudgedWithoutAnOutput() throws {
        let data = try Self.dataHome()
        let judged = try CLI.run(["practice", CLI.example, "--part", "T", "--input", Self.take], environment: ["XDG_DATA_HOME": data])
        #expect(judged.status == 0 && judged.stderr.isEmpty, "\(judged.stderr)")
        #expect(judged.stdout == (try CLI.golden("practice-demo-take.txt", judged.stdout)))
        let live = try CLI.run(["practice", CLI.example, "--part", "T", "--input", "nonexistent"], environment: ["XDG_DATA_HOME": data])
        #expect(live.status == 69)
        #expect(
            live.stderr
                == "choir: cannot open capture device 'nonexistent': No such file or directory; to judge a recording instead, use --input take.wav\n"
        )
    }

    /// `--loop 2` on a take of two times through: each is a pass of its own in the report, the history and the JSON.
    @Test func thePassesOfALoopAreShown() throws {
        let data = try Self.dataHome()
        let take = try WAVFile.read(contentsOf: CLI.root.appendingPathComponent(Self.take).path)
        let twice = data + "/twice.wav"
        try AudioFile.write(Array(take.samples.prefix(36 * take.sampleRate)) + take.samples, sampleRate: take.sampleRate, to: twice)
        let result = try CLI.run(
            ["practice", CLI.example, "--part", "T", "--input", twice, "--loop", "2", "--report", data + "/r.json"],
            environment: ["XDG_DATA_HOME": data])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == (try CLI.golden("practice-loop-take.txt", result.stdout)))
        let notes = try #require(Self.json(data + "/r.json")["notes"] as? [[String: Any]])
        #expect(notes.map { $0["pass"] as? Int } == Array(repeating: 1, count: 28) + Array(repeating: 2, count: 28))
        let history = try CLI.run(["history"], environment: ["XDG_DATA_HOME": data])
        #expect(history.stdout.contains("89.3% ██████████████████  (2 passes)\n"), "\(history.stdout)")
    }

    /// `choir history` lists each line's sessions apart, with how each was sung, its range and key, and the
    /// weakest measures over all of that line's recent sessions.
    @Test func historyListsEachLineWithWhatWasSung() throws {
        let data = try Self.dataHome()
        for arguments in [["--part", "tenor"], ["--part", "alto"], ["--part", "tenor", "--from", "6", "--to", "8", "--transpose", "-1"]] {
            let result = try CLI.run(
                ["practice", CLI.example, "--input", Self.take, "--output", "none"] + arguments, environment: ["XDG_DATA_HOME": data])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let history = try CLI.run(["history"], environment: ["XDG_DATA_HOME": data])
        #expect(history.status == 0)
        let dated = try Regex(#"\d{4}-\d{2}-\d{2} \d{2}:\d{2}"#)
        #expect(
            history.stdout.replacing(dated, with: "DATE")
                == (try CLI.golden("history-lines.txt", history.stdout.replacing(dated, with: "DATE"))))
    }

    /// `--verse 2` sings the second verse's words: the report says so, the HTML roll carries them, and the history
    /// keeps them for `choir report`.
    @Test func theVerseSungIsShownAndKept() throws {
        let data = try Self.dataHome()
        let html = data + "/verse.html", again = data + "/again.html"
        let result = try CLI.run(
            ["practice", CLI.example, "--part", "soprano", "--verse", "2", "--input", Self.take, "--output", "none", "--html", html],
            environment: ["XDG_DATA_HOME": data])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\(CLI.example) — Soprano, ♩ = 80, verse 2\n"))
        let page = try String(contentsOfFile: html, encoding: .utf8)
        let words = page.split(separator: "class=\"lyric\"").dropFirst().map { $0.split(separator: ">")[1].prefix { $0 != "<" } }
        #expect(words.prefix(4) == ["'Twas", "grace", "that", "taught"], "\(words.prefix(6))")
        let rebuilt = try CLI.run(["report", "1", "--html", again], environment: ["XDG_DATA_HOME": data])
        #expect(rebuilt.stdout == result.stdout)
        #expect(try String(contentsOfFile: again, encoding: .utf8) == page)
        let missing = try CLI.run(["practice", CLI.example, "--part", "soprano", "--verse", "3", "--input", Self.take, "--output", "none"])
        #expect(missing.status == 64 && missing.stderr == "choir: \(CLI.example): verse 3: expected 1 to 2, the score's verses\n")
    }

    /// The judged notes are `choir notes --part`'s, in playback and in written order.
    @Test(arguments: [[], ["--no-repeats"]])
    func judgedNotesMatchTheNotesCommand(order: [String]) throws {
        let data = try Self.dataHome()
        let score = "Tests/Fixtures/corpus/bach_bwv1.6.mxl"
        // A silent take long enough for the whole piece: every note is missing, which is beside the point here.
        let silent = data + "/silent.wav"
        try Data(WAVFile.encode(interleaved: [Float](repeating: 0, count: 8000 * 150), channels: 1, sampleRate: 8000))
            .write(to: URL(fileURLWithPath: silent))
        let result = try CLI.run(
            ["practice", score, "--part", "alto", "--input", silent, "--output", "none", "--report", data + "/r.json", "--no-history"]
                + order)
        #expect(result.status == 0, "\(result.stderr)")
        let judged = (try Self.json(data + "/r.json")["notes"] as! [[String: Any]]).map {
            [($0["onset_s"] as! Double), Double($0["expected_midi"] as! Int)]
        }
        let listed = try CLI.run(["notes", score, "--part", "alto", "--json"] + order)
        let parts = (try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as! [String: Any])["parts"] as! [[String: Any]]
        let written = (parts[0]["notes"] as! [[Any]]).map { [(($0[3] as! Double) * 1000).rounded() / 1000, $0[2] as! Double] }
        #expect(judged.count == written.count)
        #expect(judged == written)
        #expect(result.stdout.contains("missing \(written.count)"))
    }

    @Test func badInputGivesOneLine() throws {
        let data = try Self.dataHome()
        let short = data + "/short.wav"
        try Data(WAVFile.encode(interleaved: [Float](repeating: 0, count: 8000), channels: 1, sampleRate: 16000))
            .write(to: URL(fileURLWithPath: short))
        let cases: [([String], Int32, String)] = [
            (
                ["--part", "baritone", "--input", Self.take], 64,
                "choir: \(CLI.example): unknown line 'baritone': expected one of 1 Soprano, 2 Alto, 3 Tenor, 4 Bass"
            ),
            (
                ["--part", "tenor", "--input", data + "/nope.wav"], 66,
                "choir: \(data)/nope.wav: no such file: expected an audio file (WAV, FLAC, Ogg Vorbis, Opus or MP3)"
            ),
            // Named as a recording, a missing file is a missing take, not a capture device.
            (
                ["--part", "tenor", "--input", data + "/nope.opus"], 66,
                "choir: \(data)/nope.opus: no such file: expected an audio file (WAV, FLAC, Ogg Vorbis, Opus or MP3)"
            ),
            (
                ["--part", "tenor", "--input", short], 65,
                "choir: \(short): the take is 0.5 s long: expected at least 0.8 s, to the end of the first note of the practised range"
            ),
            (["--input", Self.take], 64, "Error: practice needs --part: the line you sing"),
            (
                ["--part", "tenor", "--input", Self.take, "--drill"], 64,
                "choir: --drill needs a live microphone: expected --input DEVICE, not a take"
            ),
            (
                ["--part", "tenor", "--drill", "--report", data + "/r.json"], 64,
                "Error: --drill writes no --report or --html: every pass is kept in the history (`choir report N`)"
            ),
            (["--part", "tenor", "--drill", "--drill-start", "10"], 64, "Error: --drill-start 10.0: expected 25 to 100"),
            (
                ["--part", "tenor", "--tempo", "50", "--bpm", "100"], 64,
                "Error: --tempo and --bpm conflict: --tempo scales the score's tempo, --bpm replaces it; give one"
            ),
            (["--part", "tenor", "--my-volume", "150"], 64, "Error: --my-volume 150.0: expected 0 to 100"),
            (["--part", "tenor", "--volume", "Alto=300"], 64, "Error: --volume Alto=300: expected a volume of 0 to 100"),
            (["--part", "tenor", "--latency", "-900"], 64, "Error: --latency -900.0: expected -500 to 2000 ms"),
            (
                ["--part", "tenor", "--input", Self.take, "--record", data + "/r.flac"], 64,
                "choir: --record keeps what a live microphone hears: expected --input DEVICE, not a take"
            ),
            (
                ["--part", "tenor", "--drill", "--record", data + "/r.flac"], 64,
                "Error: --drill keeps no --record: each pass is a session of its own"
            ),
        ]
        for (arguments, status, message) in cases {
            let result = try CLI.run(["practice", CLI.example, "--output", "none", "--no-history"] + arguments)
            #expect(result.status == status, "\(arguments)")
            #expect(result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
        }
    }

    /// The demo take cut to 10 s and made a FLAC file is judged up to its end, note for note as the whole WAV
    /// is; the rest of the range is said to be not sung, in one line, and counts as no mistake.
    @Test func aShortTakeInAnotherFormatIsJudgedUpToItsEnd() throws {
        let data = try Self.dataHome()
        let take = try WAVFile.read(contentsOf: CLI.root.appendingPathComponent(Self.take).path)
        let flac = data + "/take.flac"
        try AudioFile.write(Array(take.samples.prefix(10 * take.sampleRate)), sampleRate: take.sampleRate, to: flac)
        func session(_ input: String, _ report: String) throws -> (stdout: String, notes: [[String: Any]], document: [String: Any]) {
            let result = try CLI.run([
                "practice", CLI.example, "--part", "tenor", "--input", input, "--output", "none",
                "--no-history", "--report", report,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let document = try Self.json(report)
            return (result.stdout, document["notes"] as! [[String: Any]], document)
        }
        let whole = try session(Self.take, data + "/whole.json")
        let short = try session(flac, data + "/short.json")
        #expect(short.notes.count == 9)
        let verdicts = { (notes: [[String: Any]]) in notes.map { "\($0["index"]!) \($0["verdict"]!)" } }
        #expect(verdicts(short.notes) == Array(verdicts(whole.notes).prefix(9)))
        #expect(
            short.stdout.split(separator: "\n").filter { $0.hasPrefix("Not sung: ") } == [
                "Not sung: the take ends in m. 5: its last 19 notes are not sung, so not judged and not counted as mistakes"
            ])
        #expect(short.stdout.contains("Accuracy: 100.0% (9 of 9 notes)"))
        let unsung = short.document["unsung"] as? [String: Any]
        #expect(unsung?["notes"] as? Int == 19)
        #expect(unsung?["from_measure"] as? String == "5")
        #expect(whole.document["unsung"] == nil)
    }

    /// Calibration measures negative latencies too; one is given back as printed, without '='.
    @Test func aNegativeLatencyNeedsNoEquals() throws {
        let result = try CLI.run([
            "practice", CLI.example, "--part", "tenor", "--input", Self.take, "--output", "none",
            "--no-history", "--latency", "-20",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Accuracy:"))
    }

    /// Calibration needs two devices; without them it says which, in one line, with the exit status scripts
    /// can test for. A stored table that is not one is named and ignored.
    @Test func calibrateWithoutDevices() throws {
        let config = try Self.dataHome()
        let result = try CLI.run(["calibrate", "--device", "nosuchdevice"], environment: ["XDG_CONFIG_HOME": config])
        #expect(result.status == 69)
        #expect(result.stderr.hasPrefix("choir: cannot open "), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        try FileManager.default.createDirectory(atPath: config + "/choir", withIntermediateDirectories: true)
        try Data("[1, 2".utf8).write(to: URL(fileURLWithPath: config + "/choir/latency.json"))
        let practice = try CLI.run(
            ["practice", CLI.example, "--part", "tenor", "--input", "nosuchdevice", "--output", "nosuchdevice", "--no-history"],
            environment: ["XDG_CONFIG_HOME": config])
        #expect(practice.status == 69)
        #expect(
            practice.stderr.hasPrefix(
                "choir: \(config)/choir/latency.json: not a latency table (expected {\"OUTPUT -> INPUT\": ms}); ignoring it\n"),
            "\(practice.stderr)")
    }

    /// A corrupt or locked history is reported in one line, and the session still runs and reports.
    @Test func unusableHistoryStillPractises() throws {
        let data = try Self.dataHome()
        try FileManager.default.createDirectory(atPath: data + "/choir", withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: data + "/choir/history.sqlite"))
        let corrupt = try CLI.run(
            ["practice", CLI.example, "--part", "tenor", "--input", Self.take, "--output", "none"], environment: ["XDG_DATA_HOME": data])
        #expect(corrupt.status == 0)
        #expect(
            corrupt.stderr
                == "choir: \(data)/choir/history.sqlite: the history database is corrupt (not an SQLite database); practising without history\n"
        )
        #expect(corrupt.stdout.contains("Accuracy: 89.3%"))
        // Without a session to run, an unusable history is the command's failure, with its sysexits status.
        let unreadable = try CLI.run(["history"], environment: ["XDG_DATA_HOME": data])
        #expect(unreadable.status == 65 && unreadable.stderr.hasSuffix("the history database is corrupt (not an SQLite database)\n"))

        let locked = try Self.dataHome()
        #expect(try CLI.run(["history"], environment: ["XDG_DATA_HOME": locked]).status == 0)  // creates it
        let none = try CLI.run(["report", "99"], environment: ["XDG_DATA_HOME": locked])
        #expect(none.status == 64 && none.stderr.hasSuffix("\n") && none.stderr.contains("99"), "\(none.stderr)")
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = [
            "-c",
            "import sqlite3,sys,time; c=sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); time.sleep(30)",
            locked + "/choir/history.sqlite",
        ]
        let ready = Pipe()
        holder.standardOutput = ready
        try holder.run()
        defer { holder.terminate() }
        _ = ready.fileHandleForReading.availableData
        // First, while the lock is surely held: a command with nothing but the history to do fails, saying try again.
        let busy = try CLI.run(["report", "1"], environment: ["XDG_DATA_HOME": locked])
        #expect(busy.status == 75 && busy.stderr.hasSuffix("the history database is locked by another program\n"), "\(busy.stderr)")
        let blocked = try CLI.run(
            ["practice", CLI.example, "--part", "tenor", "--input", Self.take, "--output", "none"], environment: ["XDG_DATA_HOME": locked])
        #expect(blocked.status == 0)
        #expect(
            blocked.stderr
                == "choir: \(locked)/choir/history.sqlite: the history database is locked by another program; practising without history\n")
        #expect(blocked.stdout.contains("Accuracy: 89.3%"))
    }
}
