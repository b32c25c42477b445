import ArgumentParser
import ChoirSession

/// `--soundfont`, for everything that plays the mix.
struct SoundFontOption: ParsableArguments {
    @Option(help: "The SoundFont (.sf2); else $CHOIR_SOUNDFONT, else the system's GM SoundFont.")
    var soundfont: String?
}

/// The options shared by everything that plays a score: range, tempo, count-in, instruments and the mix.
struct PlaybackArguments: ParsableArguments {
    @OptionGroup var score: ScoreArgument

    /// Your lines: repeated for each line you sing (a descant as well, or Tenor 1 and Tenor 2); all are yours, and you
    /// are judged against the nearer where they sound together.
    @OptionGroup var parts: Parts

    @OptionGroup var order: PlayingOrder

    @Option(help: "Scale the score's tempo, in percent (e.g. 80).")
    var tempo: Double?

    @Option(help: "Play at one quarter-note tempo throughout, in beats per minute.")
    var bpm: Double?

    @OptionGroup var range: MeasureRange

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

    @OptionGroup var soundFont: SoundFontOption

    @OptionGroup var transposition: Transposition

    func validate() throws {
        do { try settings(score: score.score).check() } catch { throw ValidationError(error.description) }
        // Checked here, so that the error names the option rather than the score.
        for assignment in volume {
            if let value = assignment.split(separator: "=").last.flatMap({ Double($0) }), !(0...100).contains(value) {
                throw ValidationError("--volume \(assignment): expected a volume of 0 to 100")
            }
        }
    }

    /// The options as a plan for the engine; a LINE=VALUE option without its "=" is an error naming it.
    func plan() throws -> PlaybackPlan {
        func split(_ assignment: String, _ option: String) throws -> (line: String, value: String) {
            try failing { try PlaybackPlan.assignment(assignment, option: "--" + option) }
        }
        var plan = settings(score: try score.path())
        plan.instruments = try instrument.map { try split($0, "instrument") }.map { (line: $0.line, program: $0.value) }
        plan.volumes = try volume.map { assignment in
            let (name, value) = try split(assignment, "volume")
            guard let level = Double(value) else { throw usage("--volume \(assignment): expected LINE=0..100") }
            return (line: name, volume: level)
        }
        return plan
    }

    /// The options as a plan for the engine of `score`, but for the lines' instruments and volumes (LINE=VALUE).
    private func settings(score: String) -> PlaybackPlan {
        var plan = PlaybackPlan(score: score, parts: parts.names)
        plan.unfolded = !order.noRepeats
        plan.tempoPercent = tempo
        plan.quarterNotesPerMinute = bpm
        (plan.from, plan.to) = (range.from, range.to)
        plan.passes = loop
        plan.countIn = countIn
        plan.click = click
        plan.myInstrument = myInstrument
        plan.muted = mute
        plan.soloed = solo
        plan.muteMine = muteMyPart
        plan.myVolume = myVolume
        plan.othersVolume = othersVolume
        plan.soundFont = soundFont.soundfont
        plan.transpose = transposition.transpose
        plan.verse = order.verse
        return plan
    }

    /// The plan resolved against the score, or a one-line error.
    func resolve() throws -> ResolvedPlayback {
        try failing { try plan().resolve() }
    }
}
