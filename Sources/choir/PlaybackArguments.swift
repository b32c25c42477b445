import ArgumentParser
import ChoirPlayback
import ChoirScore
import FoundationEssentials

/// The options shared by everything that plays a score: range, tempo, count-in, instruments and the mix.
struct PlaybackArguments: ParsableArguments {
    @Argument(help: "A MusicXML (.musicxml, .xml) or compressed MusicXML (.mxl) file.")
    var score: String

    @Option(help: "Your line: a name, a unique prefix, S/A/T/B, or a number from `choir info`.")
    var part: String?

    @Flag(help: "Play in written order, ignoring repeats and jumps.")
    var noRepeats = false

    @Option(help: "Scale the score's tempo, in percent (e.g. 80).")
    var tempo: Double?

    @Option(help: "Play at one quarter-note tempo throughout, in beats per minute.")
    var bpm: Double?

    @Option(help: "First measure to play (its printed number).")
    var from: String?

    @Option(help: "Last measure to play (its printed number).")
    var to: String?

    @Option(help: "Play the range this many times in all.")
    var loop: Int = 1

    @Flag(help: "Play a bar of clicks first, and sound your first note.")
    var countIn = false

    @Flag(help: "Play a metronome click throughout.")
    var click = false

    @Option(help: "Give a line another instrument: LINE=PROGRAM, a GM number (1-128) or name. Repeatable.")
    var instrument: [String] = []

    @Option(help: "Give your line another instrument: a GM number (1-128) or name, e.g. piano or clarinet.")
    var myInstrument: String?

    @Option(help: "A line's volume: LINE=0..100. Repeatable.")
    var volume: [String] = []

    @Option(help: "Silence a line. Repeatable.")
    var mute: [String] = []

    @Option(help: "Play only these lines. Repeatable.")
    var solo: [String] = []

    @Flag(help: "Silence your own line (--part), to sing it alone.")
    var muteMyPart = false

    @Option(help: "Your line's volume, 0..100.")
    var myVolume: Double?

    @Option(help: "Every other line's volume, 0..100.")
    var othersVolume: Double?

    @Option(help: "The SoundFont (.sf2); else $CHOIR_SOUNDFONT, else the system's GM SoundFont.")
    var soundfont: String?

    /// Everything resolved against the score, or a one-line error naming the file.
    struct Resolved {
        var score: Score
        var lines: [Line]
        var schedule: Schedule
        var mixer: Mixer
        var programs: [Int]
        var soundFont: String
        var singer: Int?
    }

    func resolve() throws -> Resolved {
        let score: Score
        do {
            score = try ScoreReader.read(contentsOf: self.score)
        } catch {
            throw fail(error)
        }
        do {
            return try resolve(score)
        } catch let error as LineSelector.Failure {
            throw fail("\(self.score): \(error)")
        } catch let error as PlaybackError {
            throw fail("\(self.score): \(error)")
        }
    }

    private func resolve(_ score: Score) throws -> Resolved {
        let lines = score.lines
        func line(_ name: String) throws -> Int { try LineSelector.select(name, from: lines) }
        func program(_ name: String) throws -> Int {
            guard let program = GeneralMIDI.program(named: name) else {
                throw PlaybackError("unknown instrument '\(name)': expected a GM program number 1-128 or name, such as piano")
            }
            return program
        }
        func split(_ assignment: String, _ option: String) throws -> (String, String) {
            guard let equals = assignment.lastIndex(of: "=") else {
                throw PlaybackError("--\(option) \(assignment): expected LINE=VALUE")
            }
            return (String(assignment[..<equals]), String(assignment[assignment.index(after: equals)...]))
        }
        let singer = try part.map(line)
        var options = PlaybackOptions()
        options.unfolded = !noRepeats
        options.tempoPercent = tempo
        options.quarterNotesPerMinute = bpm
        options.fromMeasure = from
        options.toMeasure = to
        options.passes = loop
        options.countIn = countIn
        options.click = click
        options.singer = singer
        let schedule = try Schedule(score: score, lines: lines, options: options)

        var overrides: [Int: Int] = [:]
        for assignment in instrument {
            let (name, value) = try split(assignment, "instrument")
            overrides[try line(name)] = try program(value)
        }
        if let myInstrument {
            guard let singer else { throw PlaybackError("--my-instrument needs --part") }
            overrides[singer] = try program(myInstrument)
        }
        var request = Mixer.Request()
        request.singer = singer
        request.myVolume = myVolume
        request.othersVolume = othersVolume
        request.muteMine = muteMyPart
        for assignment in volume {
            let (name, value) = try split(assignment, "volume")
            guard let level = Double(value) else { throw PlaybackError("--volume \(assignment): expected LINE=0..100") }
            request.volumes[try line(name)] = level
        }
        request.muted = Set(try mute.map(line))
        request.soloed = Set(try solo.map(line))
        let mixer = try Mixer(lineCount: lines.count, request: request)
        let soundFont = try SoundFont.locate(explicit: soundfont, environment: ProcessInfo.processInfo.environment)
        return Resolved(
            score: score, lines: lines, schedule: schedule, mixer: mixer,
            programs: Instruments.programs(for: lines, in: score, overrides: overrides), soundFont: soundFont,
            singer: singer)
    }
}
