/// Reads a MusicXML document (score-partwise or score-timewise) into a `Score`.
///
/// It follows the MusicXML 4.0 semantics for time (divisions, backup, forward, chords, grace and cue notes),
/// pitch (alter, transpose), ties, dynamics, lyrics, tempo and the repeat structure. Reading is done in two
/// passes: the first walks the XML once and records every note at (measure, offset); the second lays the
/// measures end to end, using the longest part in each measure, and merges ties on those exact positions.
final class MusicXMLReader {
    private var title: String?
    private var movementTitle: String?
    private var creditTitle: String?
    /// The largest words of the first page's credits that say nothing of their type (MusicXML 1 files have no
    /// `<credit-type>`), and their font size: the title as the page shows it.
    private var largestCredit: (words: String, size: Double)?
    private var composer: String?
    private var declaredParts: [PartDeclaration] = []
    private var builders: [String: PartBuilder] = [:]
    /// Parts read though the part list never declared them, and parts read without an id, by part id.
    private var undeclared: Set<String> = []
    private var withoutID: Set<String> = []
    /// Declared parts read from a `<part>` that repeated another part's id, by part id.
    private var repeatedID: Set<String> = []
    private var measures: [MeasureBuilder] = []

    /// Bounds that keep arithmetic exact and memory bounded on hostile input.
    static let maximumDivisions = Rational(10_000_000)
    static let maximumNoteQuarters = Rational(100_000)

    /// Reads a whole UTF-8 document.
    func read(utf8 document: [UInt8]) throws(ReadError) -> Score {
        let xml = XMLTokenizer(utf8: document)
        do {
            try readDocument(xml)
        } catch let error as XMLSyntaxError {
            throw ReadError(error.message, offset: error.offset)
        } catch let error as ReadError {
            throw error
        } catch {
            throw ReadError("\(error)", offset: xml.tokenOffset)
        }
        return try assemble()
    }

    private func readDocument(_ xml: XMLTokenizer) throws {
        var root: String?
        while root == nil {
            switch try xml.next() {
            case .start: root = xml.name
            case .endOfDocument: throw ReadError("expected a MusicXML document but found no root element", offset: 0)
            default: continue
            }
        }
        switch root {
        case "score-partwise": try readScore(xml, timewise: false)
        case "score-timewise": try readScore(xml, timewise: true)
        case let other?:
            throw ReadError(
                "expected <score-partwise> or <score-timewise> but found <\(other)>: not a MusicXML score",
                offset: xml.tokenOffset)
        case nil: break
        }
        while true {
            if try xml.next() == .endOfDocument { break }
        }
    }

