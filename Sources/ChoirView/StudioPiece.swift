import ChoirBase
import ChoirLibrary
import ChoirPractice
import ChoirScore
import ChoirServer
import ChoirSession

/// A piece as the studio's piece screen sets it up: the ``PlaybackPlan`` its query describes, and what the page
/// needs to offer (the lines with their instruments, the instruments, the transpositions, the tempo).
///
/// The query names the piece by its library path and says the rest as `choir play` would:
/// `path=…&mine=Tenor&mine=Bass&volume=Tenor:40&mute=Alto&solo=Bass&instrument=Soprano:Flute&transpose=-2&tempo=80`,
/// and `countin=1` (with `countinpitch=0`, the count-in without my lines' first notes), `click=1`; a take sung live
/// also takes `headphones=1` (the microphone does not hear the mix, as `--headphones`).
enum StudioPiece {
    /// The plan `request`'s query describes, for a piece of `library` (a path that is not one is refused, so that
    /// the page reads nothing else on the disk).
    static func plan(_ request: HTTPRequest, library: Library) throws -> PlaybackPlan {
        let path = request.query("path") ?? ""
        guard try library.entries().contains(where: { $0.path == path }) else {
            throw SessionError(.usage, "\(path): not a score in the library: expected one of `choir library list`")
        }
        var plan = PlaybackPlan(score: path, parts: values("mine", request))
        func pairs(_ name: String) throws -> [(line: String, value: String)] {
            try values(name, request).map { pair throws(SessionError) in try PlaybackPlan.assignment(pair, option: name, separator: ":") }
        }
        plan.volumes = try pairs("volume").map { pair in
            guard let volume = Double(pair.value), (0...100).contains(volume) else {
                throw SessionError(.usage, "volume \(pair.line):\(pair.value): expected 0 to 100")
            }
            return (pair.line, volume)
        }
        plan.instruments = try pairs("instrument").map { ($0.line, $0.value) }
        plan.muted = values("mute", request)
        plan.soloed = values("solo", request)
        // A bar of clicks first, with my lines' first notes unless asked not to; a click throughout.
        plan.countIn = request.query("countin") == "1"
        plan.countInPitch = request.query("countinpitch") != "0"
        plan.click = request.query("click") == "1"
        if let text = request.query("transpose") {
            guard let semitones = Int(text) else { throw SessionError(.usage, "transposition \(text): expected -12 to 12 semitones") }
            plan.transpose = semitones
        }
        if let text = request.query("tempo") {
            guard let percent = Double(text), (25...200).contains(percent) else {
                throw SessionError(.usage, "tempo \(text)%: expected 25 to 200 percent")
            }
            plan.tempoPercent = percent == 100 ? nil : percent
        }
        return plan
    }

    /// What the piece screen offers for `resolved`: each line with its voice and instrument, every instrument, the
    /// transpositions, the written tempo.
    static func json(_ resolved: ResolvedPlayback) -> JSON {
        let lines = resolved.lines.enumerated().map { index, line in
            JSON.object([
                ("name", .string(line.name)), ("voice", JSON(line.sungVoice(in: resolved.score)?.rawValue)),
                ("instrument", .string(GeneralMIDI.programNames[resolved.programs[index]])),
                ("mine", .bool(resolved.singers.contains(index))), ("volume", .number((resolved.mixer.gains[index] * 100).rounded())),
            ])
        }
        return .object([
            ("title", .string(resolved.title)), ("path", .string(resolved.plan.score)), ("lines", .array(lines)),
            ("instruments", .array(GeneralMIDI.programNames.map(JSON.string))),
            ("transpositions", .array(Score.transpositions.map(JSON.int))), ("tempo", .number(resolved.schedule.initialTempo.rounded())),
        ])
    }

    /// The notes ``PlaybackPlan/startingPitch`` sounds for `resolved`, in order: each line's name and its first
    /// note, spelled in the key it is in.
    static func startingPitch(_ resolved: ResolvedPlayback) -> JSON {
        .array(
            resolved.schedule.notes.compactMap { note in
                note.line.map { line in
                    let fifths = resolved.score.measures[note.measureIndex].key.fifths
                    return .object([
                        ("line", .string(resolved.lines[line].name)), ("note", .string(PitchName.name(midi: note.midi, key: fifths))),
                        ("start", .number(note.start)), ("seconds", .number(note.end - note.start)),
                    ])
                }
            })
    }

    /// Learn mode's passage and ladder, as `learn?…&from=6&to=7&target=90&start=70&step=10&passes=20` gives them:
    /// the measures by printed number, the pass mark and the tempi in percent, the most passes in all.
    static func learning(_ request: HTTPRequest) throws -> (Drill.Passage, Drill) {
        guard let first = request.query("from"), !first.isEmpty else {
            throw SessionError(.usage, "learn: expected the passage's first measure")
        }
        let last = request.query("to").flatMap { $0.isEmpty ? nil : $0 } ?? first
        func number(_ name: String, _ fallback: Double, _ range: ClosedRange<Double>, _ what: String) throws -> Double {
            guard let text = request.query(name), !text.isEmpty else { return fallback }
            guard let value = Double(text), range.contains(value) else {
                throw SessionError(.usage, "\(what) \(text): expected \(Int(range.lowerBound)) to \(Int(range.upperBound))")
            }
            return value
        }
        let limits = Drill.limits
        let ladder = Drill(
            start: try number("start", Drill.standardStart, limits.start, "starting tempo"),
            step: try number("step", 10, limits.step, "tempo step"), passMark: try number("target", 90, limits.passMark, "target accuracy"),
            maximumPasses: Int(try number("passes", 20, Double(limits.passes.lowerBound)...Double(limits.passes.upperBound), "most passes"))
        )
        return (Drill.Passage(first: first, last: last, mistakes: 0), ladder)
    }

    private static func values(_ name: String, _ request: HTTPRequest) -> [String] {
        request.query.filter { $0.name == name && !$0.value.isEmpty }.map(\.value)
    }
}
