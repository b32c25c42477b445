import ChoirBase
import ChoirModel
import ChoirScore

extension Scan {
    /// What `choir scan --dry-run` shows: the first request, then what follows it.
    public func preview(for endpoint: ModelEndpoint) -> String {
        var out = "Pass 1, describing the pages:\n" + firstRequest.preview(for: endpoint)
        out += "\nPass 2 sends the conversation so far, the model's description, and:\nuser:\n"
        out += writePrompt.split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)\n" }.joined()
        out += "\nThen, while choir's reader finds errors or measures that do not fill their time signature (at most "
        out += "\(repairs) times), the model's MusicXML and:\nuser:\n"
        out += Scan.repairPrompt(["(each error, file:line:column, and each measure found)"])
            .split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)\n" }.joined()
        return out + "\nNothing was sent (--dry-run).\n"
    }

    /// What a finished scan says: the file written, what it holds and who made it, what stays doubtful, the repair
    /// passes and what the model cost.
    public func summary(of result: Result, _ endpoint: ModelEndpoint, written output: String) -> String {
        let score = result.score
        var out = "Wrote \(output): \(score.name(file: output)), \(score.measures.count) measures; "
        out += score.lines.map(\.name).joined(separator: ", ") + ".\n"
        out += "It was \(result.made).\n"
        let doubts = ScanNotes.lines(result.doubts, in: score)
        if doubts.isEmpty {
            out += "Nothing was found doubtful; it still needs checking.\n"
        } else {
            out += "Doubtful, by measure (marked in the file \"choir scan: doubtful\"):\n" + doubts.map { "  \($0)\n" }.joined()
        }
        if result.repairPasses > 0 {
            out += "Repair passes: \(result.repairPasses) of at most \(repairs).\n"
        }
        out += "Model: \(result.usage.summary(endpoint)).\n"
        return out
    }

    /// The command that practises the scan written to `output`: the line ``part`` names, as the score names it; nil
    /// when no part was given or the model wrote no such line.
    public func practice(_ result: Result, written output: String) -> String? {
        guard let part, let line = try? LineSelector.select(part, from: result.score.lines) else { return nil }
        return "Practise it: choir practice \(output.shellQuoted) --part \(result.score.lines[line].name.shellQuoted)\n"
    }
}