    private func readScore(_ xml: XMLTokenizer, timewise: Bool) throws {
        var sawPartList = false
        try xml.forEachChild { xml, name in
            switch name {
            case "work":
                try xml.forEachChild { xml, name in
                    if name == "work-title" { self.title = Self.title(try xml.readText()) }
                }
            case "movement-title":
                self.movementTitle = Self.title(try xml.readText())
            case "identification":
                try xml.forEachChild { xml, name in
                    guard name == "creator" else { return }
                    let type = xml.attribute("type")
                    let text = try xml.readText().oneLine
                    if type == "composer" || type == nil, self.composer == nil, !text.isEmpty { self.composer = text }
                }
            case "credit":
                var type: String?
                var words = ""
                var size: Double?
                let page = xml.attribute("page").flatMap { Int($0) } ?? 1
                try xml.forEachChild { xml, name in
                    if name == "credit-type", type == nil { type = try xml.readText().trimmed }
                    if name == "credit-words", words.isEmpty {
                        size = xml.attribute("font-size").flatMap { Double($0) }
                        words = try xml.readText().oneLine
                    }
                }
                guard Self.isTitle(words) else { break }
                if type == "title", self.creditTitle == nil { self.creditTitle = words }
                if type == nil, page == 1, let size, size > self.largestCredit?.size ?? 0,
                    !words.allSatisfy({ $0.isNumber || $0.isWhitespace })
                {
                    self.largestCredit = (words, size)
                }
            case "part-list":
                sawPartList = true
                try self.readPartList(xml)
            case "part" where !timewise:
                guard sawPartList else { throw ReadError("expected <part-list> before the first <part>", offset: xml.tokenOffset) }
                var id = xml.attribute("id")
                if let given = id, self.builders[given] != nil {
                    // A partwise document gives each part once: a second <part> with an id already read is the
                    // one declared part no <part> has claimed, as with a missing id.
                    guard let unread = self.declaredParts.first(where: { self.builders[$0.id] == nil }) else {
                        throw ReadError(
                            "<part id=\"\(given)\"> appears twice: expected one <part> per part", offset: xml.tokenOffset)
                    }
                    self.repeatedID.insert(unread.id)
                    id = unread.id
                }
                let builder = try self.builder(for: id, xml: xml)
                var measureIndex = 0
                try xml.forEachChild { xml, name in
                    guard name == "measure" else { return }
                    try self.readMeasureContent(
                        xml, index: measureIndex, number: xml.attribute("number"),
                        implicit: xml.attribute("implicit") == "yes", part: builder)
                    measureIndex += 1
                }
            case "measure" where timewise:
                guard sawPartList else { throw ReadError("expected <part-list> before the first <measure>", offset: xml.tokenOffset) }
                let index = self.measures.count
                let number = xml.attribute("number")
                let implicit = xml.attribute("implicit") == "yes"
                try xml.forEachChild { xml, name in
                    guard name == "part" else { return }
                    let builder = try self.builder(for: xml.attribute("id"), xml: xml)
                    try self.readMeasureContent(xml, index: index, number: number, implicit: implicit, part: builder)
                }
            default:
                break
            }
        }
    }

    private func builder(for id: String?, xml: XMLTokenizer) throws -> PartBuilder {
        guard let id else {
            // Only one declared part can be meant: the next one no <part> has claimed.
            guard let unread = declaredParts.first(where: { builders[$0.id] == nil }) else {
                throw ReadError("expected an id attribute on <part>", offset: xml.tokenOffset)
            }
            withoutID.insert(unread.id)
            return try builder(for: unread.id, xml: xml)
        }
        if let existing = builders[id] { return existing }
        if !declaredParts.contains(where: { $0.id == id }) {
            declaredParts.append(PartDeclaration(id: id))
            undeclared.insert(id)
        }
        let builder = PartBuilder(id: id)
        builders[id] = builder
        return builder
    }

    private func readPartList(_ xml: XMLTokenizer) throws {
        try xml.forEachChild { xml, name in
            guard name == "score-part" else { return }
            guard let id = xml.attribute("id") else {
                throw ReadError("expected an id attribute on <score-part>", offset: xml.tokenOffset)
            }
            var part = PartDeclaration(id: id)
            try xml.forEachChild { xml, name in
                switch name {
                case "part-name": part.name = try xml.readText().oneLine
                case "part-abbreviation": part.abbreviation = try xml.readText().trimmed
                case "score-instrument":
                    try xml.forEachChild { xml, name in
                        if name == "instrument-name", part.instrumentName == nil {
                            part.instrumentName = try xml.readText().trimmed
                        }
                    }
                case "midi-instrument":
                    try xml.forEachChild { xml, name in
                        guard name == "midi-program", part.midiProgram == nil else { return }
                        // A program past General MIDI's 128 is a slip no singer sees: the part keeps its own sound.
                        let program = try xml.readInteger("a MIDI program from 1 to 128 in <midi-program>")
                        if (1...128).contains(program) { part.midiProgram = program - 1 } else { part.programOutOfRange = true }
                    }
                default: break
                }
            }
            self.declaredParts.append(part)
        }
    }

