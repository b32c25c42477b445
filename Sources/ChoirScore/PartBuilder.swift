/// Collects one part's notes and lyrics while the reader walks its measures.
///
/// Positions are kept as (measure, offset) until every part has been read, because a measure's start
/// depends on the longest part in every measure before it.
final class PartBuilder {
    /// The part's id in the document.
    let id: String
    /// Divisions per quarter note in force; 1 until a `<divisions>` says otherwise.
    var divisions = Rational(1) {
        didSet { divisionsGiven = true }
    }
    /// The measure where a duration was first read before any `<divisions>` (taken as 1).
    private(set) var measureWithoutDivisions: Int?
    /// Measures with a note timed by its written type for want of a `<duration>`.
    private(set) var measuresWithoutDuration: [Int] = []
    /// Measures with a `<backup>` past their start, stopped at the barline.
    private(set) var backupsPastStart: [Int] = []
    /// Other slips read through as a musician reads them, by kind and measure.
    private(set) var slips: [(kind: Repair.Kind, measureIndex: Int)] = []
    /// Velocity from the last dynamic mark.
    var velocity = Dynamics.defaultVelocity
    var staffCount = 1
    /// Position inside the current measure, in quarter notes.
    private(set) var cursor = Rational.zero

    /// Semitones added to the written pitch, per staff; key 0 applies to every staff without its own.
    private var transposition: [Int: Double] = [:]
    private var divisionsGiven = false
    private var measureIndex = 0
    private var chordOnset = Rational.zero
    /// Where each voice of the current measure ends, whether it holds only rests, and how many. A measure has
    /// a few voices at most, so a list searched in order is quicker than hashing every note's voice.
    private var voices: [(name: String, end: Rational, restsOnly: Bool, rests: Int)] = []
    private var measureLengths: [MeasureLength] = []
    private var raw: [RawNote] = []
    private var rawLyrics: [RawLyric] = []
    private var verseNames: [String: Int] = [:]

    init(id: String) {
        self.id = id
    }

    func beginMeasure(_ index: Int) {
        measureIndex = index
        cursor = .zero
        chordOnset = .zero
        voices.removeAll(keepingCapacity: true)
        while measureLengths.count <= index { measureLengths.append(MeasureLength()) }
    }

    func endMeasure() {
        // A voice of nothing but rests says nothing about the measure's length: whole-measure rests are
        // often written with the wrong duration (a whole rest in 3/4, two whole rests in one 4/4 measure).
        for voice in voices {
            if voice.restsOnly {
                if voice.end >= measureLengths[measureIndex].rests ?? .zero {
                    measureLengths[measureIndex].rests = voice.end
                    measureLengths[measureIndex].restCount = voice.rests
                }
            } else {
                measureLengths[measureIndex].sounding = max(measureLengths[measureIndex].sounding ?? .zero, voice.end)
            }
        }
    }

    /// What this part's content says about the length of a measure.
    func length(ofMeasure index: Int) -> MeasureLength {
        index < measureLengths.count ? measureLengths[index] : MeasureLength()
    }

    private func reach(_ end: Rational, voice: String, rest: Bool) {
        guard let index = voices.firstIndex(where: { $0.name == voice }) else {
            voices.append((voice, end, rest, rest ? 1 : 0))
            return
        }
        voices[index].end = max(voices[index].end, end)
        voices[index].restsOnly = voices[index].restsOnly && rest
        voices[index].rests += rest ? 1 : 0
    }

    /// Records a slip of `kind` in the current measure, once.
    func noteSlip(_ kind: Repair.Kind) {
        if !slips.contains(where: { $0 == (kind, measureIndex) }) { slips.append((kind, measureIndex)) }
    }

    func setTransposition(_ semitones: Double, staff: Int?) {
        if let staff {
            transposition[staff] = semitones
        } else {
            transposition = [0: semitones]
        }
    }

    /// Converts a `<duration>` in divisions to quarter notes.
    func quarters(_ text: String, xml: XMLTokenizer) throws(ReadError) -> Rational {
        if !divisionsGiven, measureWithoutDivisions == nil { measureWithoutDivisions = measureIndex }
        let trimmed = text.trimmed
        guard let value = Rational(decimal: trimmed) else {
            let problem = trimmed.hasPrefix("-") ? "a negative duration" : "'\(trimmed)'"
            throw ReadError("expected a duration of zero or more divisions but found \(problem)", offset: xml.tokenOffset)
        }
        let result = value * Rational(divisions.denominator, divisions.numerator)
        guard result <= MusicXMLReader.maximumNoteQuarters else {
            throw ReadError(
                "duration \(trimmed) is \(result.doubleValue) quarter notes: expected at most "
                    + "\(MusicXMLReader.maximumNoteQuarters)", offset: xml.tokenOffset)
        }
        return result
    }

