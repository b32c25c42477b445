/// A server that speaks OpenAI's chat-completions protocol (OpenRouter, llama.cpp's server, Ollama…), the model
/// asked for there, the key it takes, and how long to wait for it.
public struct ModelEndpoint: Sendable {
    /// OpenRouter's API, the default server.
    public static let openRouter = "https://openrouter.ai/api/v1"
    /// A vision model that reads printed music well and writes long replies (MusicXML is verbose): the default.
    public static let defaultModel = "google/gemini-2.5-pro"
    /// The version the client gives as its user agent.
    public static let clientVersion = "0.1.0"

    /// The API's base, without a trailing slash: "https://openrouter.ai/api/v1", "http://127.0.0.1:8080/v1".
    public var base: String
    public var model: String
    /// Nil for a server that takes none (a local one).
    public var key: APIKey?
    /// The longest one request may take, in seconds: a model writing a page of MusicXML takes minutes.
    public var timeout: Double
    /// The longest connecting may take, in seconds.
    public var connectTimeout: Double = 20
    /// How many times a request the server was too busy for (429) or failed (5xx) is sent again.
    public var retries = 3
    /// The output limit asked for (`max_tokens`); nil leaves it to the server.
    public var maxTokens: Int?

    public init(base: String, model: String, key: APIKey?, timeout: Double = 600) {
        var base = base
        while base.hasSuffix("/") { base.removeLast() }
        self.base = base
        self.model = model
        self.key = key
        self.timeout = timeout
    }

    /// Where requests go: the base's `/chat/completions`, as for every OpenAI-compatible client.
    public var url: String { base + "/chat/completions" }

    /// The host of the base, in lower case: "openrouter.ai", "127.0.0.1".
    public var host: String { Self.host(of: base) }

    /// Whether the base is OpenRouter's, whose key is `OPENROUTER_API_KEY` and whose credits pay.
    public var isOpenRouter: Bool { host == "openrouter.ai" || host.hasSuffix(".openrouter.ai") }

    /// "scheme://host[:port]/path" → "host", without user information, port or brackets.
    static func host(of url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
        rest = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            return rest[rest.index(after: rest.startIndex)..<close].lowercased()
        }
        return String(rest.prefix { $0 != ":" }).lowercased()
    }

    /// Whether `host` is this machine, where a key may travel over plain HTTP.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}

/// A secret that authorises requests: never printed, logged or stored. Its description names where it came from,
/// so that it can be talked about ("the key from OPENROUTER_API_KEY") without showing it.
public struct APIKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let value: String
    /// Where it came from: "OPENROUTER_API_KEY", or the configuration file's path.
    public let source: String

    public init(_ value: String, source: String) {
        self.value = value
        self.source = source
    }

    public var description: String { "the key from \(source)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["source": source]) }

    /// `text` with every occurrence of the key replaced, for a server's message that quotes it.
    func scrubbed(_ text: String) -> String {
        value.isEmpty ? text : text.replacing(value, with: "[key]")
    }
}