    // MARK: - Measures

    /// Reads the music data of one part in one measure; `xml` is positioned just inside the element.
    private func readMeasureContent(
        _ xml: XMLTokenizer, index: Int, number: String?, implicit: Bool, part: PartBuilder
    ) throws {
        while measures.count <= index {
            measures.append(MeasureBuilder(number: String(measures.count + 1)))
        }
        // The first part to reach a measure names it.
        if let number, !measures[index].named {
            measures[index].number = number
            measures[index].isImplicit = implicit
            measures[index].named = true
        }
        part.beginMeasure(index)
        try xml.forEachChild { xml, name in
            switch name {
            case "note": try part.readNote(xml)
            case "backup", "forward":
                var duration: Rational?
                var voice: String?
                var staff: Int?
                try xml.forEachChild { xml, child in
                    switch child {
                    case "duration": duration = try part.quarters(xml.readText(), xml: xml)
                    case "voice": voice = try xml.readText().trimmed
                    case "staff": staff = Int(try xml.readText().trimmed)
                    default: break
                    }
                }
                guard let duration else {
                    throw ReadError("expected <duration> in <\(name)>", offset: xml.tokenOffset)
                }
                if name == "backup" { part.backup(duration) } else { try part.forward(duration, voice: voice, staff: staff) }
            case "attributes": try self.readAttributes(xml, index: index, part: part)
            case "direction": try self.readDirection(xml, index: index, part: part)
            case "sound": try self.applySound(xml, index: index, part: part)
            case "barline": try self.readBarline(xml, index: index, part: part)
            default: break
            }
        }
        part.endMeasure()
    }

    private func readAttributes(_ xml: XMLTokenizer, index: Int, part: PartBuilder) throws {
        try xml.forEachChild { xml, name in
            switch name {
            case "divisions":
                let text = try xml.readText()
                guard let value = Rational(decimal: text), value > .zero else {
                    throw ReadError(
                        "expected a positive number in <divisions> but found '\(text.trimmed)'", offset: xml.tokenOffset)
                }
                guard value <= Self.maximumDivisions, value.denominator <= 1000 else {
                    throw ReadError("<divisions> \(text.trimmed) is too fine to represent", offset: xml.tokenOffset)
                }
                part.divisions = value
            case "key":
                if xml.attribute("number").map({ $0 != "1" }) ?? false { return }
                var fifths: Int?
                var mode: String?
                try xml.forEachChild { xml, name in
                    if name == "fifths" { fifths = try xml.readInteger(in: -11...11, "a number of fifths from -11 to 11 in <fifths>") }
                    if name == "mode" { mode = try xml.readText().trimmed }
                }
                if let fifths, self.measures[index].key == nil {
                    self.measures[index].key = KeySignature(fifths: fifths, mode: mode)
                }
            case "time":
                if xml.attribute("number").map({ $0 != "1" }) ?? false { return }
                var beats: [Int] = []
                var beatType: Int?
                try xml.forEachChild { xml, name in
                    if name == "beats" {
                        let text = try xml.readText().trimmed
                        let counts = text.split(separator: "+", omittingEmptySubsequences: false).compactMap { Int($0.trimmed) }
                        guard counts.count == text.count(where: { $0 == "+" }) + 1, counts.allSatisfy({ (1...1000).contains($0) })
                        else {
                            throw ReadError(
                                "expected beats from 1 to 1000 (3, or 2+3) in <beats> but found '\(text)'",
                                offset: xml.tokenOffset)
                        }
                        beats += counts
                    }
                    if name == "beat-type", beatType == nil {
                        beatType = try xml.readInteger(in: 1...1024, "a beat type from 1 to 1024 in <beat-type>")
                    }
                }
                if !beats.isEmpty, let beatType, self.measures[index].time == nil {
                    self.measures[index].time = TimeSignature(beats: beats, beatType: beatType)
                }
            case "staves":
                let staves = try xml.readInteger(in: 1...64, "a number of staves from 1 to 64 in <staves>")
                part.staffCount = max(part.staffCount, staves)
            case "transpose":
                let staff = try xml.integerAttribute("number", in: 1...64, "a staff number from 1 to 64 in <transpose number>")
                var chromatic = 0.0
                var octaves = 0
                try xml.forEachChild { xml, name in
                    if name == "chromatic" {
                        let text = try xml.readText().trimmed
                        guard let value = Double(text), value.isFinite else {
                            throw ReadError("expected a number of semitones in <chromatic> but found '\(text)'", offset: xml.tokenOffset)
                        }
                        chromatic = value
                    }
                    if name == "octave-change" { octaves = try xml.readInteger("a whole number of octaves in <octave-change>") }
                }
                guard abs(chromatic) <= 48, abs(octaves) <= 4 else {
                    throw ReadError("expected a transposition within 4 octaves", offset: xml.tokenOffset)
                }
                part.setTransposition(chromatic + Double(12 * octaves), staff: staff)
            default: break
            }
        }
    }

