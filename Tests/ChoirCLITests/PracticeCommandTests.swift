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
        #expect(result.stderr == "choir: wrote the mix to \(mix)\n")
        #expect(result.stdout == (try CLI.golden("practice-demo-take.txt", result.stdout)))

        let document = try Self.json(report)
        #expect(
            Set(document.keys) == [
                "score", "part", "tempo_qpm", "transpose", "verse", "kind", "tolerance_cents", "summary", "measures", "notes", "chord",
                "aligned_s",
            ])
        // The take starts on the beat: the judge places it by its entrances (the synthetic singer's consonants come
        // before their vowels), by less than a take said to start off the beat.
        #expect(abs(document["aligned_s"] as? Double ?? 1) < 0.05)
        #expect(document["kind"] as? String == "file" && document["transpose"] as? Int == 0)
        let summary = document["summary"] as! [String: Any]
        #expect(Set(summary.keys) == ["notes", "passes", "correct", "accuracy_pct", "mean_abs_cents", "bias_cents", "verdicts"])
        let notes = document["notes"] as! [[String: Any]]
        #expect(
            Set(notes[0].keys) == [
                "index", "pass", "measure", "onset_s", "duration_s", "expected_midi", "expected_name", "line", "verdict", "median_cents",
                "onset_error_s", "in_tune_pct", "voiced_pct", "frames_judged", "sang", "chord", "beat", "syllable", "sung_midi",
                "sung_name", "offset_ms", "timing_tolerance_ms", "summary",
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
        let audio = try AudioFile.read(contentsOf: mix)
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
        let take = try AudioFile.read(contentsOf: CLI.root.appendingPathComponent(Self.take).path)
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
        #expect(result.stdout.hasPrefix("Amazing Grace — Soprano, ♩ = 80, verse 2\n"))
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
        try AudioFile.write([Float](repeating: 0, count: 8000 * 150), sampleRate: 8000, to: silent)
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
        try AudioFile.write([Float](repeating: 0, count: 8000), sampleRate: 16000, to: short)
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
                "Error: --drill writes no --json or --html: every pass is kept in the history (`choir report N`)"
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
        let take = try AudioFile.read(contentsOf: CLI.root.appendingPathComponent(Self.take).path)
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
    /// can test for; `none` (or `null`) for either is refused: calibration needs a sound card. A stored table that
    /// is not one is named and ignored.
    @Test func calibrateWithoutDevices() throws {
        let config = try Self.dataHome()
        let result = try CLI.run(["calibrate", "--device", "nosuchdevice"], environment: ["XDG_CONFIG_HOME": config])
        #expect(result.status == 69)
        #expect(result.stderr.hasPrefix("choir: cannot open "), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        for arguments in [["--device", "none"], ["--input-device", "null"]] {
            let none = try CLI.run(["calibrate"] + arguments, environment: ["XDG_CONFIG_HOME": config])
            #expect(none.status == 64, "\(arguments)")
            #expect(
                none.stderr == "choir: calibration needs a sound card: it plays sweeps and hears them come back; expected ALSA devices, "
                    + "not '\(arguments[1])'\n")
        }
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
        // A file that is not a database is set aside, and the session goes into a new history.
        #expect(corrupt.status == 0)
        let moved = try #require(try Self.damaged(in: data))
        #expect(
            corrupt.stderr
                == "choir: \(data)/choir/history.sqlite is damaged (file is not a database); it was moved to \(moved) and a new history started; "
                + "to copy back every session still readable: choir history --recover \(moved)\n")
        #expect(corrupt.stdout.contains("Accuracy: 89.3%"))
        #expect(try CLI.run(["history"], environment: ["XDG_DATA_HOME": data]).stdout.contains("#1 "))
        // Nothing of it can be read.
        let unreadable = try CLI.run(["history", "--recover", moved], environment: ["XDG_DATA_HOME": data])
        #expect(
            unreadable.status == 65
                && unreadable.stderr
                    == "choir: \(moved): cannot be read at all (the history database is corrupt (not an SQLite database)): expected a history choir set aside\n",
            "\(unreadable.stderr)")

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

    /// The damaged history choir set aside in `data`, if there is one.
    static func damaged(in data: String) throws -> String? {
        try FileManager.default.contentsOfDirectory(atPath: data + "/choir").filter {
            $0.hasPrefix("history-damaged-") && $0.hasSuffix(".sqlite")
        }
        .first.map { data + "/choir/" + $0 }
    }

    /// The issue's damage: random bytes over a few pages in the middle of a history of three sessions (pages of
    /// the pitch trace, found with SQLite's dbstat). The next practice says in one line that the history was
    /// damaged, where it now is and how to recover it, and keeps its session in a new history; `choir history
    /// --recover` copies the three sessions back (every note of each: only trace points were on the damaged pages),
    /// listed before the new one by date, and each rebuilds the report it had.
    @Test func aDamagedHistoryIsSetAsideAndRecovered() throws {
        let data = try Self.dataHome()
        let environment = ["XDG_DATA_HOME": data]
        let practice = ["practice", CLI.example, "--part", "tenor", "--input", Self.take, "--output", "none"]
        for _ in 0..<3 { #expect(try CLI.run(practice, environment: environment).status == 0) }
        let reports = try (1...3).map { try CLI.run(["report", "\($0)"], environment: environment).stdout }
        let path = data + "/choir/history.sqlite"
        let damage = try runTool(
            "/usr/bin/env",
            [
                "python3", "-c",
                """
                import sqlite3, random, sys
                db = sqlite3.connect(sys.argv[1]); db.execute('PRAGMA wal_checkpoint(TRUNCATE)')
                size = db.execute('PRAGMA page_size').fetchone()[0]
                pages = [p for (p,) in db.execute("SELECT pageno FROM dbstat WHERE name = 'trace' AND pagetype = 'leaf' ORDER BY pageno")]
                db.close()
                random.seed(33)
                with open(sys.argv[1], 'r+b') as f:
                    for page in pages[len(pages) // 2:len(pages) // 2 + 3]:
                        f.seek((page - 1) * size); f.write(bytes(random.randrange(256) for _ in range(size)))
                print(len(pages))
                """,
                path,
            ], environment: ProcessInfo.processInfo.environment)
        #expect(damage.status == 0 && (Int(damage.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 20, "\(damage.output)")

        let after = try CLI.run(practice, environment: environment)
        #expect(after.status == 0 && after.stdout.contains("Accuracy: 89.3%"))
        let moved = try #require(try Self.damaged(in: data))
        // SQLite says what it found: quick_check's first finding, or the error it stopped on.
        #expect(after.stderr.hasPrefix("choir: \(path) is damaged ("), "\(after.stderr)")
        #expect(
            after.stderr.hasSuffix(
                "; it was moved to \(moved) and a new history started; to copy back every session still readable: choir history --recover \(moved)\n"
            )
                && after.stderr.count { $0 == "\n" } == 1, "\(after.stderr)")
        #expect(try CLI.run(["history"], environment: environment).stdout.count { $0 == "#" } == 1)

        let recovered = try CLI.run(["history", "--recover", moved], environment: environment)
        #expect(recovered.status == 0, "\(recovered.stderr)")
        let said = recovered.stdout.split(separator: "\n").map(String.init)
        #expect(said.count == 2 && said[0].hasPrefix("Recovered from \(moved): 3 sessions (84 notes, "), "\(recovered.stdout)")
        #expect(said.count == 2 && said[0].hasSuffix("trace points), 0 marks, 0 library entries, 0 plans and 0 plan runs."))
        #expect(said.count == 2 && said[1].hasPrefix("Lost to the damage: the rows on "))
        let listed = try CLI.run(["history"], environment: environment).stdout
        let numbers = listed.split(separator: "\n").compactMap { $0.split(separator: " ").first { $0.hasPrefix("#") } }
        #expect(numbers == ["#2", "#3", "#4", "#1"], "\(listed)")
        for (number, report) in zip(2...4, reports) {
            let rebuilt = try CLI.run(["report", "\(number)"], environment: environment).stdout
            let accuracy = { (text: String) in text.split(separator: "\n").filter { $0.hasPrefix("Accuracy") || $0.hasPrefix("Verdicts") } }
            #expect(accuracy(rebuilt) == accuracy(report) && !accuracy(report).isEmpty, "\(rebuilt)")
        }
        // Again: nothing more.
        let again = try CLI.run(["history", "--recover", moved], environment: environment)
        #expect(
            again.stdout.hasPrefix("Recovered from \(moved): 0 sessions (0 notes, 0 trace points)")
                && again.stdout.contains("\n3 sessions from it were here already.\n"))
    }

    /// A take of three passes of measures 0 to 6 (the demo take's first 14.25 s, three times), for a session long
    /// enough to be stopped in the middle.
    static func threePasses(in folder: String) throws -> String {
        let take = try AudioFile.read(contentsOf: CLI.root.appendingPathComponent(Self.take).path)
        let path = folder + "/three-passes.wav"
        let pass = Array(take.samples.prefix(Int(14.25 * Double(take.sampleRate))))
        try AudioFile.write(Array([[Float]](repeating: pass, count: 3).joined()), sampleRate: take.sampleRate, to: path)
        return path
    }

    /// `choir practice` of three passes from a take, its mix written at 16 kHz into `folder` (the data folder when
    /// nil) as it is judged, stopped by `signal` once the mix is into the second pass.
    static func stopped(by signal: Int32, data: String, folder: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        let folder = folder ?? data
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = [
            "practice", CLI.example, "--part", "tenor", "--input", try threePasses(in: data), "--to", "6", "--loop", "3", "--output",
            folder + "/mix.wav",
            "--sample-rate", "16000",
        ]
        process.currentDirectoryURL = CLI.root
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_DATA_HOME": data, "NO_COLOR": "1"]) { $1 }
        let out = Pipe(), err = Pipe()
        (process.standardOutput, process.standardError) = (out, err)
        try process.run()
        // 16 kHz stereo in 16 bits is 64 kB a second, and a pass lasts 14.25 s (0.91 MB): 1.37 MB is halfway through the
        // second. The judge's verdicts, which the history keeps, can trail the mix by seconds when other suites load the
        // machine: killed at 1.1 MB in ci40, the history still stood in the first pass.
        let end = Date().addingTimeInterval(300)
        while try Date() < end && process.isRunning && (partials(in: folder).map(\.size).max() ?? 0) < 1_370_000 {
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill(process.processIdentifier, signal)
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stdout, stderr)
    }

    /// The temporary files (".NAME.PID.N.partial") in `folder`, with their sizes.
    static func partials(in folder: String) throws -> [(name: String, size: Int)] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") && $0.hasSuffix(".partial") }.map {
            ($0, (try FileManager.default.attributesOfItem(atPath: folder + "/" + $0)[.size] as? Int) ?? 0)
        }
    }

    /// The issue's case: SIGTERM or SIGINT during a looped practice from a file. choir ends with 128 + the signal;
    /// its report says where the session stopped and how many of the range's 39 notes (three passes) it reached (and no "Not
    /// sung" line: the take did not end there); the history keeps it as interrupted with those notes, and `choir
    /// report` says the same; the mix is not written, and no temporary file is left.
    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalDuringALoopLeavesAnInterruptedSession(signal: Int32) throws {
        let data = try Self.dataHome()
        let stopped = try Self.stopped(by: signal, data: data)
        #expect(stopped.status == 128 + signal, "\(stopped.stderr)")
        let lines = stopped.stdout.split(separator: "\n").map(String.init)
        let interrupted = try #require(lines.first { $0.hasPrefix("Interrupted ") }, "\(stopped.stdout)")
        let accuracy = try #require(lines.first { $0.hasPrefix("Accuracy: ") })
        let reached = try #require(Int(accuracy.split(separator: " ").last { Int($0) != nil } ?? ""))
        #expect(interrupted.hasPrefix("Interrupted in m. ") && interrupted.contains(", pass 2 of 3, "), "\(interrupted)")
        #expect(interrupted.hasSuffix(", after \(reached) of 39 notes; the rest not judged"), "\(interrupted)")
        #expect(reached > 13 && reached < 26, "\(accuracy)")
        #expect(!stopped.stdout.contains("Not sung"))
        let history = try CLI.run(["history"], environment: ["XDG_DATA_HOME": data]).stdout
        // Each time round the loop is a pass of its own: it stopped in the second.
        #expect(history.split(separator: "\n").first { $0.contains("#1 ") }?.hasSuffix("  (2 passes, interrupted)") == true, "\(history)")
        let rebuilt = try CLI.run(["report", "1"], environment: ["XDG_DATA_HOME": data]).stdout
        #expect(rebuilt.contains("\n" + accuracy + "\n" + interrupted + "\n"), "\(rebuilt)")
        #expect(!FileManager.default.fileExists(atPath: data + "/mix.wav"))
        #expect(try Self.partials(in: data).isEmpty)
    }

    /// SIGKILL gives choir no say: the mix's temporary file is left, and the history has the session cut off, its
    /// report saying after which note it stopped. The next practice writing there removes the file the killed one
    /// left before writing its own mix.
    @Test func aKilledSessionsPartialMixIsRemovedAtTheNextStart() throws {
        let data = try Self.dataHome()
        let killed = try Self.stopped(by: SIGKILL, data: data)
        #expect(killed.status == SIGKILL)
        let left = try Self.partials(in: data)
        #expect(left.count == 1 && left[0].size > 1_100_000, "\(left)")
        let history = try CLI.run(["history"], environment: ["XDG_DATA_HOME": data]).stdout
        #expect(history.split(separator: "\n").first { $0.contains("#1 ") }?.hasSuffix("interrupted)") == true, "\(history)")
        let rebuilt = try CLI.run(["report", "1", "--json", data + "/killed.json"], environment: ["XDG_DATA_HOME": data]).stdout
        let interrupted = rebuilt.split(separator: "\n").first { $0.hasPrefix("Interrupted ") }
        #expect(interrupted?.hasPrefix("Interrupted in m. ") == true, "\(rebuilt)")
        // It was killed in the second pass, of a number it could not keep, as the JSON says too.
        #expect(
            interrupted?.hasSuffix(" notes; the rest not judged") == true && interrupted?.contains(", pass 2, after ") == true
                && interrupted?.contains(" of ") == false, "\(rebuilt)")
        let stop = try Self.json(data + "/killed.json")["interrupted"] as? [String: Any]
        #expect(stop?["pass"] as? Int == 2 && stop?["passes"] is NSNull && stop?["notes"] is NSNull, "\(String(describing: stop))")

        let next = try CLI.run(
            ["practice", CLI.example, "--part", "tenor", "--input", Self.take, "--output", data + "/mix.wav"],
            environment: ["XDG_DATA_HOME": data])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try Self.partials(in: data).isEmpty)
        #expect(try AudioFile.read(contentsOf: data + "/mix.wav").duration > 30)
    }

    /// Killed while writing its mix into a folder no later run writes into, choir leaves its temporary file there;
    /// the next choir that starts, whatever it does (here `choir history`, which writes no file), removes it, by
    /// the ledger of open temporary files beside the history. A live writer's file stays.
    @Test func aKilledSessionsPartialMixIsRemovedWhereverItWas() throws {
        let data = try Self.dataHome(), folder = data + "/A"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(try Self.stopped(by: SIGKILL, data: data, folder: folder).status == SIGKILL)
        let left = try Self.partials(in: folder)
        #expect(left.count == 1 && left[0].size > 1_100_000, "\(left)")
        let ledger = data + "/choir/writing"
        #expect(try FileManager.default.contentsOfDirectory(atPath: ledger).count == 1)
        // A writer still at work (this test's process, as the ledger names it: number and start time) keeps its file.
        let stat = try String(contentsOfFile: "/proc/self/stat", encoding: .utf8)
        let started = stat[stat.range(of: ")", options: .backwards)!.upperBound...].split(separator: " ")[19]
        let live = folder + "/.take.wav.\(getpid()).0.partial"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: live))
        try live.write(toFile: ledger + "/\(getpid()).\(started).0", atomically: true, encoding: .utf8)
        let next = try CLI.run(["history"], environment: ["XDG_DATA_HOME": data])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try Self.partials(in: folder).map(\.name) == [".take.wav.\(getpid()).0.partial"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: ledger) == ["\(getpid()).\(started).0"])
    }

    /// File names that are not UTF-8 (Latin-1's é, â and ï) are passed through as bytes: the score, the take, the mix
    /// and the report, all named so, are read and written under exactly those names, and an error names the file
    /// with its own bytes.
    @Test func fileNamesThatAreNotUTF8ArePassedThroughAsBytes() throws {
        let folder = Array(try Self.dataHome().utf8) + [UInt8(ascii: "/")]
        let score = folder + Array("gr".utf8) + [0xE2] + Array("ce.musicxml".utf8)
        let take = folder + Array("t".utf8) + [0xE9] + Array("nor.wav".utf8)
        let mix = folder + Array("m".utf8) + [0xEF] + Array("x.wav".utf8)
        let report = folder + Array("r".utf8) + [0xE9] + Array("port.json".utf8)
        for (from, to) in [(CLI.example, score), (Self.take, take)] { try Self.copy(CLI.root.appendingPathComponent(from), to: to) }
        let practised = try Self.run(
            [
                Array("practice".utf8), score, Array("--part".utf8), Array("tenor".utf8), Array("--input".utf8), take,
                Array("--output".utf8), mix,
            ]
                + [Array("--report".utf8), report, Array("--no-history".utf8)])
        #expect(practised.status == 0, "\(String(decoding: practised.stderr, as: UTF8.self))")
        #expect(practised.stdout.starts(with: Array("Amazing Grace — Tenor, ♩ = 80\nAccuracy: 89.3% (25 of 28 notes)\n".utf8)))
        // The commands to copy name the score by its own bytes.
        let copy = Array(": choir practice '".utf8) + score + Array("' --part Tenor --from ".utf8)
        #expect(practised.stdout.indices.contains { practised.stdout[$0...].starts(with: copy) })
        for written in [mix, report] {
            #expect(
                (written + [0]).withUnsafeBufferPointer { path in path.withMemoryRebound(to: CChar.self) { access($0.baseAddress!, R_OK) } }
                    == 0)
        }
        let missing = folder + Array("missing-".utf8) + [0xE9] + Array(".musicxml".utf8)
        let failed = try Self.run([Array("info".utf8), missing])
        #expect(failed.status == 66)
        #expect(
            failed.stderr == Array("choir: ".utf8) + missing
                + Array(": no such file: expected a MusicXML (.musicxml, .xml) or .mxl file\n".utf8))
        // A slip in such a name is answered with the name beside it, in its own bytes.
        let slip = try Self.run([Array("info".utf8), Array(score.dropLast())])
        #expect(
            slip.stderr == Array("choir: ".utf8) + score.dropLast() + Array(": no such file (did you mean '".utf8) + score
                + Array("'?): expected a MusicXML (.musicxml, .xml) or .mxl file\n".utf8),
            "\(String(decoding: slip.stderr, as: UTF8.self))")
    }

    /// Run in a folder whose name is not UTF-8 (Latin-1's ô), a score named from it is kept in the history under the
    /// path it is at: listed as found, from the folder.
    @Test func aScoreInAFolderNamedInLatin1IsFoundAgain() throws {
        let data = try Self.dataHome()
        let folder = Array(data.utf8) + Array("/ch".utf8) + [0xF4] + Array("ur".utf8)
        try #require((folder + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) } } == 0)
        try Self.copy(CLI.root.appendingPathComponent(CLI.example), to: folder + Array("/hymn.musicxml".utf8))
        let take = Array(CLI.root.appendingPathComponent(Self.take).path.utf8)
        let practised = try Self.run(
            [Array("practice".utf8), Array("hymn.musicxml".utf8), Array("--part".utf8), Array("tenor".utf8), Array("--input".utf8), take],
            environment: ["XDG_DATA_HOME": data], directory: folder)
        #expect(practised.status == 0, "\(String(decoding: practised.stderr, as: UTF8.self))")
        let history = try Self.run([Array("history".utf8)], environment: ["XDG_DATA_HOME": data], directory: folder)
        let listed = String(decoding: history.stdout, as: UTF8.self)
        #expect(listed.hasPrefix("Amazing Grace — hymn.musicxml\n  Tenor\n    #1 "), "\(listed)")
    }

    /// Writes the file at `from` under the name `to`, given as bytes.
    static func copy(_ from: URL, to: [UInt8]) throws {
        let bytes = try #require(FileManager.default.contents(atPath: from.path))
        let descriptor = (to + [0]).withUnsafeBufferPointer { path in
            path.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        }
        try #require(descriptor >= 0)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    /// Runs choir with `arguments` given as bytes, with `environment` added to the test's, in the folder
    /// `directory` (as bytes) when given; its status and what it printed, as bytes.
    static func run(_ arguments: [[UInt8]], environment extra: [String: String] = [:], directory: [UInt8]? = nil) throws -> (
        status: Int32, stdout: [UInt8], stderr: [UInt8]
    ) {
        var command = [Array(CLI.executable.path.utf8)] + arguments
        // In `directory`, through a shell that goes there and runs choir (the folder's bytes as they were given).
        if let directory {
            command = [Array("/bin/sh".utf8), Array("-c".utf8), Array("cd \"$0\" && exec \"$@\"".utf8), directory] + command
        }
        let words = command.map { bytes in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
            copy[bytes.count] = 0
            return copy
        }
        defer { words.forEach { $0.deallocate() } }
        let environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1", "LC_ALL": "C.UTF-8"]) { $1 }.merging(extra) { $1 }
            .map { strdup("\($0.key)=\($0.value)") }
        defer { environment.forEach { free($0) } }
        var out: [Int32] = [0, 0], err: [Int32] = [0, 0]
        try #require(pipe(&out) == 0 && pipe(&err) == 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, words[0], &actions, nil, words.map { Optional($0) } + [nil], environment + [nil])
        close(out[1])
        close(err[1])
        try #require(spawned == 0)
        func drain(_ descriptor: Int32) -> [UInt8] {
            var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65536)
            while case let count = read(descriptor, &chunk, chunk.count), count > 0 { bytes += chunk[..<count] }
            close(descriptor)
            return bytes
        }
        let stdout = drain(out[0]), stderr = drain(err[0])
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return ((status >> 8) & 0xFF, stdout, stderr)
    }
}
