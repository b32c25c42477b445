import ChoirPlayback
import ChoirPractice
import ChoirScore
import FoundationEssentials

/// What to play, as a person names it: the score, the singer's line and the mix around it, the range, the tempo
/// and the instruments. ``resolve()`` checks it against the score.
public struct PlaybackPlan: Sendable {
    /// A MusicXML or MXL file.
    public var score: String
    /// The singer's lines, each a name, a unique prefix, S/A/T/B or a number: usually one; several when one
    /// person sings them (a soprano who also takes the descant, one tenor covering Tenor 1 and Tenor 2). The first
    /// gives the count-in's note and the lyrics.
    public var parts: [String] = []

    /// The singer's line, when there is one: the first of ``parts``; setting it makes it the only one.
    public var part: String? {
        get { parts.first }
        set { parts = newValue.map { [$0] } ?? [] }
    }
    /// Repeats and jumps followed, or the measures in written order.
    public var unfolded = true
    /// The score's tempo scaled, in percent.
    public var tempoPercent: Double?
    /// One quarter-note tempo throughout, instead of the score's.
    public var quarterNotesPerMinute: Double?
    /// The first and last measures, by printed number.
    public var from: String?
    public var to: String?
    /// How many times the range plays.
    public var passes = 1
    /// A bar of clicks first, with the first note of each of the singer's lines (unless not `countInPitch`).
    public var countIn = false
    public var countInPitch = true
    /// Only the starting pitch: the first note of each of the singer's lines, one after another, heard whatever the
    /// mix (``Schedule/startingPitch(of:)``).
    public var startingPitch = false
    /// A metronome click throughout.
    public var click = false
    /// Instruments by line: a GM program number (1–128) or name.
    public var instruments: [(line: String, program: String)] = []
    /// The singer's line's instrument.
    public var myInstrument: String?
    /// Volumes by line, 0…100.
    public var volumes: [(line: String, volume: Double)] = []
    public var muted: [String] = []
    public var soloed: [String] = []
    /// The singer's line silenced, to sing it alone.
    public var muteMine = false
    public var myVolume: Double?
    public var othersVolume: Double?
    /// The SoundFont; nil for `$CHOIR_SOUNDFONT` or the system's GM SoundFont.
    public var soundFont: String?
    /// The lyric verse sung, from 1; repeats go on to the next verse.
    public var verse = 1
    /// Semitones the whole score moves by (`Score.transpositions`): what plays, what is judged, how it is spelled.
    public var transpose = 0

    public init(score: String, part: String? = nil) {
        self.score = score
        self.part = part
    }

    public init(score: String, parts: [String]) {
        self.score = score
        self.parts = parts
    }

    /// What the plan asks for that cannot be, whatever the score, said before it is read in the words of the command
    /// line's options: a tempo both scaled and replaced, a volume out of 0…100, or my line's mix or instrument
    /// without my line. (``resolve()`` refuses the same, in the mixer's words, once the score is read.)
    public func check() throws(SessionError) {
        func refuse(_ message: String) -> SessionError { SessionError(.usage, message) }
        if tempoPercent != nil && quarterNotesPerMinute != nil {
            throw refuse("--tempo and --bpm conflict: --tempo scales the score's tempo, --bpm replaces it; give one")
        }
        for (option, volume) in [("--my-volume", myVolume), ("--others-volume", othersVolume)] {
            if let volume, !(0...100).contains(volume) { throw refuse("\(option) \(volume): expected 0 to 100") }
        }
        if parts.isEmpty && (myVolume != nil || othersVolume != nil || muteMine) {
            throw refuse("--my-volume, --others-volume and --mute-my-part need --part")
        }
        if parts.isEmpty && myInstrument != nil { throw refuse("--my-instrument needs --part") }
    }

    /// A line's setting as a front end writes it, `LINE=VALUE` (`separator` between), split at the last separator so
    /// that a line's name may hold one; without one, a one-line error naming the setting as `option`.
    public static func assignment(_ text: String, option: String, separator: Character = "=") throws(SessionError) -> (
        line: String, value: String
    ) {
        guard let index = text.lastIndex(of: separator) else {
            throw SessionError(.usage, "\(option) \(text): expected LINE\(separator)VALUE")
        }
        return (String(text[..<index]), String(text[text.index(after: index)...]))
    }