    private func readDirection(_ xml: XMLTokenizer, index: Int, part: PartBuilder) throws {
        var metronome: Double?
        var dynamics: Int?
        var words: [String] = []
        var segnoSign = false
        var codaSign = false
        var soundSeen = false
        try xml.forEachChild { xml, name in
            switch name {
            case "direction-type":
                try xml.forEachChild { xml, name in
                    switch name {
                    case "metronome": metronome = try Self.readMetronome(xml)
                    case "dynamics":
                        try xml.forEachChild { _, mark in
                            if let velocity = Dynamics.velocity(mark) { dynamics = velocity }
                        }
                    case "words": words.append(try xml.readText().trimmed)
                    case "segno": segnoSign = true
                    case "coda": codaSign = true
                    default: break
                    }
                }
            case "sound":
                soundSeen = true
                let hadTempo = xml.attribute("tempo") != nil
                try self.applySound(xml, index: index, part: part)
                if hadTempo { metronome = nil }
                if xml.attribute("dynamics") != nil { dynamics = nil }
            default: break
            }
        }
        if let metronome { self.addTempo(metronome, index: index, part: part) }
        if let dynamics { part.velocity = dynamics }
        if !soundSeen {
            // Writers that leave out <sound> still print the jumps as words and symbols.
            if segnoSign { printJump(index: index, part: part) { $0.segno = "segno" } }
            if codaSign { printJump(index: index, part: part) { $0.coda = "coda" } }
            for text in words { applyJumpWords(text, index: index, part: part) }
        }
    }

    private func applyJumpWords(_ text: String, index: Int, part: PartBuilder) {
        let lower = text.lowercased()
        if lower.hasPrefix("d.c.") || lower.hasPrefix("da capo") {
            printJump(index: index, part: part) { $0.daCapo = true }
        } else if lower.hasPrefix("d.s.") || lower.hasPrefix("dal segno") {
            printJump(index: index, part: part) { $0.dalSegno = "segno" }
        } else if lower == "fine" {
            printJump(index: index, part: part) { $0.fine = true }
        } else if lower.hasPrefix("to coda") {
            printJump(index: index, part: part) { $0.toCoda = "coda" }
        }
    }

    /// Records a jump or its target that is printed only; the first part to print one in a measure names it.
    private func printJump(index: Int, part: PartBuilder, _ set: (inout Jumps) -> Void) {
        set(&measures[index].printed)
        if measures[index].printedIn == nil { measures[index].printedIn = part.id }
    }

