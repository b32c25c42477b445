import ArgumentParser
import ChoirBase
import ChoirScore

extension Choir {
    /// `choir notes`: the sounding notes of a score or of one line.
    struct Notes: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the sounding notes, in playback order (repeats unfolded) unless --no-repeats.")

        @Argument(help: "A MusicXML (.musicxml, .xml) or compressed MusicXML (.mxl) file, or a title in the library (or the start of one).")
        var score: String

        /// Only these lines.
        @OptionGroup var parts: Parts

        @Flag(help: "Keep written order: play every measure once, ignoring repeats and jumps.")
        var noRepeats = false

        @Option(help: "The lyric verse listed, from 1; a repeat goes on to the next verse.")
        var verse = 1

        @OptionGroup var transposition: Transposition

        @Flag(
            help:
                "Print JSON: {\"measure_starts\": [quarter notes, ...], \"parts\": [{\"id\", \"name\", \"notes\": [[onset, duration, midi, seconds, measure, voice, line], ...], \"lyrics\": [[onset, text, syllabic, verse], ...]}]}."
        )
        var json = false

        func run() throws {
            let path = try LibraryTitles.path(self.score)
            let score: Score
            do {
                score = try ScoreReader.read(contentsOf: path).transposed(by: transposition.transpose)
            } catch {
                throw fail(error)
            }
            if let problem = score.problem(withVerse: verse) { throw usage("\(self.score): \(problem)") }
            let lines = score.lines
            var chosen = Array(lines.indices)
            if !parts.isEmpty {
                do { chosen = try LineSelector.select(parts.names, from: lines).sorted() } catch { throw usage("\(self.score): \(error)") }
            }
            let timeline = Timeline(score, unfolded: !noRepeats)
            let listing = NoteListing(score: score, lines: lines, chosen: chosen, timeline: timeline, verse: verse)
            // JSON is UTF-8 whatever the locale.
            if json { print(listing.json.serialized()) } else { FileOutput.write(listing.text) }
        }
    }
}
