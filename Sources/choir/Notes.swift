import ArgumentParser
import ChoirBase
import ChoirScore
import ChoirTerminal

extension Choir {
    /// `choir notes`: the sounding notes of a score or of one line.
    struct Notes: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the sounding notes, in playback order (repeats unfolded) unless --no-repeats.",
            discussion: """
                With --json: {"measure_starts": [quarter notes, ...], "parts": [{"id", "name", "notes": [[onset, duration, \
                midi, seconds, measure, voice, line], ...], "lyrics": [[onset, text, syllabic, verse], ...]}]}.
                """)

        @OptionGroup var score: ScoreArgument

        /// Only these lines.
        @OptionGroup var parts: Parts

        @OptionGroup var order: PlayingOrder

        @OptionGroup var transposition: Transposition

        @OptionGroup var output: JSONFlag

        func run() throws {
            let path = try score.path()
            let listing: NoteListing
            do {
                listing = try NoteListing(
                    file: path, lines: parts.names, transpose: transposition.transpose, unfolded: !order.noRepeats, verse: order.verse)
            } catch .unreadable(let error) { throw fail(error) } catch .request(let problem) { throw usage("\(score.score): \(problem)") }
            // JSON is UTF-8 whatever the locale.
            if output.json { print(listing.json.serialized()) } else { FileOutput.write(listing.text) }
        }
    }
}
