import ArgumentParser
import ChoirBase
import ChoirLibrary
import ChoirScan
import ChoirScore

extension Choir {
    /// `choir info`: what a score holds.
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a score's title, key, time, tempo, length, verses and each line's range.")

        @Argument(help: "MusicXML (.musicxml, .xml) or compressed MusicXML (.mxl) files, or titles in the library.")
        var scores: [String]

        @Flag(help: "Print JSON instead of text.")
        var json = false

        @OptionGroup var transposition: Transposition

        func run() throws {
            // Files are read two at a time (the machines choir targets have two cores or more), then
            // reported in the order given.
            let scores = try self.scores.map { try LibraryTitles.path($0) }
            let results = ScoreReader.each(of: scores) { path in
                Result { () throws(ScoreError) -> (Score, ScanNotes?) in
                    let (document, name) = try ScoreReader.document(data: try ScoreReader.contents(of: path), file: path)
                    return (try ScoreReader.read(document: document, file: name), ScanNotes.read(utf8: document, file: name))
                }
            }
            var summaries: [JSON] = []
            var failed: ExitCode?
            for (number, (path, result)) in zip(scores, results).enumerated() {
                switch result {
                case .failure(let error):
                    failed = failed ?? fail(error)
                case .success(let (score, scan)):
                    var summary = ScoreSummary(score, file: path, transposed: transposition.transpose)
                    summary.scan = scan
                    if json {
                        summaries.append(summary.json)
                    } else {
                        FileOutput.write((number > 0 ? "\n" : "") + summary.text)
                    }
                }
            }
            if json {
                // JSON is UTF-8 whatever the locale.
                print((scores.count == 1 ? summaries.first ?? .null : .array(summaries)).serialized())
            }
            if let failed { throw failed }
        }
    }
}
