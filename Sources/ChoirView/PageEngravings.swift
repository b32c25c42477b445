import ChoirBase
import ChoirServer
import ChoirSession

/// The session's score engraved to the size of each tab's notation pane, as the page asks for it
/// (`engraving.json?width=W&height=H`, in CSS pixels): engraved once per size, 10 px steps, one at a time, and kept
/// (in memory for this session, on disk for the next).
///
/// Every size has the same element ids as the engraving the session started with (Verovio numbers them from the
/// document alone), so the notes, lines and verdicts the page already has apply to it.
public final class PageEngravings: Sendable {
    private let path: String
    private let transpose: Int
    /// The parts engraved (MusicXML ids), nil for all.
    private let parts: [String]?
    private let base: Engraving
    private let cache: String?
    /// The answers given, by size; emptied when it holds `kept`.
    private let answers = Locked<[Engraving.PageSize: [UInt8]]>([:])
    /// Held while engraving: two tabs asking at once start one engraver.
    private let engraving = Locked(())
    private let kept = 16

    /// For the score at `path`, `transpose` semitones away (`parts` alone, if given), whose engraving for the session
    /// is `base`.
    public init(score path: String, transpose: Int, parts: [String]? = nil, base: Engraving, cache: String? = Engraving.defaultCache) {
        self.path = path
        self.transpose = transpose
        self.parts = parts
        self.base = base
        self.cache = cache
    }

    /// The engraving at the request's `width` and `height`: its pages, and the page of each measure by its id.
    public func respond(_ request: HTTPRequest) -> HTTPResponse {
        guard let width = request.query("width").flatMap({ Int($0) }), Engraving.PageSize.widths.contains(width),
            let height = request.query("height").flatMap({ Int($0) }), Engraving.PageSize.heights.contains(height)
        else {
            return .plain(
                400,
                "expected width=\(Engraving.PageSize.widths) and height=\(Engraving.PageSize.heights), in CSS pixels")
        }
        let size = Engraving.PageSize(width: width / 10 * 10, height: height / 10 * 10)
        if let answer = answers.withLock({ $0[size] }) { return HTTPResponse(contentType: "application/json", body: answer) }
        return engraving.withLock { _ in
            if let answer = answers.withLock({ $0[size] }) { return HTTPResponse(contentType: "application/json", body: answer) }
            let sized: Engraving
            do {
                sized = try Engraving.of(score: path, transpose: transpose, page: size, parts: parts, cache: cache)
            } catch {
                return .plain(500, "\(error)")
            }
            // A score changed on disk since the session began is engraved with other ids: the page keeps what it has.
            guard sized.notes.map(\.id) == base.notes.map(\.id), sized.measures.map(\.id) == base.measures.map(\.id) else {
                return .plain(409, "\(path) has changed since the session began")
            }
            let answer = Array(
                JSON.object([
                    ("width", .int(size.width)), ("height", .int(size.height)), ("pages", .array(sized.pages.map(JSON.string))),
                    ("measures", .object(sized.measures.map { ($0.id, .int($0.page)) })),
                ]).serialized().utf8)
            answers.withLock { answers in
                if answers.count >= kept { answers.removeAll() }
                answers[size] = answer
            }
            return HTTPResponse(contentType: "application/json", body: answer)
        }
    }
}