    /// The plan resolved against its score, or a one-line error naming the file.
    public func resolve() throws(SessionError) -> ResolvedPlayback {
        guard Score.transpositions.contains(transpose) else {
            throw SessionError(.usage, "transposition \(transpose): expected -12 to 12 semitones")
        }
        let score: Score, identity: ScoreIdentity
        do {
            let read = try ScoreReader.identified(contentsOf: self.score)
            (score, identity) = (read.score.transposed(by: transpose), read.identity)
        } catch {
            throw SessionError(reading: error)
        }
        let soundFont: String
        do {
            soundFont = try SoundFont.locate(explicit: self.soundFont, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw SessionError(.missing, "\(error)")
        }
        var resolved: ResolvedPlayback
        // What is left is the plan asking for what the score does not have: a line, a range, a verse, an instrument.
        do { resolved = try resolve(score, identity: identity, soundFont: soundFont) } catch {
            throw SessionError(.usage, "\(self.score): \(error)")
        }
        do {
            resolved.tunings = try InstrumentTuning.corrections(soundFont: soundFont, keys: resolved.keys)
        } catch {
            throw SessionError(.input, "\(error)")
        }
        return resolved
    }

    private func resolve(_ score: Score, identity: ScoreIdentity, soundFont: String) throws -> ResolvedPlayback {
        let lines = score.lines
        func line(_ name: String) throws -> Int { try LineSelector.select(name, from: lines) }
        func program(_ name: String) throws -> Int {
            guard let program = GeneralMIDI.program(named: name) else {
                throw PlaybackError(GeneralMIDI.unknown(name))
            }
            return program
        }
        let singers = try LineSelector.select(parts, from: lines)
        let singer = singers.first
        if let problem = score.problem(withVerse: verse) { throw PlaybackError(problem) }
        var options = PlaybackOptions()
        options.verse = verse
        options.unfolded = unfolded
        options.tempoPercent = tempoPercent
        options.quarterNotesPerMinute = quarterNotesPerMinute
        options.fromMeasure = from
        options.toMeasure = to
        options.passes = passes
        options.countIn = countIn
        options.countInPitch = countInPitch
        options.click = click
        options.singer = singer
        options.singers = singers
        var schedule = try Schedule(score: score, lines: lines, options: options)
        if startingPitch {
            guard !singers.isEmpty else { throw PlaybackError("the starting pitch needs my line: expected the line you sing") }
            schedule = schedule.startingPitch(of: singers)
        }

        var overrides: [Int: Int] = [:]
        for (name, value) in instruments { overrides[try line(name)] = try program(value) }
        if let myInstrument {
            guard !singers.isEmpty else { throw PlaybackError("an instrument for my line needs my line: expected the line you sing") }
            for singer in singers { overrides[singer] = try program(myInstrument) }
        }
        var request = Mixer.Request()
        request.singers = Set(singers)
        // The starting pitch is heard whatever the mix.
        if !startingPitch {
            request.myVolume = myVolume
            request.othersVolume = othersVolume
            request.muteMine = muteMine
            for (name, level) in volumes { request.volumes[try line(name)] = level }
            request.muted = Set(try muted.map(line))
            request.soloed = Set(try soloed.map(line))
        }
        let mixer = try Mixer(lineCount: lines.count, request: request)
        let programs = Instruments.programs(for: lines, in: score, overrides: overrides)
        return ResolvedPlayback(
            plan: self, score: score, identity: identity, lines: lines, schedule: schedule, mixer: mixer, programs: programs,
            soundFont: soundFont,
            singers: singers, tunings: [:])
    }
}

/// A ``PlaybackPlan`` checked against its score: the lines, the schedule of what plays when, the mix and the
/// instruments.
public struct ResolvedPlayback: Sendable {
    public var plan: PlaybackPlan
    public var score: Score
    /// The score's file, as the history keys its sessions.
    public var identity: ScoreIdentity
    public var lines: [Line]
    public var schedule: Schedule
    public var mixer: Mixer
    /// Each line's GM program, 0-based.
    public var programs: [Int]
    public var soundFont: String
    /// The singer's lines, by index, the first first.
    public var singers: [Int]
    /// Each program's corrections, in cents per key, that put its notes in tune (``InstrumentTuning``).
    public var tunings: [Int: [Double]]

