import ChoirBase
import ChoirLibrary
import ChoirScore
import ChoirServer
import ChoirSession

/// A piece as the studio's piece screen sets it up: the ``PlaybackPlan`` its query describes, and what the page
/// needs to offer (the lines with their instruments, the instruments, the transpositions, the tempo).
///
/// The query names the piece by its library path and says the rest as `choir play` would:
/// `path=…&mine=Tenor&mine=Bass&volume=Tenor:40&mute=Alto&solo=Bass&instrument=Soprano:Flute&transpose=-2&tempo=80`,
/// and `countin=1` (with `countinpitch=0`, the count-in without my lines' first notes), `click=1`.
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
            try values(name, request).map { pair in
                guard let colon = pair.lastIndex(of: ":") else { throw SessionError(.usage, "\(name) \(pair): expected LINE:VALUE") }
                return (String(pair[..<colon]), String(pair[pair.index(after: colon)...]))
            }
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

    private static func values(_ name: String, _ request: HTTPRequest) -> [String] {
        request.query.filter { $0.name == name && !$0.value.isEmpty }.map(\.value)
    }
}