    func backup(_ duration: Rational) {
        // A backup past the start of the measure is an encoding slip; stop at the barline.
        if duration > cursor, backupsPastStart.last != measureIndex { backupsPastStart.append(measureIndex) }
        cursor = duration > cursor ? .zero : cursor - duration
    }

    func forward(_ duration: Rational, voice: String?, staff: Int?) throws(ReadError) {
        cursor = try advanced(cursor, by: duration)
        // A forward pads a voice to where its music goes on: it speaks for the measure's length.
        reach(cursor, voice: voice ?? "1", rest: false)
    }

    private func advanced(_ position: Rational, by duration: Rational) throws(ReadError) -> Rational {
        guard let sum = position.addingReportingOverflow(duration), sum <= MusicXMLReader.maximumNoteQuarters else {
            throw ReadError("the measure is too long to represent exactly", offset: 0)
        }
        return sum
    }

    // MARK: - Notes

    func readNote(_ xml: XMLTokenizer) throws {
        let noteOffset = xml.tokenOffset
        var attributeDynamics = try xml.decimalAttribute("dynamics", "a percentage of forte in <note dynamics>")
        if let dynamics = attributeDynamics, dynamics < 0 {
            noteSlip(.negativeDynamics)
            attributeDynamics = nil
        }
        var isGrace = false, isCue = false, isChord = false, isRest = false, isUnpitched = false
        var step: String?, alter = 0.0, octave: Int?
        var duration: Rational?
        var type: Rational?, dots = 0, actualNotes = 1, normalNotes = 1
        var voice = "1", staff = 1
        // Ties as sounded (`<tie>`) and as drawn (`<tied>`); a drawn tie is held even without its sound.
        var tieStart = false, tieStop = false, tieSounded = false
        var lyrics: [(number: String?, syllabic: Lyric.Syllabic, text: String, extends: Bool)] = []

        try xml.forEachChild { xml, name in
            switch name {
            case "grace": isGrace = true
            case "cue": isCue = true
            case "chord": isChord = true
            case "rest": isRest = true
            case "unpitched": isUnpitched = true
            case "pitch":
                try xml.forEachChild { xml, name in
                    switch name {
                    case "step": step = try xml.readText().trimmed
                    case "alter":
                        let text = try xml.readText().trimmed
                        guard let value = Double(text), value.isFinite, abs(value) <= 4 else {
                            throw ReadError(
                                "expected an <alter> between -4 and 4 semitones but found '\(text)'",
                                offset: xml.tokenOffset)
                        }
                        alter = value
                    case "octave":
                        let text = try xml.readText().trimmed
                        guard let value = Int(text), (0...9).contains(value) else {
                            throw ReadError("expected an <octave> from 0 to 9 but found '\(text)'", offset: xml.tokenOffset)
                        }
                        octave = value
                    default: break
                    }
                }
            case "duration": duration = try self.quarters(xml.readText(), xml: xml)
            case "tie":
                tieSounded = true
                switch xml.attribute("type") {
                case "start": tieStart = true
                case "stop": tieStop = true
                case "continue": (tieStart, tieStop) = (true, true)
                default: break
                }
            case "notations":
                // <tied> is the notation; some writers give only it, so it counts as a tie too.
                try xml.forEachChild { xml, name in
                    guard name == "tied" else { return }
                    // "let-ring" ties to nothing: the note rings on its own.
                    switch xml.attribute("type") {
                    case "start": tieStart = true
                    case "stop": tieStop = true
                    case "continue": (tieStart, tieStop) = (true, true)
                    default: break
                    }
                }
            case "voice": voice = try xml.readText().trimmed
            case "staff":
                let written = try xml.readInteger("a staff number in <staff>")
                // A staff the part does not have is a slip: the note is on the page, on the nearest staff.
                staff = min(max(written, 1), self.staffCount)
                if staff != written { self.noteSlip(.staffPastStaves) }
            case "type": type = NoteType.quarters(try xml.readText().trimmed)
            case "dot": dots += 1
            case "time-modification":
                try xml.forEachChild { xml, name in
                    if name == "actual-notes" {
                        actualNotes = try xml.readInteger(in: 1...1000, "a number of notes from 1 to 1000 in <actual-notes>")
                    }
                    if name == "normal-notes" {
                        normalNotes = try xml.readInteger(in: 1...1000, "a number of notes from 1 to 1000 in <normal-notes>")
                    }
                }
            case "lyric":
                if let lyric = try Self.readLyric(xml) { lyrics.append(lyric) }
            default: break
            }
        }
        if isGrace { return }  // Grace notes take no time of their own.

        let length: Rational
        if let duration {
            length = duration
        } else if let type {
            guard dots <= 8 else { throw ReadError("expected at most 8 <dot> on a note without <duration>", offset: noteOffset) }
            length = NoteType.dotted(type, dots: dots) * Rational(normalNotes, actualNotes)
            if measuresWithoutDuration.last != measureIndex { measuresWithoutDuration.append(measureIndex) }
        } else {
            throw ReadError("expected <duration> in a <note> that is not a grace note", offset: noteOffset)
        }

        let onset = isChord ? chordOnset : cursor
        if !isChord {
            chordOnset = cursor
            cursor = try advanced(cursor, by: length)
        }
        reach(isChord ? try advanced(onset, by: length) : cursor, voice: voice, rest: isRest)
        if isRest || isCue || isUnpitched { return }

        guard let step, let semitone = NoteType.stepSemitones[step] else {
            throw ReadError("expected <pitch> with a <step> from A to G in a pitched note", offset: noteOffset)
        }
        guard let octave else { throw ReadError("expected <octave> in <pitch>", offset: noteOffset) }
        let sounding = Double(12 * (octave + 1) + semitone) + alter + (transposition[staff] ?? transposition[0] ?? 0)
        guard (0...127).contains(sounding.rounded()) else {
            throw ReadError(
                "impossible pitch: \(step)\(octave) with alter \(alter) sounds at MIDI \(sounding), expected 0 to 127",
                offset: noteOffset)
        }
        let midi = Int(sounding.rounded())
        let velocity = attributeDynamics.map { Dynamics.velocity(percentOfForte: $0) } ?? self.velocity
        raw.append(
            RawNote(
                measure: measureIndex, offset: onset, duration: length, midi: midi,
                cents: (sounding - Double(midi)) * 100,
                velocity: velocity, voice: voice, staff: staff, tieStart: tieStart, tieStop: tieStop,
                tieSounded: tieSounded, hasLyric: !lyrics.isEmpty))
        for lyric in lyrics {
            rawLyrics.append(
                RawLyric(
                    measure: measureIndex, offset: onset, text: lyric.text, syllabic: lyric.syllabic,
                    verse: verseNumber(lyric.number), extends: lyric.extends, voice: voice, staff: staff))
        }
    }

