/// A server that speaks OpenAI's chat-completions protocol (OpenRouter, llama.cpp's server, Ollama…), the model
/// asked for there, the key it takes, and how long to wait for it.
public struct ModelEndpoint: Sendable {
    /// OpenRouter's API, the default server.
    public static let openRouter = "https://openrouter.ai/api/v1"
    /// A vision model that reads printed music well and writes long replies (MusicXML is verbose): the default.
    public static let defaultModel = "google/gemini-2.5-pro"
    /// The version the client gives as its user agent.
    public static let clientVersion = "0.1.0"

    /// The API's base as given, without a trailing slash, user information and all: for the request alone.
    let address: String
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
        address = base
        self.model = model
        self.key = key
        self.timeout = timeout
    }

    /// The API's base as choir shows it: "https://openrouter.ai/api/v1", "http://127.0.0.1:8080/v1", and
    /// "https://***@host/v1" for an address with a user and password in it, which are never shown.
    public var base: String { Self.redacted(address) }

    /// Where requests go, as shown: the base's `/chat/completions`, as for every OpenAI-compatible client.
    public var url: String { base + "/chat/completions" }

    /// Where requests go, user information and all: given to libcurl and nothing else.
    var requestURL: String { address + "/chat/completions" }

    /// The host of the base, in lower case: "openrouter.ai", "127.0.0.1".
    public var host: String { Self.host(of: address) }

    /// Whether the base is OpenRouter's, whose key is `OPENROUTER_API_KEY` and whose credits pay.
    public var isOpenRouter: Bool { host == "openrouter.ai" || host.hasSuffix(".openrouter.ai") }

    /// `text` with the key and the address's user information (and its password alone) blanked: for what a server or
    /// libcurl says, which may quote them.
    func scrubbed(_ text: String) -> String {
        var text = key?.scrubbed(text) ?? text
        if let range = Self.userInformation(of: address) {
            let information = address[range]
            let password = information.firstIndex(of: ":").map { information[information.index(after: $0)...] } ?? ""
            for secret in [information, password] where !secret.isEmpty { text = text.replacing(secret, with: "***") }
        }
        return text
    }

    /// `url` with its user information ("user:password" before the host's "@"), if it has any, shown as "***".
    static func redacted(_ url: String) -> String {
        guard let range = userInformation(of: url) else { return url }
        return String(url[..<range.lowerBound]) + "***" + String(url[range.upperBound...])
    }

    /// Where the authority of `url` is ("user:password@host:port"): after the scheme, before the path.
    private static func authority(of url: String) -> Range<String.Index> {
        let start = url.firstRange(of: "://")?.upperBound ?? url.startIndex
        return start..<(url[start...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex)
    }

    /// Where the user information of `url` is, before the last "@" of its authority; nil when it has none.
    private static func userInformation(of url: String) -> Range<String.Index>? {
        let authority = authority(of: url)
        return url[authority].lastIndex(of: "@").map { authority.lowerBound..<$0 }
    }

    /// "scheme://host[:port]/path" → "host", without user information, port or brackets.
    static func host(of url: String) -> String {
        var rest = url[authority(of: url)]
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
