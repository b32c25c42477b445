import Foundation
import Testing

/// A chat-completions server on 127.0.0.1 for the tests (`Tests/Fixtures/scan/chat-server.py`), answering each
/// request with the next reply of its script and recording every request it gets.
final class ChatServer {
    /// One reply of the script, as the server reads it.
    typealias Reply = [String: Any]

    let port: Int
    private let process: Process
    private let input: Pipe
    private let log: URL

    /// The API's base address, as `--endpoint` takes it.
    var base: String { "http://127.0.0.1:\(port)/v1" }

    init(_ replies: [Reply]) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("choir-chat-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent("script.json")
        try JSONSerialization.data(withJSONObject: replies).write(to: script)
        log = folder.appendingPathComponent("requests.jsonl")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", CLI.fixtures.appendingPathComponent("scan/chat-server.py").path, script.path, log.path]
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        port = try #require(Int(String(decoding: line, as: UTF8.self)), "the chat server did not start")
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Every request so far, oldest first: its path, headers and JSON body.
    func requests() throws -> [(path: String, headers: [String: String], body: [String: Any])] {
        guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { line in
            let request = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let headers = (request["headers"] as? [String: String] ?? [:]).reduce(into: [String: String]()) {
                $0[$1.key.lowercased()] = $1.value
            }
            return (request["path"] as? String ?? "", headers, request["body"] as? [String: Any] ?? [:])
        }
    }

    /// A model's reply of `text`, ended for `finish` ("stop", or "length" when the model reached its output limit).
    static func text(_ text: String, tokens: (in: Int, out: Int) = (1000, 500), cost: Double? = nil, finish: String = "stop") -> Reply {
        var usage: [String: Any] = ["prompt_tokens": tokens.in, "completion_tokens": tokens.out, "total_tokens": tokens.in + tokens.out]
        if let cost { usage["cost"] = cost }
        return ["text": text, "usage": usage, "finish": finish]
    }

    /// The connection closed without an answer.
    static var dropped: Reply { ["drop": true] }

    /// A model's reply of the text of `file`, with `replace`'s changes, between `before` and `after`.
    static func file(
        _ file: String, replace: [(String, String)] = [], before: String = "", after: String = "",
        tokens: (in: Int, out: Int) = (1000, 500),
        cost: Double? = nil
    ) -> Reply {
        var reply = text("", tokens: tokens, cost: cost)
        reply["text"] = nil
        reply["file"] = file
        reply["replace"] = replace.map { [$0.0, $0.1] }
        reply["before"] = before
        reply["after"] = after
        return reply
    }

    /// An error answer: `status` with an OpenRouter-style error body.
    static func error(_ status: Int, _ message: String, headers: [String: String] = [:]) -> Reply {
        ["status": status, "headers": headers, "body": ["error": ["message": message, "code": status]]]
    }
}
