import ArgumentParser
import ChoirBase
import ChoirLibrary
import ChoirScore
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
            var summaries: [JSON] = []
            var failed: ExitCode?
            for (number, result) in ScoreSummary.read(scores, transposed: transposition.transpose).enumerated() {
                switch result {
                case .failure(let error):
                    failed = failed ?? fail(error)
                case .success(let summary):
                    if output.json {
                        summaries.append(summary.json)
                    } else {
                        FileOutput.write((number > 0 ? "\n" : "") + summary.text)
                    }
                }
            }
            if output.json {
                // JSON is UTF-8 whatever the locale.
                print((scores.count == 1 ? summaries.first ?? .null : .array(summaries)).serialized())
            }
            if let failed { throw failed }
        }
    }
}
