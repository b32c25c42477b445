import ArgumentParser
import ChoirLibrary
import ChoirTerminal

extension Choir {
    /// `choir info`: what a score holds.
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a score's title, key, time, tempo, length, verses and each line's range.")

        @Argument(help: "MusicXML (.musicxml, .xml) or compressed MusicXML (.mxl) files, or titles in the library.")
        var scores: [String]

        @OptionGroup var output: JSONFlag

        @OptionGroup var transposition: Transposition

        func run() throws {
            let scores = try self.scores.map { try LibraryTitles.path($0) }
            let listing = ScoreSummary.listing(scores, transposed: transposition.transpose, json: output.json)
            let failed = listing.failures.map(fail).first
            // JSON is UTF-8 whatever the locale.
            if output.json { print(listing.output) } else { FileOutput.write(listing.output) }
            if let failed { throw failed }
        }
    }
}
