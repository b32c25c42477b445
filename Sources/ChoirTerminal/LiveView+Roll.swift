import ChoirPractice
import ChoirScore

extension LiveView {
    /// The singer's notes as bars on a pitch-by-time grid scrolling right to left, the sung trace over them
    /// and a line at "now", a quarter of the way in.
    func roll(_ state: State, width: Int, height: Int, colour: Bool) -> [String] {
        let label = 5
        let columns = width - label
        let now = columns / 4
        let startTime = state.time - Double(now) * secondsPerColumn
        func column(_ time: Double) -> Int { Int(((time - startTime) / secondsPerColumn).rounded(.down)) }
        let visible = notes.filter { column($0.end) >= 0 && column($0.onset) < columns }
        let key = visible.first?.key ?? notes.first?.key ?? 0
        // Centre the pitch range on what is on screen, one row per semitone.
        let pitches = visible.map(\.midi) + (state.sung.map { [Int($0.rounded())] } ?? [])
        let middle = pitches.isEmpty ? (notes.first?.midi ?? 60) : (pitches.min()! + pitches.max()!) / 2
        let top = middle + height / 2
        var cells = Array(repeating: Array(repeating: (character: " ", style: ""), count: columns), count: height)
        for row in 0..<height where (top - row) % 12 == 0 {
            for x in 0..<columns { cells[row][x] = ("·", "\u{1B}[2m") }
        }
        for row in 0..<height { cells[row][now] = ("│", "\u{1B}[2m") }
        for note in visible {
            let row = top - note.midi
            guard (0..<height).contains(row) else { continue }
            let style: String
            switch state.verdicts[note.index] {
            case nil: style = "\u{1B}[37m"
            case .correct: style = "\u{1B}[32m"
            case .flat, .sharp: style = "\u{1B}[34m"
            case .early, .late, .rushed, .dragged: style = "\u{1B}[33m"
            case .missing: style = "\u{1B}[90m"
            case .wrong, .octave: style = "\u{1B}[31m"
            }
            let symbol = colour ? "━" : (state.verdicts[note.index].map { $0.isCorrect ? "=" : "x" } ?? "-")
            for x in max(0, column(note.onset))..<min(columns, max(column(note.onset) + 1, column(note.end))) {
                cells[row][x] = (symbol, style)
            }
        }
        for point in state.trace where point.time <= state.time {
            let x = column(point.time), row = top - Int(point.midi.rounded())
            guard (0..<columns).contains(x), (0..<height).contains(row) else { continue }
            cells[row][x] = ("•", "\u{1B}[1;36m")
        }
        return cells.enumerated().map { row, line in
            let midi = top - row
            let name =
                midi % 12 == 0 || row == 0 || row == height - 1
                || notes.contains(where: { $0.midi == midi }) && visible.contains(where: { $0.midi == midi })
            var text = (name ? PitchName.name(midi: midi, key: key) : "").padded(to: label - 1) + " "
            var open = ""
            for cell in line {
                if colour && cell.style != open {
                    text += "\u{1B}[0m" + cell.style
                    open = cell.style
                }
                text += cell.character
            }
            return text + (colour && !open.isEmpty ? "\u{1B}[0m" : "")
        }
    }
}
