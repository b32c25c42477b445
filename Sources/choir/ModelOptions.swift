import ArgumentParser
import ChoirModel
import ChoirTerminal
import FoundationEssentials

/// The options of commands that ask a model the singer brings (`scan`, `coach --model`).
struct ModelOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The chat-completions API's base address, ending in /v1 or /api/v1: any OpenAI-compatible server, such as a local "
                + "llama.cpp server or Ollama. Else the configuration file's, else OpenRouter (\(ModelEndpoint.openRouter)).",
            valueName: "url"))
    var endpoint: String?

    @Option(
        help: ArgumentHelp(
            "The model, as the server names it. Else the configuration file's, else \(ModelEndpoint.defaultModel).", valueName: "name"))
    var model: String?

    @Option(help: ArgumentHelp("The longest one request may take, in seconds.", valueName: "seconds"))
    var timeout = 600

    @Option(help: ArgumentHelp("The most tokens the model may write in one reply; else the server's limit.", valueName: "n"))
    var maxTokens: Int?

    @Flag(help: "Show the requests (without the key) and send nothing.")
    var dryRun = false

    func validate() throws {
        guard (1...3600).contains(timeout) else { throw ValidationError("--timeout \(timeout): expected 1 to 3600 seconds") }
        if let maxTokens, maxTokens < 1 { throw ValidationError("--max-tokens \(maxTokens): expected a positive number") }
    }

    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// The server, model and key these options and the configuration file name; a one-line error and its status
    /// when they cannot be used. Nothing is sent.
    func resolved() throws -> ModelEndpoint {
        do {
            var endpoint = try ModelSettings.endpoint(
                endpoint: self.endpoint, model: model, timeout: Double(timeout), environment: Self.environment, keyOptional: dryRun)
            endpoint.maxTokens = maxTokens
            return endpoint
        } catch {
            throw fail(error)
        }
    }

    /// A client of `endpoint` that says each retry on standard error.
    static func client(_ endpoint: ModelEndpoint) -> ChatClient {
        ChatClient(endpoint: endpoint, configFile: ModelSettings.configFile(environment: environment)) { notice in
            FileOutput.write("choir: \(notice)\n", to: 2)
        }
    }
}
