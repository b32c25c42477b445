/// Writes lines of notes given in seconds as a MusicXML score that choir reads like any other: ♩ = 60 (a quarter
/// note a second), 4/4, positions to the nearest 1/480 of a quarter, notes that cross a barline tied over it.
public enum ScoreWriter {
    /// A note of a line, in seconds.
    public struct Note: Sendable, Equatable {
        public var onset: Double
        public var duration: Double
        public var midi: Int

        public init(onset: Double, duration: Double, midi: Int) {
            self.onset = onset
            self.duration = duration
            self.midi = midi
        }
    }

    /// A named line and its notes, which must not overlap.
    public struct Part: Sendable {
        public var name: String
        public var notes: [Note]

        public init(name: String, notes: [Note]) {
            self.name = name
            self.notes = notes
        }
    }

    static let divisions = 480
    static let measure = 4 * divisions

    public static func musicXML(title: String, parts: [Part]) -> String {
        let end = parts.flatMap(\.notes).map { ticks($0.onset + $0.duration) }.max() ?? measure
        let measures = max(1, (end + measure - 1) / measure)
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <score-partwise version="4.0">
              <work><work-title>\(title)</work-title></work>
              <part-list>

            """
        for (index, part) in parts.enumerated() {
            xml += "    <score-part id=\"P\(index + 1)\"><part-name>\(part.name)</part-name></score-part>\n"
        }
        xml += "  </part-list>\n"
        for (index, part) in parts.enumerated() {
            xml += "  <part id=\"P\(index + 1)\">\n"
            // Each note as ticks, cut at the barlines.
            let spans = part.notes.map { (start: ticks($0.onset), end: ticks($0.onset + $0.duration), midi: $0.midi) }
                .filter { $0.end > $0.start }
            for number in 0..<measures {
                let (from, to) = (number * measure, (number + 1) * measure)
                xml += "    <measure number=\"\(number + 1)\">\n"
                if number == 0 {
                    xml += """
                              <attributes><divisions>\(divisions)</divisions><key><fifths>0</fifths></key>\
                        <time><beats>4</beats><beat-type>4</beat-type></time><clef><sign>G</sign><line>2</line></clef></attributes>
                              <sound tempo="60"/>

                        """
                }
                var at = from
                for span in spans where span.end > from && span.start < to {
                    let start = max(span.start, from), stop = min(span.end, to)
                    if start > at { xml += rest(start - at) }
                    xml += note(span.midi, duration: stop - start, tieIn: span.start < from, tieOut: span.end > to)
                    at = stop
                }
                if at < to { xml += rest(to - at) }
                xml += "    </measure>\n"
            }
            xml += "  </part>\n"
        }
        return xml + "</score-partwise>\n"
    }

    private static func ticks(_ seconds: Double) -> Int { Int((seconds * Double(divisions)).rounded()) }

    private static func rest(_ duration: Int) -> String {
        "      <note><rest/><duration>\(duration)</duration></note>\n"
    }

    private static func note(_ midi: Int, duration: Int, tieIn: Bool, tieOut: Bool) -> String {
        let steps = ["C", "C", "D", "D", "E", "F", "F", "G", "G", "A", "A", "B"]
        let pitchClass = ((midi % 12) + 12) % 12
        let alter = [1, 3, 6, 8, 10].contains(pitchClass) ? "<alter>1</alter>" : ""
        let ties = (tieIn ? "<tie type=\"stop\"/>" : "") + (tieOut ? "<tie type=\"start\"/>" : "")
        return "      <note><pitch><step>\(steps[pitchClass])</step>\(alter)<octave>\(midi / 12 - 1)</octave></pitch>"
            + "<duration>\(duration)</duration>\(ties)</note>\n"
    }
}
