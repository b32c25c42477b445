import ArgumentParser
import ChoirModel
import ChoirScan
import ChoirSession
import ChoirTerminal

extension Choir {
    /// `choir scan`: photographs and PDFs of printed music to MusicXML, through a vision model the singer brings.
    struct ScanCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "scan",
            abstract: "Read photographs or PDFs of printed music into MusicXML, through a vision model you bring.",
            discussion: """
                The pages go, in order, to an OpenAI-compatible chat-completions server (OpenRouter unless --endpoint \
                names another, such as a llama.cpp server or Ollama on your own machine), each as a greyscale image (PNG \
                or JPEG, whichever is smaller) no larger than --max-side. The model describes the pages, then writes \
                MusicXML; choir reads it, and its errors and any measure that does not fill its time signature go back \
                to the model (at most twice). Whatever stays doubtful is listed and marked in the file, which joins the \
                library with its pages as its source. A model's reading needs checking against the pages.

                The key comes from OPENROUTER_API_KEY (sent to OpenRouter only), or from api_key in \
                $XDG_CONFIG_HOME/choir/model.toml (~/.config/choir/model.toml), which must be mode 0600 and may also \
                set endpoint and model; a key in that file goes only to its endpoint. The key is never printed, logged \
                or stored. Nothing is sent without this command, and nothing at all with --dry-run.
                """)

        @Argument(help: "The pages, in order: photographs (JPEG, PNG) or PDFs (a page each).")
        var pages: [String]

        @Option(help: "The line you sing (Tenor, S, Alto 2): the model takes particular care with it, and the score must have it.")
        var part: String?

        @Option(name: .shortAndLong, help: "The MusicXML file to write (.musicxml or .xml).")
        var output: String?

        @Option(help: ArgumentHelp("The longer side of each page as sent, in pixels.", valueName: "pixels"))
        var maxSide = ScanPage.defaultLongestSide

        @OptionGroup var model: ModelOptions

        func validate() throws {
            guard (256...8192).contains(maxSide) else { throw ValidationError("--max-side \(maxSide): expected 256 to 8192 pixels") }
            guard let output else {
                if model.dryRun { return }
                throw ValidationError("expected -o FILE.musicxml: the file to write")
            }
            if let problem = ScanOutput.problem(output) { throw ValidationError("-o \(problem)") }
        }

        func run() throws {
            let endpoint = try model.resolved()
            let pages = try failing { try ScanPage.load(self.pages, longest: maxSide) }
            let scan = Scan(pages: pages, part: part, writing: output)
            if model.dryRun {
                FileOutput.write(scan.preview(for: endpoint))
                return
            }
            let job = try failing { try ScanJob(scan, writing: output!, through: endpoint) }
            let finished = try failing {
                try job.run(ModelOptions.client(endpoint), library: PracticePlan.defaultHistory) { FileOutput.write("\($0)\n", to: 2) }
            }
            FileOutput.write(finished.summary)
            if let notFiled = finished.notFiled {
                warn(notFiled)
            } else {
                FileOutput.write("Added to the library, with its pages as its source.\n")
            }
            if let practice = finished.practice { FileOutput.write(practice) }
        }
    }
}