    private static func readLyric(_ xml: XMLTokenizer) throws
        -> (number: String?, syllabic: Lyric.Syllabic, text: String, extends: Bool)?
    {
        let number = xml.attribute("number")
        var syllabic: Lyric.Syllabic?
        var text = ""
        var sawText = false
        var elision: String?
        var elided = false
        var extends = false
        try xml.forEachChild { xml, name in
            switch name {
            case "syllabic":
                let value = Lyric.Syllabic(rawValue: try xml.readText().trimmed) ?? .single
                if syllabic == nil { syllabic = value }
            case "text":
                let part = try xml.readText()
                if sawText {
                    text += elision ?? ""
                    elided = true
                }
                text += part
                sawText = true
                elision = nil
            case "elision":
                let mark = try xml.readText()
                elision = mark.isEmpty ? "‿" : mark
            case "extend":
                if xml.attribute("type") != "stop" { extends = true }
            default: break
            }
        }
        guard sawText else { return nil }
        return (number, elided ? .composite : syllabic ?? .single, text, extends)
    }

    /// Verses are numbered by the lyric's `number` attribute; names that are not numbers get the next
    /// numbers in order of appearance.
    private func verseNumber(_ number: String?) -> Int {
        guard let number else { return 1 }
        if let value = Int(number.trimmed), value > 0 { return value }
        if let known = verseNames[number] { return known }
        let digits = number.reversed().prefix(while: \.isNumber)
        let value = Int(String(digits.reversed())).flatMap { $0 > 0 ? $0 : nil } ?? (verseNames.count + 1)
        verseNames[number] = value
        return value
    }

    // MARK: - Assembly

