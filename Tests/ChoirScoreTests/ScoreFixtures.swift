import Foundation
import Testing

@testable import ChoirScore

/// Builds small MusicXML documents for tests, so each test shows exactly the markup it is about.
enum ScoreFixtures {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// A one-part score-partwise document around the given measure contents.
    static func partwise(
        _ measures: [String], divisions: Int = 1, partName: String = "Voice", time: String = "4/4",
        partList extra: String = ""
    ) -> String {
        let beats = time.split(separator: "/")
        let attributes = """
            <attributes><divisions>\(divisions)</divisions><key><fifths>0</fifths></key>\
            <time><beats>\(beats[0])</beats><beat-type>\(beats[1])</beat-type></time></attributes>
            """
        let body = measures.enumerated().map { index, content in
            "<measure number=\"\(index + 1)\">\(index == 0 ? attributes : "")\(content)</measure>"
        }.joined(separator: "\n")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <score-partwise version="4.0">
              <part-list><score-part id="P1"><part-name>\(partName)</part-name>\(extra)</score-part></part-list>
              <part id="P1">
            \(body)
              </part>
            </score-partwise>
            """
    }

    /// A `<note>` with a pitch such as "C4", "F#3" or "Bb5", lasting `duration` divisions.
    static func note(_ pitch: String, _ duration: Int, extra: String = "", before: String = "") -> String {
        var name = Substring(pitch)
        let step = name.removeFirst()
        var alter = 0
        while let sign = name.first, sign == "#" || sign == "b" {
            alter += sign == "#" ? 1 : -1
            name.removeFirst()
        }
        let alterText = alter == 0 ? "" : "<alter>\(alter)</alter>"
        return "<note>\(before)<pitch><step>\(step)</step>\(alterText)<octave>\(name)</octave></pitch>"
            + "<duration>\(duration)</duration>\(extra)</note>"
    }

    static func rest(_ duration: Int) -> String { "<note><rest/><duration>\(duration)</duration></note>" }

    static func read(_ xml: String, file: String = "test.musicxml") throws -> Score {
        try ScoreReader.read(document: Array(xml.utf8), file: file)
    }

    /// The error reading `xml` gives, as its one-line description.
    static func error(_ xml: String, file: String = "test.musicxml") -> String? {
        error(bytes: Array(xml.utf8), file: file)
    }

    static func error(bytes: [UInt8], file: String = "test.musicxml") -> String? {
        do {
            _ = try ScoreReader.read(data: bytes, file: file)
            return nil
        } catch {
            return error.description
        }
    }
}

extension Score {
    /// Notes of the first part as (onset, duration, MIDI) with plain numbers, for readable expectations.
    var firstPartNotes: [[Double]] {
        parts[0].notes.map { [$0.onset.doubleValue, $0.duration.doubleValue, $0.pitch] }
    }
}