    private static func readMetronome(_ xml: XMLTokenizer) throws -> Double? {
        var unit: Rational?
        var dots = 0
        var perMinute: Double?
        var units = 0
        try xml.forEachChild { xml, name in
            switch name {
            case "beat-unit":
                units += 1
                if units == 1 { unit = NoteType.quarters(try xml.readText().trimmed) }
            case "beat-unit-dot": if units == 1 { dots += 1 }
            case "per-minute":
                // Often "c. 60" or "60-66": the first number is the tempo.
                let text = try xml.readText()
                let digits = text.drop(while: { !$0.isNumber }).prefix(while: { $0.isNumber || $0 == "." })
                perMinute = Double(digits)
            default: break
            }
        }
        guard let unit, let perMinute, units == 1 else { return nil }
        return perMinute * NoteType.dotted(unit, dots: dots).doubleValue
    }

    private func applySound(_ xml: XMLTokenizer, index: Int, part: PartBuilder) throws(ReadError) {
        if let tempo = try xml.decimalAttribute("tempo", "a number of quarter notes a minute in <sound tempo>") {
            addTempo(tempo, index: index, part: part)
        }
        if let dynamics = try xml.decimalAttribute("dynamics", "a percentage of forte in <sound dynamics>") {
            // Below nothing is a slip no singer sees (some exports write -1.11): the dynamics before go on.
            if dynamics >= 0 { part.velocity = Dynamics.velocity(percentOfForte: dynamics) } else { part.noteSlip(.negativeDynamics) }
        }
        if xml.attribute("dacapo") == "yes" { measures[index].sounded.daCapo = true }
        if let name = xml.attribute("dalsegno") { measures[index].sounded.dalSegno = name }
        if let name = xml.attribute("segno") { measures[index].sounded.segno = name }
        if let name = xml.attribute("coda") { measures[index].sounded.coda = name }
        if let name = xml.attribute("tocoda") { measures[index].sounded.toCoda = name }
        if xml.attribute("fine") != nil { measures[index].sounded.fine = true }
        if xml.attribute("forward-repeat") == "yes" { measures[index].repeatForward = true }
        if xml.attribute("after-jump") == "yes" { measures[index].repeatsAfterJump = true }
    }

    private func addTempo(_ qpm: Double, index: Int, part: PartBuilder) {
        // A tempo of nothing, or faster than any music, is a slip a musician reads through: the tempo goes on.
        guard qpm.isFinite, qpm > 0, qpm <= 2000 else { return part.noteSlip(.tempoOutOfRange) }
        measures[index].tempos.append((part.cursor, qpm))
    }

    private func readBarline(_ xml: XMLTokenizer, index: Int, part: PartBuilder) throws {
        try xml.forEachChild { xml, name in
            switch name {
            case "repeat":
                if xml.attribute("direction") == "forward" {
                    self.measures[index].repeatForward = true
                } else if xml.attribute("direction") == "backward" {
                    // A repeat played no times or more than a hundred is a slip a musician reads through: held to
                    // the range, and said.
                    if let times = try xml.integerAttribute("times", "a number of times in <repeat times>") {
                        let held = min(max(times, 1), 100)
                        if held != times { part.noteSlip(.repeatTimes) }
                        self.measures[index].repeatBackward = max(self.measures[index].repeatBackward, held)
                    }
                    self.measures[index].hasBackwardRepeat = true
                }
            case "ending":
                let numbers = (xml.attribute("number") ?? "")
                    .split(whereSeparator: { $0 == "," || $0 == " " })
                    .compactMap { Int($0.filter(\.isNumber)) }
                    .filter { (1...100).contains($0) }
                switch xml.attribute("type") {
                case "start": self.measures[index].endingStart = numbers.isEmpty ? [0] : numbers
                case "stop", "discontinue": self.measures[index].endingStop = true
                default: break
                }
            case "segno": self.printJump(index: index, part: part) { $0.segno = "segno" }
            case "coda": self.printJump(index: index, part: part) { $0.coda = "coda" }
            case "sound": try self.applySound(xml, index: index, part: part)
            default: break
            }
        }
    }

    // MARK: - Assembly

