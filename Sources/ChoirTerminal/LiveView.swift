import ChoirBase
import ChoirPractice
import ChoirScore
import ChoirSession

/// The live practice screen: where the music is, the lyrics, the note to sing and the note sung, a piano roll
/// with the sung trace, and the running accuracy. It is a pure function of a ``LiveView/State``, so that
/// what a singer sees can be tested without a terminal.
public struct LiveView: Sendable {
    public var title: String
    /// The singer's notes and words, the measures, and what the singer is told of what comes next.
    public var cues: LiveCues
    /// What the session is part of: a drill's passage, pass and tempo, or a plan's item.
    public var context: String?
    /// Seconds of score shown per column of the roll.
    public var secondsPerColumn = 0.1

    /// A view headed `title`, with `cues` for the singer and `context` (a drill's pass, a plan's item) beside it.
    public init(title: String, cues: LiveCues, context: String? = nil) {
        (self.title, self.cues, self.context) = (title, cues, context)
    }

    var notes: [ExpectedNote] { cues.notes }
    private var lyrics: [Schedule.SungSyllable] { cues.lyrics }

    /// Everything that changes while the session runs.
    public struct State: Sendable {
        public var time: Double
        public var measure: String
        public var beat: Int
        public var tempo: Double
        public var tempoPercent: Int
        /// Paused, looping, locked, muted: short words shown after the tempo.
        public var flags: [String]
        /// The latest sung pitch as a fractional MIDI number, if the singer is singing.
        public var sung: Double?
        public var trace: [TracePoint]
        /// The latest verdict on each note, by index.
        public var verdicts: [Int: Verdict]
        /// The running accuracy, in the engine's words.
        public var accuracy: String
        public var locked: Bool

        public init(
            time: Double, measure: String, beat: Int, tempo: Double, tempoPercent: Int, flags: [String], sung: Double?,
            trace: [TracePoint], verdicts: [Int: Verdict], accuracy: String, locked: Bool
        ) {
            (self.time, self.measure, self.beat, self.tempo, self.tempoPercent) = (time, measure, beat, tempo, tempoPercent)
            (self.flags, self.sung, self.trace, self.verdicts, self.accuracy, self.locked) = (
                flags, sung, trace, verdicts, accuracy, locked
            )
        }

        /// What `snapshot` says of the session, as the screen shows it.
        public init(_ snapshot: SessionSnapshot) {
            self.init(
                time: snapshot.time, measure: snapshot.measure, beat: snapshot.beat, tempo: snapshot.tempo,
                tempoPercent: snapshot.tempoPercent, flags: snapshot.flags, sung: snapshot.sung, trace: snapshot.trace,
                verdicts: snapshot.verdicts, accuracy: snapshot.accuracy, locked: snapshot.locked)
        }
    }

    /// The screen as `height` lines of at most `width` columns; with `colour`, ANSI colours and reverse video.
    public func render(_ state: State, width: Int, height: Int, colour: Bool) -> [String] {
        let width = max(40, width)
        var rows: [String] = []
        let tempo = PlaybackLine.tempo(state.tempo, percent: state.tempoPercent)
        rows.append(
            spread(
                title,
                "m. \(state.measure):\(state.beat)   \(tempo)   " + (state.flags.isEmpty ? "playing" : state.flags.joined(separator: ", ")),
                width))
        rows.append(lyricLine(at: state.time, width: width, colour: colour))
        let ahead = [context, cues.cue(at: state.time), cues.pencil(at: state.time)].compactMap { $0 }
        rows.append(ahead.isEmpty ? "" : String(("  " + ahead.joined(separator: " · ")).prefix(width)))
        rows.append(tuning(state, width: width, colour: colour))
        let keys =
            state.locked
            ? "locked: space pause · q quit" : "space pause · ←/→ measure · l loop · +/− tempo · m mute me · p my note · q quit"
        let footer = [String(repeating: "─", count: width), state.accuracy, keys.count <= width ? keys : String(keys.prefix(width))]
        let rollHeight = max(3, height - rows.count - footer.count - 1)
        rows.append(String(repeating: "─", count: width))
        rows += roll(state, width: width, height: rollHeight, colour: colour)
        rows += footer
        return Array(rows.prefix(height)) + Array(repeating: "", count: max(0, height - rows.count))
    }

    /// `left` and `right` on one line, the gap filled with spaces.
    private func spread(_ left: String, _ right: String, _ width: Int) -> String {
        let room = width - right.count - 1
        let head = left.count > room ? String(left.prefix(max(0, room))) : left
        return head + String(repeating: " ", count: max(1, width - head.count - right.count)) + right
    }

    /// The lyrics around the current syllable, which is highlighted; words after it run on past the end of
    /// the phrase, so the singer always sees what comes next.
    public func lyricLine(at time: Double, width: Int, colour: Bool) -> String {
        guard !lyrics.isEmpty else { return "" }
        let current = lyrics.lastIndex { $0.start <= time + 0.05 }
        var pieces: [(text: String, index: Int)] = []
        for (index, syllable) in lyrics.enumerated() {
            pieces.append((syllable.text + (syllable.continues ? "-" : " "), index))
        }
        // Start a few syllables back so that the current one sits about a third of the way in.
        var start = current ?? 0
        var used = 0
        while start > 0 && used + pieces[start - 1].text.count < width / 3 {
            start -= 1
            used += pieces[start].text.count
        }
        var line = "  ", length = 2
        for piece in pieces[start...] {
            guard length + piece.text.count <= width else { break }
            length += piece.text.count
            if piece.index == current {
                line +=
                    colour
                    ? "\u{1B}[7;1m" + piece.text.trimmingSuffix("-") + "\u{1B}[0m" + (piece.text.hasSuffix("-") ? "-" : "")
                    : "[" + piece.text.trimmingSuffix("-") + "]"
                if !colour { length += 2 }
            } else {
                line += piece.text
            }
        }
        return line
    }

    /// Target and sung note names, and a needle: how many cents the singer is from the target.
    private func tuning(_ state: State, width: Int, colour: Bool) -> String {
        let target = notes.last { $0.onset <= state.time + 0.05 && state.time < $0.end } ?? notes.first { $0.onset > state.time }
        var line = "  target " + (target.map { $0.name.padded(to: 4) } ?? "–   ")
        guard let sung = state.sung else { return line + "   sung –" }
        let sungName = target?.name(of: Int(sung.rounded())) ?? PitchName.name(midi: Int(sung.rounded()))
        line += "   sung " + sungName.padded(to: 4)
        guard let target else { return line }
        // Further off than ±100 cents, the needle stays at its end, an arrow pointing the way the singer is off (the
        // note sung says how far).
        let offset = TuningOffset(sung: sung, target: target.midi), cents = offset.cents, beyond = offset.beyond
        line += beyond == 0 ? String(printf: " %+5.0f¢ ", cents) : beyond < 0 ? " ◀-100¢ " : "  +100¢▶"
        let span = max(11, min(41, width - line.count - 4)) | 1
        let centre = span / 2
        let at = max(0, min(span - 1, centre + Int((cents / 100 * Double(centre)).rounded())))
        var needle = Array(repeating: "·", count: span)
        needle[centre] = "|"
        needle[at] = beyond < 0 ? "◀" : beyond > 0 ? "▶" : "●"
        let mark =
            colour
            ? (offset.isInTune(within: cues.tolerance) ? "\u{1B}[32m" : "\u{1B}[33m") + needle.joined() + "\u{1B}[0m" : needle.joined()
        return line + "[" + mark + "]" + (offset.octaves != 0 ? " 8va" : "")
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
