import Foundation
import Testing

@testable import ChoirModel

/// Which server, model and key a command uses, and how a request is written: a key goes only where it was given for.
struct ModelSettingsTests {
    static let secret = "sk-or-v1-0b5e-never-shown"

    /// A configuration folder with `text` in its model.toml at `mode`, as an environment.
    static func environment(_ text: String?, mode: mode_t = 0o600, key: String? = nil) throws -> [String: String] {
        let folder = NSTemporaryDirectory() + "choir-model-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/choir", withIntermediateDirectories: true)
        if let text {
            try text.write(toFile: folder + "/choir/model.toml", atomically: false, encoding: .utf8)
            chmod(folder + "/choir/model.toml", mode)
        }
        return ["XDG_CONFIG_HOME": folder, "HOME": folder, "OPENROUTER_API_KEY": key ?? ""]
    }

    static func resolve(
        _ environment: [String: String], endpoint: String? = nil, model: String? = nil, keyOptional: Bool = false
    ) throws(ModelError) -> ModelEndpoint {
        try ModelSettings.endpoint(endpoint: endpoint, model: model, timeout: 60, environment: environment, keyOptional: keyOptional)
    }

    /// OPENROUTER_API_KEY goes to OpenRouter and nowhere else; the file's key goes to the file's endpoint (OpenRouter
    /// when it names none) and nowhere else.
    @Test func aKeyGoesOnlyWhereItWasGivenFor() throws {
        let fromEnvironment = try Self.resolve(try Self.environment(nil, key: Self.secret))
        #expect(fromEnvironment.base == "https://openrouter.ai/api/v1" && fromEnvironment.model == "google/gemini-2.5-pro")
        #expect(fromEnvironment.key?.value == Self.secret && fromEnvironment.key?.source == "OPENROUTER_API_KEY")
        #expect(try Self.resolve(try Self.environment(nil, key: Self.secret), endpoint: "http://127.0.0.1:8080/v1").key == nil)

        let local = try Self.environment("endpoint = \"http://localhost:11434/v1/\"\nmodel = \"qwen2.5vl\"\napi_key = \"local\"\n")
        let fromFile = try Self.resolve(local)
        #expect(fromFile.base == "http://localhost:11434/v1" && fromFile.url == "http://localhost:11434/v1/chat/completions")
        #expect(
            fromFile.model == "qwen2.5vl" && fromFile.key?.value == "local" && fromFile.key?.source.hasSuffix("/choir/model.toml") == true)
        #expect(try Self.resolve(local, endpoint: "https://other.example/v1").key == nil)
        #expect(try Self.resolve(local, model: "llava").model == "llava")

        let openRouterFile = try Self.environment("api_key = \"\(Self.secret)\"\n")
        #expect(try Self.resolve(openRouterFile).key?.value == Self.secret)
        #expect(try Self.resolve(openRouterFile, endpoint: "http://127.0.0.1:9/v1").key == nil)
    }

    /// Without a key OpenRouter is not asked (unless only shown); a key file others may read, a key over plain HTTP
    /// to another machine, an unknown setting and an address that is not one are refused, each in one line.
    @Test func unsafeOrIncompleteSettingsAreRefused() throws {
        func refusal(_ environment: [String: String], endpoint: String? = nil) -> String? {
            do {
                _ = try Self.resolve(environment, endpoint: endpoint)
                return nil
            } catch {
                #expect(error.kind == .configuration)
                return error.description
            }
        }
        let none = try Self.environment(nil)
        #expect(refusal(none)?.hasPrefix("no key for OpenRouter: set OPENROUTER_API_KEY, or api_key in ") == true)
        #expect(try Self.resolve(none, keyOptional: true).key == nil)
        let shared = try Self.environment("api_key = \"x\"\n", mode: 0o640)
        #expect(refusal(shared)?.contains("may be read by others (mode 0640): it holds a key, so it must be mode 0600 (chmod 600 ") == true)
        let plain = try Self.environment("endpoint = \"http://192.168.1.9:8080/v1\"\napi_key = \"x\"\n")
        #expect(
            refusal(plain)
                == "http://192.168.1.9:8080/v1: a key is not sent over plain HTTP to another machine: expected an https:// address")
        let unknown = try Self.environment("api_key = \"x\"\ntemperature = \"0\"\n")
        #expect(refusal(unknown)?.hasSuffix("model.toml: unknown key `temperature`: expected `endpoint`, `model`, `api_key`") == true)
        let broken = try Self.environment("api_key = \"x\n")
        #expect(refusal(broken)?.contains("model.toml:1:") == true)
        #expect(refusal(none, endpoint: "openrouter.ai") == "--endpoint openrouter.ai: expected the API's base address, http(s)://…/v1")
    }

    /// A key in a string, a debug description or a dump says where it came from, never what it is.
    @Test func aKeyIsNeverShown() {
        let key = APIKey(Self.secret, source: "OPENROUTER_API_KEY")
        var dumped = ""
        dump(key, to: &dumped)
        for text in ["\(key)", String(reflecting: key), dumped] {
            #expect(!text.contains(Self.secret), "\(text)")
        }
        #expect("\(key)" == "the key from OPENROUTER_API_KEY")
        #expect(key.scrubbed("Incorrect API key provided: \(Self.secret).") == "Incorrect API key provided: [key].")
    }

    /// Text alone is a plain string; a message with images a list of parts, each image a data URL whose slashes are
    /// left as they are. The preview names the key and each image and shows no data.
    @Test func requestsAsTheProtocolWantsThem() throws {
        let request = ChatRequest([
            .init(.system, "Read."),
            .init(.user, [.text("Pages:"), .image(dataURL: "data:image/jpeg;base64,/9j/AA==", label: "p.jpg, 10×20")]),
        ])
        var endpoint = ModelEndpoint(
            base: "https://openrouter.ai/api/v1/", model: "m/v", key: APIKey(Self.secret, source: "OPENROUTER_API_KEY"))
        endpoint.maxTokens = 64000
        let body = String(decoding: request.body(for: endpoint), as: UTF8.self)
        #expect(
            body == #"{"max_tokens":64000,"messages":[{"content":"Read.","role":"system"},{"content":[{"text":"Pages:","type":"text"},"#
                + #"{"image_url":{"url":"data:image/jpeg;base64,/9j/AA=="},"type":"image_url"}],"role":"user"}],"model":"m/v"}"#)
        #expect(
            request.preview(for: endpoint) == """
                POST https://openrouter.ai/api/v1/chat/completions
                Authorization: Bearer <the key from OPENROUTER_API_KEY, not shown>
                Content-Type: application/json (\(body.utf8.count) bytes)
                model: m/v
                max_tokens: 64000
                system:
                  Read.
                user:
                  Pages:
                  [image: p.jpg, 10×20; a data URL of 31 bytes]

                """)
    }

    /// 402 and 404 say where to act: OpenRouter's pages for credits and models when the server is OpenRouter (known
    /// by its host, which the tests' server on loopback cannot have, so this is checked here), general words for any
    /// other server.
    @Test func refusalsNameOpenRoutersPagesForOpenRouter() {
        let openRouter = ModelEndpoint(base: ModelEndpoint.openRouter, model: "m/v", key: APIKey(Self.secret, source: "OPENROUTER_API_KEY"))
        let local = ModelEndpoint(base: "http://127.0.0.1:8080/v1", model: "m/v", key: nil)
        func refusal(_ status: Int, _ endpoint: ModelEndpoint) -> String {
            ModelError.refusal(status: status, message: nil, endpoint: endpoint, configFile: "model.toml").description
        }
        #expect(
            refusal(402, openRouter)
                == "https://openrouter.ai/api/v1 has no credit left for this request (402 Payment Required): add credits at "
                + "https://openrouter.ai/settings/credits, or choose a cheaper --model")
        #expect(
            refusal(402, local)
                == "http://127.0.0.1:8080/v1 has no credit left for this request (402 Payment Required): check the account's credit")
        #expect(
            refusal(404, openRouter)
                == "https://openrouter.ai/api/v1 has no model 'm/v' or no chat-completions API at https://openrouter.ai/api/v1/chat/completions "
                + "(404 Not Found): check --model (https://openrouter.ai/models), and --endpoint, the API's base ending in /v1 or /api/v1")
        #expect(!refusal(404, local).contains("openrouter.ai"))
    }

    /// Tokens and cost add up over requests; a cost the server does not report leaves the total unknown.
    @Test func usageAddsUp() {
        let openRouter = ModelEndpoint(base: ModelEndpoint.openRouter, model: "m", key: nil)
        var usage = ModelUsage()
        for (tokens, cost) in [((9000, 800), 0.0152), ((12000, 15000), 0.0731)] {
            usage.add(
                ChatReply(text: "", promptTokens: tokens.0, completionTokens: tokens.1, cost: cost, requestBytes: 10, seconds: 1))
        }
        #expect(usage.summary(openRouter) == "2 requests: 21,000 tokens in, 15,800 out; cost $0.0883 as OpenRouter reports it")
        usage.add(ChatReply(text: "", promptTokens: 5, completionTokens: 5, cost: nil, requestBytes: 10, seconds: 1))
        #expect(usage.summary(openRouter) == "3 requests: 21,005 tokens in, 15,805 out; no cost reported")
    }
}
