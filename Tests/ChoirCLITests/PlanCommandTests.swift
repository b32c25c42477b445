import ChoirAudio
import ChoirPlayback
import ChoirPractice
import ChoirScore
import ChoirTestSupport
import Foundation
import Testing

/// `choir plan`: plans made, listed, shown, exported, edited and imported, and run from takes end to end.
struct PlanCommandTests {
    /// A take of `part` of the example as `choir plan run` plays it (with a count-in, so its time 0 is the
    /// count-in's first click), the synthetic singer with mistakes planted at the `seed`'s choosing.
    static func take(
        part: String, from: String? = nil, to: String? = nil, tempo: Double? = nil, transpose: Int = 0,
        passes: Int = 1, seed: UInt64, file path: String
    ) throws {
        let score = try ScoreReader.read(contentsOf: CLI.example).transposed(by: transpose)
        var options = PlaybackOptions()
        options.singer = try LineSelector.select(part, from: score.lines)
        options.fromMeasure = from
        options.toMeasure = to
        options.tempoPercent = tempo
        options.passes = passes
        options.countIn = true
        let schedule = try Schedule(score: score, lines: score.lines, options: options)
        let notes = ExpectedNote.notes(of: options.singer!, in: schedule, score: score).map { note in
            var placed = note
            placed.onset += schedule.preroll
            return placed
        }
        var singer = SyntheticSinger(sampleRate: 16000, seed: seed)
        singer.mistakeShare = 0.15
        let samples = singer.sing(notes, mistakes: singer.plan(notes), length: schedule.preroll + schedule.length + 1).samples
        let writer = try AudioFile.Writer(path: path, sampleRate: 16000)
        try samples.withUnsafeBufferPointer { try writer.append(interleaved: $0) }
        try writer.finish()
    }

    static func plan(_ arguments: [String], _ data: String) throws -> CLI.Result {
        try CLI.run(["plan"] + arguments, environment: ["XDG_DATA_HOME": data])
    }