    private func assemble() throws(ReadError) -> Score {
        guard !declaredParts.isEmpty else {
            throw ReadError("expected at least one <score-part> in <part-list>", offset: 0)
        }
        // Lay the measures end to end; each is as long as its longest part.
        var layout: [Measure] = []
        var start = Rational.zero
        var time = TimeSignature.common
        var key = KeySignature(fifths: 0)
        for (index, builder) in measures.enumerated() {
            time = builder.time ?? time
            key = builder.key ?? key
            // The length the parts with notes agree on; where they differ, the one most of them give (the
            // longer one on a tie), so that one part's slip does not shift the others. Rests alone decide only
            // a measure of rests, and then only when they agree and fit the time signature.
            var votes: [Rational: Int] = [:]
            var restClaim: Rational?
            var restClaimsAgree = true
            for part in builders.values {
                let length = part.length(ofMeasure: index)
                if let sounding = length.sounding { votes[sounding, default: 0] += 1 }
                if let rests = length.rests {
                    restClaimsAgree = restClaimsAgree && (restClaim ?? rests) == rests
                    restClaim = rests
                }
            }
            let length: Rational
            if let agreed = votes.max(by: { $0.value == $1.value ? $0.key < $1.key : $0.value < $1.value })?.key {
                length = agreed
            } else if let claim = restClaim, restClaimsAgree, claim <= time.measureLength || builder.isImplicit {
                length = claim
            } else {
                length = builder.isImplicit && restClaim == nil ? .zero : time.measureLength
            }
            var measure = Measure(
                number: builder.number, start: start, duration: length, time: time, key: key,
                isImplicit: builder.isImplicit)
            measure.repeatForward = builder.repeatForward
            measure.repeatBackward = builder.hasBackwardRepeat
            measure.repeatTimes = builder.repeatBackward > 0 ? builder.repeatBackward : nil
            let jumps = builder.jumps
            measure.segno = jumps.segno
            measure.coda = jumps.coda
            measure.toCoda = jumps.toCoda
            measure.daCapo = jumps.daCapo
            measure.dalSegno = jumps.dalSegno
            measure.fine = jumps.fine
            measure.repeatsAfterJump = builder.repeatsAfterJump
            layout.append(measure)
            guard let next = start.addingReportingOverflow(length) else {
                throw ReadError("the score is too long to represent exactly", offset: 0)
            }
            start = next
        }
        Self.assignEndings(&layout, measures)

        var tempos: [TempoMark] = []
        for (index, builder) in measures.enumerated() {
            for (offset, qpm) in builder.tempos {
                let position = layout[index].start + offset
                // Several parts usually carry the same mark; the first one read wins.
                if !tempos.contains(where: { $0.position == position }) {
                    tempos.append(TempoMark(position: position, measureIndex: index, quarterNotesPerMinute: qpm))
                }
            }
        }
        tempos.sort { $0.position < $1.position }

        let names = declaredParts.enumerated().map { number, declaration in
            [
                declaration.name, declaration.instrumentName ?? "",
                declaration.midiProgram.map { GeneralMIDI.programNames[$0] } ?? "", "Part \(number + 1)",
            ]
            .first { !$0.isEmpty }!
        }
        var repairs: [Repair] = []
        let parts = zip(declaredParts, names).map { declaration, name -> Part in
            let builder = builders[declaration.id]
            let (notes, tieRepairs) = builder?.notes(layout: layout) ?? ([], [])
            var part = Part(
                id: declaration.id, name: name, abbreviation: declaration.abbreviation,
                midiProgram: declaration.midiProgram, instrumentName: declaration.instrumentName,
                staffCount: builder?.staffCount ?? 1, notes: notes, lyrics: builder?.lyrics(layout: layout) ?? [])
            if undeclared.contains(declaration.id) { repairs.append(Repair(.undeclaredPart, part: name)) }
            if withoutID.contains(declaration.id) { repairs.append(Repair(.partWithoutID, part: name)) }
            if repeatedID.contains(declaration.id) { repairs.append(Repair(.repeatedPartID, part: name)) }
            if declaration.programOutOfRange, declaration.midiProgram == nil { repairs.append(Repair(.midiProgram, part: name)) }
            guard let builder else { return part }
            if let index = builder.measureWithoutDivisions {
                repairs.append(Repair(.noDivisions, part: name, measureIndex: index))
            }
            repairs += builder.measuresWithoutDuration.map { Repair(.noDuration, part: name, measureIndex: $0) }
            repairs += builder.backupsPastStart.map { Repair(.backupPastStart, part: name, measureIndex: $0) }
            repairs += builder.slips.map { Repair($0.kind, part: name, measureIndex: $0.measureIndex) }
            repairs += tieRepairs.map { Repair($0.kind, part: name, measureIndex: $0.measureIndex) }
            for (index, measure) in layout.enumerated() {
                let length = builder.length(ofMeasure: index)
                if let sounding = length.sounding, sounding != measure.duration {
                    part.misfitMeasures[index] = sounding - measure.duration
                    repairs.append(Repair(.measureLength, part: name, measureIndex: index))
                } else if let rests = length.rests, rests != measure.duration {
                    // One rest is the measure's rest; several that overrun it are read as one (two whole rests
                    // in 4/4); several that fall short leave the measure short in this part.
                    let kind: Repair.Kind =
                        length.restCount == 1 ? .measureRest : rests > measure.duration ? .extraRests : .measureLength
                    repairs.append(Repair(kind, part: name, measureIndex: index))
                }
            }
            return part
        }
        // A printed jump changes what plays; a printed Fine, segno or coda only when a jump uses it.
        let jumps = measures.map(\.jumps)
        let returns = jumps.contains { $0.daCapo || $0.dalSegno != nil }
        let toSegno = jumps.contains { $0.dalSegno != nil }
        let toCoda = jumps.contains { $0.toCoda != nil }
        for (index, (builder, taken)) in zip(measures, jumps).enumerated() {
            let sounded = builder.sounded
            let printedOnly =
                taken.daCapo != sounded.daCapo || taken.dalSegno != sounded.dalSegno || taken.toCoda != sounded.toCoda
                || (returns && taken.fine != sounded.fine) || (toSegno && taken.segno != sounded.segno)
                || (toCoda && taken.coda != sounded.coda)
            guard printedOnly, let id = builder.printedIn, let part = declaredParts.firstIndex(where: { $0.id == id }) else {
                continue
            }
            repairs.append(Repair(.printedJump, part: names[part], measureIndex: index))
        }
        var score = Score(
            title: title ?? movementTitle ?? creditTitle ?? largestCredit?.words, composer: composer, parts: parts, measures: layout,
            tempos: tempos)
        // A tie chain or several slips in one measure give one repair each.
        var seen: Set<Repair> = []
        score.repairs = repairs.filter { seen.insert($0).inserted }
        return score
    }

