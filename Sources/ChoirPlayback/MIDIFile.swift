/// Standard MIDI files (format 1) of a schedule: a tempo track, then one track per line with its name,
/// program, volume and pan, and the click on the percussion channel.
public enum MIDIFile {
    /// Ticks per quarter note.
    public static let resolution = 480

    /// The file's bytes. Times come from the schedule's quarter positions; the tempo is the schedule's
    /// initial tempo, so `--tempo` and `--bpm` carry over.
    public static func encode(_ schedule: Schedule, lineNames: [String], programs: [Int], mixer: Mixer) -> [UInt8] {
        let first = schedule.notes.map(\.quarter).min().map { min(0, $0) } ?? 0
        func tick(_ quarter: Double) -> Int { Int(((quarter - first) * Double(resolution)).rounded()) }

        var tracks: [[UInt8]] = []
        let microseconds = Int((60_000_000 / schedule.initialTempo).rounded())
        tracks.append(
            track([
                (0, [0xFF, 0x03] + text("choir")),
                (0, [0xFF, 0x51, 0x03, UInt8(microseconds >> 16 & 0xFF), UInt8(microseconds >> 8 & 0xFF), UInt8(microseconds & 0xFF)]),
            ]))
        for (line, name) in lineNames.enumerated() {
            let channel = UInt8(line < 9 ? line : line + 1) & 0x0F
            let pan = Int(((mixer.pans[line] + 1) * 63.5).rounded())
            var events: [(Int, [UInt8])] = [
                (0, [0xFF, 0x03] + text(name)),
                (0, [0xC0 | channel, UInt8(programs[line] & 0x7F)]),
                (0, [0xB0 | channel, 7, UInt8(min(127, Int((mixer.gains[line] * 127).rounded())))]),
                (0, [0xB0 | channel, 10, UInt8(min(127, max(0, pan)))]),
            ]
            for note in schedule.notes where note.line == line {
                events.append((tick(note.quarter), [0x90 | channel, UInt8(note.midi & 0x7F), UInt8(max(1, min(127, note.velocity)))]))
                events.append((tick(note.quarter + note.quarterLength), [0x80 | channel, UInt8(note.midi & 0x7F), 0]))
            }
            tracks.append(track(events))
        }
        let clicks = schedule.notes.filter { $0.line == nil }
        if !clicks.isEmpty {
            var events: [(Int, [UInt8])] = [(0, [0xFF, 0x03] + text("Click"))]
            for click in clicks {
                events.append((tick(click.quarter), [0x99, UInt8(click.midi), 100]))
                events.append((tick(click.quarter + click.quarterLength), [0x89, UInt8(click.midi), 0]))
            }
            tracks.append(track(events))
        }
        var file: [UInt8] = Array("MThd".utf8) + be32(6) + be16(1) + be16(tracks.count) + be16(resolution)
        for track in tracks { file += Array("MTrk".utf8) + be32(track.count) + track }
        return file
    }

    /// A track chunk's body: events sorted by tick (note-offs first at the same tick), delta-timed.
    private static func track(_ events: [(Int, [UInt8])]) -> [UInt8] {
        let sorted = events.enumerated().sorted {
            let a = $0.element, b = $1.element
            if a.0 != b.0 { return a.0 < b.0 }
            let aOff = a.1[0] & 0xF0 == 0x80, bOff = b.1[0] & 0xF0 == 0x80
            return aOff != bOff ? aOff : $0.offset < $1.offset
        }.map(\.element)
        var bytes: [UInt8] = []
        var now = 0
        for (tick, message) in sorted {
            bytes += variableLength(tick - now) + message
            now = tick
        }
        return bytes + [0x00, 0xFF, 0x2F, 0x00]
    }

    private static func text(_ string: String) -> [UInt8] {
        let utf8 = Array(string.utf8.prefix(127))
        return variableLength(utf8.count) + utf8
    }

    static func variableLength(_ value: Int) -> [UInt8] {
        var value = max(0, value)
        var bytes = [UInt8(value & 0x7F)]
        value >>= 7
        while value > 0 {
            bytes.insert(UInt8(value & 0x7F) | 0x80, at: 0)
            value >>= 7
        }
        return bytes
    }

    private static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    private static func be32(_ v: Int) -> [UInt8] { be16(v >> 16 & 0xFFFF) + be16(v & 0xFFFF) }
}