    /// The part's notes on the final layout, ties merged, sorted by onset and pitch, and the ties read as a
    /// musician reads them where the encoding is short of them: by kind, the measure where each tie starts.
    func notes(layout: [Measure]) -> (notes: [Note], tieRepairs: [(kind: Repair.Kind, measureIndex: Int)]) {
        var notes: [Note] = []
        notes.reserveCapacity(raw.count)
        var tieRepairs: [(kind: Repair.Kind, measureIndex: Int)] = []
        // Open ties by exact pitch: the note they extend, and whether the last tie into it was only drawn.
        var openTies: [Double: [(index: Int, drawn: Bool)]] = [:]
        // Per voice, the stretch that notes starting ties cover without a gap: an arpeggio's ties reach across it.
        var tiedRuns: [String: (start: Rational, end: Rational)] = [:]
        let ordered = raw.enumerated().sorted {
            let a = layout[$0.element.measure].start + $0.element.offset
            let b = layout[$1.element.measure].start + $1.element.offset
            return a == b ? $0.offset < $1.offset : a < b
        }
        for (_, note) in ordered {
            let onset = layout[note.measure].start + note.offset
            let pitch = Double(note.midi) * 100 + note.cents
            let candidates = openTies[pitch] ?? []
            // A tie stop takes a tie from any voice (ties may cross voices); a note without one still ends a tie
            // of its voice whose stop the writer left out, as a musician reads the tie on the page, unless it
            // has a syllable of its own, which is sung. A stop after the tie's note ended (not while it sounds)
            // takes an arpeggio's tie: its notes and every note since in the voice start ties, and all ring into
            // the tied chord.
            var slot = candidates.firstIndex {
                notes[$0.index].end == onset
                    && (note.tieStop || (notes[$0.index].voice == note.voice && !note.hasLyric))
            }
            if slot == nil, note.tieStop, let run = tiedRuns[note.voice], run.start < onset, onset <= run.end {
                slot = candidates.lastIndex {
                    notes[$0.index].voice == note.voice && notes[$0.index].onset >= run.start && notes[$0.index].end < onset
                }
            }
            if slot == nil, !note.tieStop, note.hasLyric,
                let sung = candidates.firstIndex(where: { notes[$0.index].end == onset && notes[$0.index].voice == note.voice })
            {
                tieRepairs.append((.tieIntoSyllable, notes[candidates[sung].index].measureIndex))
                openTies[pitch]?.remove(at: sung)
            }
            if let slot {
                let open = candidates[slot]
                if !note.tieStop {
                    tieRepairs.append((.unendedTie, notes[open.index].measureIndex))
                } else if open.drawn, !note.tieSounded {
                    tieRepairs.append((.drawnTie, notes[open.index].measureIndex))
                }
                notes[open.index].duration = onset + note.duration - notes[open.index].onset
                if note.tieStart {
                    openTies[pitch]?[slot].drawn = !note.tieSounded
                } else {
                    openTies[pitch]?.remove(at: slot)
                }
            } else {
                notes.append(
                    Note(
                        onset: onset, duration: note.duration, midi: note.midi, cents: note.cents,
                        velocity: note.velocity, voice: note.voice, staff: note.staff, measureIndex: note.measure))
                if note.tieStart { openTies[pitch, default: []].append((notes.count - 1, !note.tieSounded)) }
            }
            if note.tieStart {
                let end = onset + note.duration
                if let run = tiedRuns[note.voice], run.start <= onset, onset <= run.end {
                    tiedRuns[note.voice]!.end = max(run.end, end)
                } else {
                    tiedRuns[note.voice] = (onset, end)
                }
            }
        }
        notes.sort { $0.onset == $1.onset ? $0.pitch < $1.pitch : $0.onset < $1.onset }
        return (notes, tieRepairs)
    }

    /// The part's lyrics on the final layout, sorted by onset and verse.
    func lyrics(layout: [Measure]) -> [Lyric] {
        rawLyrics.map {
            Lyric(
                onset: layout[$0.measure].start + $0.offset, text: $0.text, syllabic: $0.syllabic, verse: $0.verse,
                extends: $0.extends, voice: $0.voice, staff: $0.staff, measureIndex: $0.measure)
        }
        .enumerated()
        .sorted {
            ($0.element.onset, $0.element.verse, $0.offset) < ($1.element.onset, $1.element.verse, $1.offset)
        }
        .map(\.element)
    }
}

/// How long one part's content makes a measure.
struct MeasureLength {
    /// Where the voices with notes (or forwards) end; nil when there are none.
    var sounding: Rational?
    /// Where the voices of nothing but rests end; nil when there are none.
    var rests: Rational?
    /// How many rests the longest of those voices holds.
    var restCount = 0

    var isEmpty: Bool { sounding == nil && rests == nil }
}

private struct RawNote {
    var measure: Int
    var offset: Rational
    var duration: Rational
    var midi: Int
    var cents: Double
    var velocity: Int
    var voice: String
    var staff: Int
    var tieStart: Bool
    var tieStop: Bool
    /// Whether the note has a `<tie>` (the tie's sound) and not only a `<tied>` (the tie as drawn).
    var tieSounded: Bool
    var hasLyric: Bool
}

private struct RawLyric {
    var measure: Int
    var offset: Rational
    var text: String
    var syllabic: Lyric.Syllabic
    var verse: Int
    var extends: Bool
    var voice: String
    var staff: Int
}