    /// The singer's first line, if there is one.
    public var singer: Int? { singers.first }

    /// What the piece is called (``Score/name(file:)``).
    public var title: String { score.name(file: plan.score) }

    /// The keys each program sounds: of the lines the mix plays, and the singer's, which the prompt note sounds
    /// even when muted.
    var keys: [Int: Set<Int>] {
        var keys: [Int: Set<Int>] = [:]
        for note in schedule.notes {
            guard let line = note.line, mixer.gains[line] > 0 || singers.contains(line) else { continue }
            keys[programs[line], default: []].insert(note.midi)
        }
        return keys
    }

    /// The singer's lines' names, "Soprano + Descant", if there is one.
    public var part: String? { singers.isEmpty ? nil : LineSelector.name(of: singers, in: lines) }

    /// A synthesizer for this playback, its instruments in tune; with `prompts`, it can sound the singer's notes.
    public func renderer(sampleRate: Int, blockSize: Int, prompts: Bool = false) throws(PlaybackError) -> SynthRenderer {
        try SynthRenderer(
            soundFont: soundFont, sampleRate: sampleRate, schedule: schedule, programs: programs, mixer: mixer,
            blockSize: blockSize, promptProgram: prompts ? singer.map { programs[$0] } : nil, tunings: tunings)
    }

    /// Which time through the range (`--loop`) `seconds` after its first beat is in, from 1; the notes' ring after
    /// the last pass is the last's, and the count-in (or a time never reached) the first's.
    public func pass(at seconds: Double) -> Int {
        guard schedule.passes > 1, seconds > 0, schedule.passLength > 0 else { return 1 }
        return min(schedule.passes, Int((min(seconds, schedule.length) / schedule.passLength + 1e-9).rounded(.down)) + 1)
    }

    /// `result` with the pass it was sung in: the judge's (a step back, a loop of a phrase) and, with `--loop`,
    /// which time through the range its note is in.
    func numbered(_ result: NoteResult) -> NoteResult {
        guard schedule.passes > 1 else { return result }
        var numbered = result
        numbered.pass += pass(at: result.note.onset) - 1
        return numbered
    }

    /// `results`, each with the pass it was sung in (``numbered(_:)-(NoteResult)``).
    func numbered(_ results: [NoteResult]) -> [NoteResult] { results.map(numbered) }

    /// The measure and beat (from 1) heard `seconds` after the range's first beat; "count-in" before it.
    public func position(at seconds: Double) -> (measure: String, beat: Int) {
        guard seconds >= 0 else { return ("count-in", 0) }
        // The measures are one pass's: a later pass is placed in the first.
        let seconds = seconds - Double(pass(at: seconds) - 1) * schedule.passLength
        guard let index = schedule.measures.lastIndex(where: { $0.start <= seconds }) else { return ("-", 0) }
        let (measureIndex, start) = schedule.measures[index]
        let end = index + 1 < schedule.measures.count ? schedule.measures[index + 1].start : schedule.passLength
        let measure = score.measures[measureIndex]
        let beats = Double(max(1, measure.time.beats.reduce(0, +)))
        let share = min(1, measure.duration.doubleValue / measure.time.measureLength.doubleValue)
        // A pickup is the end of a measure: its beats are the last ones. A short measure elsewhere starts on 1.
        let skipped = measureIndex == 0 ? (1 - share) * beats : 0
        let beat = Int(skipped + (seconds - start) / max(0.001, end - start) * share * beats) + 1
        return (measure.number, min(Int(beats), beat))
    }
}
