import ChoirModel
import ChoirScore

/// Pages of printed music to MusicXML through a vision model, in two passes and a check: the model first describes
/// everything on the pages (keys, times, tempo, notes, rests, ties, lyrics and their syllables, the lines, unclear
/// places), then writes MusicXML 4.0; choir's reader reads it, and its errors and the measures that do not fill their
/// time signature go back to the model (at most `repairs` times). What remains doubtful is listed by measure and
/// written into the file as comments.
public struct Scan: Sendable {
    public var pages: [ScanPage]
    /// The singer's line, which the model is asked to take care over and the score must have.
    public var part: String?
    /// The file being written, as errors name it ("piece.musicxml:12:5: …").
    public var file: String
    /// At most this many repair passes.
    public var repairs = 2

    public init(pages: [ScanPage], part: String?, file: String) {
        self.pages = pages
        self.part = part
        self.file = file
    }

    /// A scan of `pages` for the file `output` (nil: none is written), which the model is told by its name alone, not
    /// where it is on this machine.
    public init(pages: [ScanPage], part: String?, writing output: String?) {
        self.init(pages: pages, part: part, file: output.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? "piece.musicxml")
    }

    /// What a scan made.
    public struct Result: Sendable {
        /// The MusicXML, with choir's notes in it.
        public var document: [UInt8]
        public var score: Score
        /// The doubtful places: the model's own marks, then what choir's reader still finds.
        public var doubts: [ScanNotes.Doubt]
        public var repairPasses: Int
        public var usage: ModelUsage
        /// What the file says at its top: who made it, from what, and that it needs checking.
        public var made: String
        /// When it was made: "2025-06-01".
        public var date: String
    }

    /// The first request: the pages and what to describe.
    public var firstRequest: ChatRequest {
        ChatRequest([
            .init(.system, ScanPrompts.system),
            .init(
                .user,
                [.text(ScanPrompts.extract(pages: pages.count, part: part))] + pages.map { .image(dataURL: $0.dataURL, label: $0.label) }),
        ])
    }

    /// The prompt of the second pass, which follows the model's description.
    public var writePrompt: String { ScanPrompts.write(part: part) }

    /// A repair pass's prompt, with the findings in it.
    public static func repairPrompt(_ findings: [String]) -> String { ScanPrompts.repair(findings) }

    /// "IMG_2041.jpg, IMG_2042.jpg and hymn.pdf (2 pages)".
    public var pagesDescription: String {
        var groups: [(file: String, count: Int)] = []
        for page in pages {
            if let last = groups.last, last.file == page.file, page.page != nil {
                groups[groups.count - 1].count += 1
            } else {
                groups.append((page.file, 1))
            }
        }
        let names = groups.map { group in
            let name = group.file.split(separator: "/").last.map(String.init) ?? group.file
            return group.count > 1 ? "\(name) (\(group.count) pages)" : name
        }
        return names.count > 1 ? names.dropLast().joined(separator: ", ") + " and " + names.last! : names.first ?? ""
    }

    /// Asks the model through `client`, telling `progress` of each pass as it starts and ends.
    public func run(_ client: ChatClient, progress: (String) -> Void) throws(ScanError) -> Result {
        var usage = ModelUsage()
        func ask(_ messages: [ChatRequest.Message], _ what: String) throws(ScanError) -> ChatReply {
            progress("\(what): asking \(client.endpoint.model)…")
            let reply: ChatReply
            do {
                reply = try client.complete(ChatRequest(messages))
            } catch {
                throw ScanError(error)
            }
            usage.add(reply)
            let tokens = [
                reply.promptTokens.map { "\(ChatRequest.count($0)) tokens in" },
                reply.completionTokens.map { "\(ChatRequest.count($0)) out" },
            ]
            .compactMap { $0 }
            let figures =
                ["\(ChatClient.seconds(reply.seconds))"] + tokens + (reply.wasCutOff ? ["stopped at the model's output limit"] : [])
            progress("  " + figures.joined(separator: ", "))
            return reply
        }

        var messages = firstRequest.messages
        let count = pages.count == 1 ? "1 page" : "\(pages.count) pages"
        let description = try ask(messages, "Pass 1 of 2, describing \(count)")
        guard description.text.contains(where: { !$0.isWhitespace }) else {
            throw ScanError(.reply, "the model said nothing about the pages: try another --model")
        }
        messages += [.init(.assistant, description.text), .init(.user, writePrompt)]
        var reply = try ask(messages, "Pass 2 of 2, writing MusicXML")
        var check = ScanCheck(reply: reply.text, file: file, part: part)
        var passes = 0
        while check.error != nil || !check.findings.isEmpty, passes < repairs, !(reply.wasCutOff && check.score == nil) {
            passes += 1
            let problems = check.problems(check.score)
            let counted = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
            messages += [.init(.assistant, reply.text), .init(.user, Self.repairPrompt(problems))]
            reply = try ask(messages, "Repair \(passes) of at most \(repairs), \(counted) (\(problems[0]))")
            check = ScanCheck(reply: reply.text, file: file, part: part)
        }
        guard let score = check.score else {
            let rejected = String(decoding: check.document.isEmpty ? Array(reply.text.utf8) : check.document, as: UTF8.self)
            if reply.wasCutOff {
                throw ScanError(
                    .reply,
                    "the model stopped at its output limit before its MusicXML ended: give a higher --max-tokens if the model allows "
                        + "it, or scan fewer pages at a time", rejected: rejected)
            }
            let after = passes == 1 ? "1 repair pass" : "\(passes) repair passes"
            throw ScanError(.reply, "the model's MusicXML does not read after \(after): \(check.error ?? "")", rejected: rejected)
        }
        let outline: MusicXMLOutline
        do {
            outline = try MusicXMLOutline(utf8: check.document, file: file)
        } catch {
            throw ScanError(.reply, error.description, rejected: String(decoding: check.document, as: UTF8.self))
        }
        let found = check.findings.map { ScanNotes.Doubt(measureIndex: $0.measureIndex, partID: $0.partID, reason: $0.text) }
        let date = ScanNotes.today()
        let made =
            "made by a vision model (\(client.endpoint.model) at \(client.endpoint.host)) from \(pagesDescription) on \(date); "
            + "it needs checking against the pages"
        let document = ScanNotes.annotate(
            outline, made: made, found: found, software: "choir \(ModelEndpoint.clientVersion) scan with \(client.endpoint.model)",
            date: date)
        // choir's notes change no note: the file reads as the model wrote it.
        do {
            _ = try ScoreReader.read(document: document, file: file)
        } catch {
            throw ScanError(
                .reply, "choir's notes left the MusicXML unreadable (\(error)): please report this",
                rejected: String(decoding: document, as: UTF8.self))
        }
        return Result(
            document: document, score: score, doubts: ScanNotes.marked(outline).map(\.doubt) + found, repairPasses: passes, usage: usage,
            made: made, date: date)
    }
}