    /// Three items run from three takes: each is a session in the history, and the run's summary (kept with them)
    /// gives each item's figures; a second run is compared with the first.
    @Test func aPlanOfThreeItemsRunsFromTakes() throws {
        let data = try PracticeCommandTests.dataHome()
        #expect(try Self.plan(["new", "Advent"], data).status == 0)
        for item in [
            ["--part", "tenor"], ["--part", "alto", "--from", "5", "--to", "8", "--tempo", "80", "--passes", "2"],
            ["--part", "tenor", "--from", "9", "--transpose", "-2"],
        ] {
            let added = try Self.plan(["add", "Advent", CLI.example] + item, data)
            #expect(added.status == 0 && added.stderr.isEmpty, "\(added.stderr)")
        }
        let takes = (1...3).map { data + "/take-\($0).wav" }
        try Self.take(part: "tenor", seed: 11, file: takes[0])
        try Self.take(part: "alto", from: "5", to: "8", tempo: 80, passes: 2, seed: 12, file: takes[1])
        try Self.take(part: "tenor", from: "9", transpose: -2, seed: 13, file: takes[2])

        let run = try Self.plan(["run", "Advent", "--output", "none"] + takes.flatMap { ["--input", $0] }, data)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        // The day, and the clone's folder (a plan keeps its pieces' absolute paths), vary from run to run.
        let dated = try Regex(#"\d{4}-\d{2}-\d{2}"#)
        let output = run.stdout.replacing(dated, with: "DATE").replacingOccurrences(of: CLI.root.path + "/", with: "")
        #expect(output == (try CLI.golden("plan-run.txt", output)))

        // Three sessions, each what its item asked for, and the run's summary rebuilt from them.
        let history = try PracticeHistory(path: data + "/choir/history.sqlite")
        let sessions = try history.sessions()
        #expect(sessions.map(\.part) == ["Tenor", "Alto", "Tenor"])
        // The alto's mm. 5–8 (six notes) twice through.
        #expect(sessions.map(\.transpose) == [0, 0, -2] && sessions.map(\.notes) == [28, 12, 13])
        #expect(sessions.map { $0.range.map { "\($0.first)–\($0.last)" } } == ["0–16", "5–8", "9–16"])
        #expect(sessions.allSatisfy { $0.finished && $0.accuracy > 70 }, "\(sessions.map(\.accuracy))")
        let summary = String(run.stdout[run.stdout.range(of: "Plan 'Advent', run 1")!.lowerBound...])
        for session in sessions {
            #expect(
                summary.contains(
                    String(printf: "%.1f%% (\(session.correct) of \(session.notes) notes), session #\(session.id)", session.accuracy)))
        }
        let shown = try Self.plan(["show", "advent"], data)
        #expect(shown.stdout.hasSuffix(summary), "\(shown.stdout)")

        // Run again, the mixes to files: the summary compares the whole plan with the first run, and each item's mix
        // has its own file.
        let again = try Self.plan(["run", "Advent", "--output", data + "/mix.wav"] + takes.flatMap { ["--input", $0] }, data)
        #expect(again.status == 0)
        #expect(again.stdout.contains("Plan 'Advent', run 2 on ") && again.stdout.contains(" (+0.0 points)\n"))
        let mixes = try (1...3).map { try AudioFile.read(contentsOf: data + "/mix-\($0).wav").duration }
        #expect(mixes[0] > 30 && mixes[1] > 20 && mixes[2] > 18 && mixes[2] < mixes[1], "\(mixes)")

        // Without a microphone or recordings the plan cannot start, says why, and leaves no run.
        let live = try Self.plan(["run", "Advent", "--input", "choir-no-such-device", "--output", "none"], data)
        #expect(live.status == 69 && live.stdout == "Advent: item 1 of 3: Amazing Grace — Tenor, whole piece\n", "\(live.stderr)")
        #expect(
            try Self.plan(["show", "Advent"], data).stdout.contains("run 2")
                && !(try Self.plan(["show", "Advent"], data).stdout.contains("run 3")))
        #expect(try Self.plan(["list"], data).stdout.replacing(dated, with: "DATE") == "Advent: 3 items, last run DATE (2 runs)\n")
    }

    /// What a plan holds, through its commands and its TOML file: exported, edited by hand, imported back.
    @Test func planCommandsAndTheirFile() throws {
        let data = try PracticeCommandTests.dataHome()
        #expect(try Self.plan(["list"], data).stdout == "No plans; make one with `choir plan new NAME`.\n")
        let made = try Self.plan(["new", "Evensong"], data)
        #expect(made.stdout == "Plan 'Evensong': no items yet; add them with `choir plan add Evensong SCORE --part LINE`.\n")
        let add = try Self.plan(
            [
                "add", "evensong", CLI.example, "--part", "b", "--from", "3", "--to", "6", "--tempo", "90", "--transpose", "1", "--passes",
                "3",
            ], data)
        #expect(
            add.stdout == "'Evensong', item 1: Amazing Grace — Bass, mm. 3–6 at 90%, transposed up 1 semitone, 3 passes\n",
            "\(add.stderr)")
        #expect(try Self.plan(["add", "Evensong", CLI.example, "--part", "soprano"], data).status == 0)
        #expect(
            try Self.plan(["show", "Evensong"], data).stdout == """
                Evensong
                  1. Amazing Grace — Bass, mm. 3–6 at 90%, transposed up 1 semitone, 3 passes
                  2. Amazing Grace — Soprano, whole piece
                Never run.

                """)

        // Exported, edited (a tempo and an item less) and imported back.
        let file = data + "/evensong.toml"
        #expect(try Self.plan(["export", "Evensong", file], data).status == 0)
        let exported = try String(contentsOfFile: file, encoding: .utf8)
        let path = URL(fileURLWithPath: CLI.example).standardizedFileURL.path
        #expect(
            exported.hasSuffix(
                """
                name = "Evensong"

                [[item]]
                piece = "\(path)"
                part = "Bass"
                from = "3"
                to = "6"
                tempo = 90
                transpose = 1
                passes = 3

                [[item]]
                piece = "\(path)"
                part = "Soprano"
                passes = 1

                """), "\(exported)")
        let edited =
            exported.replacingOccurrences(of: "tempo = 90", with: "tempo = 75")
            .components(separatedBy: "\n\n[[item]]").prefix(2).joined(separator: "\n\n[[item]]") + "\n"
        try edited.write(toFile: file, atomically: true, encoding: .utf8)
        let refused = try Self.plan(["import", file], data)
        #expect(
            refused.status == 64
                && refused.stderr == "choir: a plan named 'Evensong' exists: expected a new name, or --replace to replace it\n")
        let imported = try Self.plan(["import", file, "--replace"], data)
        #expect(imported.stdout == "Plan 'Evensong': 1 item from \(file)\n", "\(imported.stderr)")
        #expect(
            try Self.plan(["show", "Evensong"], data).stdout.contains(
                "  1. Amazing Grace — Bass, mm. 3–6 at 75%, transposed up 1 semitone, 3 passes\nNever run.\n"))

        // Removing an item, then the plan.
        #expect(
            try Self.plan(["remove", "Evensong", "--item", "2"], data).stderr == "choir: --item 2: 'Evensong' has 1 item: expected 1 to 1\n"
        )
        #expect(
            try Self.plan(["remove", "Evensong", "--item", "1"], data).stdout
                == "Removed item 1 of 'Evensong': Amazing Grace — Bass, mm. 3–6 at 75%, transposed up 1 semitone, 3 passes\n")
        #expect(try Self.plan(["remove", "Evensong"], data).stdout == "Removed plan 'Evensong'.\n")
        let gone = try Self.plan(["show", "Evensong"], data)
        #expect(
            gone.status == 64
                && gone.stderr
                    == "choir: no plan named 'Evensong': expected a plan made with `choir plan new NAME` or `choir plan import FILE`\n"
        )
    }

    /// A name with quotes, a backslash, a tab and letters beyond ASCII comes back from its file as it went.
    /// An item's notes, given to `plan add`, are shown with it and written to the plan's file; blank notes are none.
    @Test func anItemsNotesAreShownAndExported() throws {
        let data = try PracticeCommandTests.dataHome()
        #expect(try Self.plan(["new", "Vespers"], data).status == 0)
        #expect(try Self.plan(["add", "Vespers", CLI.example, "--part", "alto", "--notes", " start softly "], data).status == 0)
        #expect(try Self.plan(["add", "Vespers", CLI.example, "--part", "bass", "--notes", " "], data).status == 0)
        #expect(
            try Self.plan(["show", "Vespers"], data).stdout
                == "Vespers\n  1. Amazing Grace — Alto, whole piece — start softly\n  2. Amazing Grace — Bass, whole piece\nNever run.\n")
        let exported = try Self.plan(["export", "Vespers"], data).stdout
        #expect(
            exported.contains("part = \"Alto\"\npasses = 1\nnotes = \"start softly\"\n")
                && exported.components(separatedBy: "notes =").count == 2)
    }

    @Test func aPlanComesBackFromItsFile() throws {
        let data = try PracticeCommandTests.dataHome()
        let name = "Lessons & \"Carols\"\\2\tNoël"
        #expect(try Self.plan(["new", name], data).status == 0)
        #expect(try Self.plan(["add", name, CLI.example, "--part", "alto", "--from", "2"], data).status == 0)
        let shown = try Self.plan(["show", name], data).stdout
        let file = data + "/lessons.toml"
        #expect(try Self.plan(["export", name, file], data).status == 0)
        #expect(try Self.plan(["remove", name], data).status == 0)
        let imported = try Self.plan(["import", file], data)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(
            try Self.plan(["show", name], data).stdout == shown
                && shown.hasPrefix(name + "\n  1. Amazing Grace — Alto, mm. 2–end\n"))
    }

    /// A plan file that cannot be used is named with where and what was expected, and nothing is imported.
    @Test(arguments: [
        ("name = \"A\"\n[[item]\n", "plan.toml:2:8: Error while parsing table header: expected ']', saw '\\n': expected a TOML file"),
        ("title = \"A\"\n", "plan.toml: expected `name = \"…\"` at the top: the plan's name"),
        ("name = \"A\"\n\n[[item]]\npiece = \"x.musicxml\"\n", "plan.toml: item 1 (line 3): `part` is missing: expected `part = \"…\"`"),
        (
            "name = \"A\"\n\n[[item]]\npiece = \"x\"\nline = \"T\"\n\n[[item]]\npiece = \"x\"\nline = \"T\"\npasses = \"two\"\n",
            "plan.toml: item 2 (line 7): `passes` is string: expected a whole number"
        ),
        (
            "name = \"A\"\n[[item]]\npiece = \"x\"\nline = \"T\"\ntempi = 80\n",
            "plan.toml: item 1 (line 2): unknown key 'tempi' (did you mean 'tempo'?): expected piece, part, from, to, tempo, transpose, passes or notes"
        ),
        (
            "name = \"A\"\n[[item]]\npiece = \"x\"\nline = \"T\"\ntempo = 900\n",
            "plan.toml: item 1 (line 2): `tempo` 900: expected 10 to 400 (percent)"
        ),
        (
            "name = \"A\"\n[[item]]\npiece = \"amazing_grace.musicxml\"\nline = \"Tenor\"\nfrom = 40\n",
            "plan.toml: item 1: "
        ),
    ])
    func aBadPlanFileIsNamed(text: String, error: String) throws {
        let data = try PracticeCommandTests.dataHome()
        let file = data + "/plan.toml"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        // The example's folder, so that a relative piece is found beside the file.
        try FileManager.default.copyItem(atPath: CLI.example, toPath: data + "/amazing_grace.musicxml")
        let result = try CLI.run(["plan", "import", "plan.toml"], environment: ["XDG_DATA_HOME": data], directory: data)
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("choir: " + error) && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        if error.hasSuffix("item 1: ") {
            #expect(result.stderr.hasSuffix("/amazing_grace.musicxml: measure 40 is not in the score: expected 0–16\n"))
        }
        #expect(try Self.plan(["list"], data).stdout == "No plans; make one with `choir plan new NAME`.\n")
    }
}