    /// `text` on one line, when it can be a title: not empty, and not a file's name (exporters write the file they
    /// came from where the title goes, "bwv14.5.mxl").
    private static func title(_ text: String) -> String? { isTitle(text.oneLine) ? text.oneLine : nil }

    private static func isTitle(_ text: String) -> Bool {
        let lower = text.lowercased()
        return !text.isEmpty && ![".musicxml", ".xml", ".mxl"].contains { lower.hasSuffix($0) }
    }

    /// Marks every measure inside an ending with its volta numbers.
    private static func assignEndings(_ layout: inout [Measure], _ builders: [MeasureBuilder]) {
        var current: [Int]?
        var order = 0
        for index in layout.indices {
            if let numbers = builders[index].endingStart {
                order = index > 0 && !layout[index - 1].endingNumbers.isEmpty ? order + 1 : 1
                current = numbers == [0] ? [order] : numbers
                layout[index].startsEnding = true
            }
            if let current { layout[index].endingNumbers = current }
            if builders[index].endingStop { current = nil }
        }
    }
}

/// A `<score-part>` as declared in the part list.
private struct PartDeclaration {
    var id: String
    var name = ""
    var abbreviation: String?
    var instrumentName: String?
    var midiProgram: Int?
    /// Whether a `<midi-program>` past 1 to 128 was left out.
    var programOutOfRange = false
}

/// What all parts have said about one measure.
private struct MeasureBuilder {
    var number: String
    var named = false
    var isImplicit = false
    var time: TimeSignature?
    var key: KeySignature?
    var repeatForward = false
    var hasBackwardRepeat = false
    var repeatBackward = 0
    var endingStart: [Int]?
    var endingStop = false
    /// Jumps and their targets as `<sound>` gives them, and as printed only (words and signs).
    var sounded = Jumps()
    var printed = Jumps()
    /// The id of the first part that printed a jump or target here.
    var printedIn: String?
    var repeatsAfterJump = false
    var tempos: [(Rational, Double)] = []
}

extension MeasureBuilder {
    /// The jumps played: those `<sound>` gives, and where it gives none of a kind, the printed ones.
    var jumps: Jumps {
        Jumps(
            segno: sounded.segno ?? printed.segno, coda: sounded.coda ?? printed.coda,
            toCoda: sounded.toCoda ?? printed.toCoda, daCapo: sounded.daCapo || printed.daCapo,
            dalSegno: sounded.dalSegno ?? printed.dalSegno, fine: sounded.fine || printed.fine)
    }
}

/// A measure's jumps (D.C., D.S., To Coda, Fine) and jump targets (segno, coda), by name.
private struct Jumps: Equatable {
    var segno: String?
    var coda: String?
    var toCoda: String?
    var daCapo = false
    var dalSegno: String?
    var fine = false
}

/// A reading failure at a byte offset of the document.
struct ReadError: Error {
    var message: String
    var offset: Int
    init(_ message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }
}

extension XMLTokenizer {
    /// The element's text as a whole number in `range`; anything else is damage, refused with what was
    /// `expected` ("a number of staves from 1 to 64 in <staves>").
    func readInteger(in range: ClosedRange<Int> = Int.min...Int.max, _ expected: String) throws -> Int {
        let text = try readText().trimmed
        guard let value = Int(text), range.contains(value) else {
            throw ReadError("expected \(expected) but found '\(text)'", offset: tokenOffset)
        }
        return value
    }

    /// An attribute of the current element as a finite decimal, nil when absent; refused like `readInteger`
    /// otherwise.
    func decimalAttribute(_ name: String, _ expected: String) throws(ReadError) -> Double? {
        guard let text = attribute(name)?.trimmed else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw ReadError("expected \(expected) but found '\(text)'", offset: tokenOffset)
        }
        return value
    }

    /// An attribute of the current element as a whole number in `range`, nil when absent; refused like
    /// `readInteger` otherwise.
    func integerAttribute(
        _ name: String, in range: ClosedRange<Int> = Int.min...Int.max, _ expected: String
    ) throws(ReadError) -> Int? {
        guard let text = attribute(name)?.trimmed else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw ReadError("expected \(expected) but found '\(text)'", offset: tokenOffset)
        }
        return value
    }
}

extension String {
    /// The text without leading and trailing XML whitespace (space, tab, CR, LF).
    var trimmed: String {
        let isSpace = { (b: UInt8) in b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }),
            let last = utf8.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}

extension String {
    /// The text on one line: trimmed, every run of whitespace (line breaks included) one space. Titles, names
    /// and composers are shown in one-line layouts, and writers break them over lines as printed.
    var oneLine: String {
        split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

extension Substring {
    var trimmed: String { String(self).trimmed }
}
