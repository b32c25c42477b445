/// Why the model's server could not be asked, or did not answer: one line that says what to do, never the key.
public struct ModelError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable {
        /// No key where one is needed, a configuration file that is unsafe or unreadable, an address that is not one.
        case configuration
        /// The server refused the key (401, 403).
        case unauthorized
        /// The account has no credit for the request (402).
        case payment
        /// No such model, or no chat-completions API at the address (404).
        case notFound
        /// Still too busy (429) or failing (5xx) after the retries, or no answer within the timeout: worth trying later.
        case unavailable
        /// The server cannot be reached at all.
        case unreachable
        /// The server refused the request for another reason (400, 413…) or answered with what is not a completion.
        case protocolError
    }

    public var kind: Kind
    public var description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// The error for a refusal with `status`, the server's own `message` (key already scrubbed) added where it helps.
    static func refusal(status: Int, message: String?, endpoint: ModelEndpoint, configFile: String) -> ModelError {
        let server = endpoint.base
        let said = message.map { ": the server says \"\($0)\"" } ?? ""
        switch status {
        case 401, 403:
            let fix =
                endpoint.key.map { "check \($0.source)" }
                ?? "give its key as api_key in \(configFile) (mode 0600) beside endpoint = \"\(server)\""
            // The server's words are left out: some quote the key back, in part.
            return ModelError(.unauthorized, "\(server) refused the key (\(status) \(reason(status))): \(fix)")
        case 402:
            let fix =
                endpoint.isOpenRouter
                ? "add credits at https://openrouter.ai/settings/credits, or choose a cheaper --model" : "check the account's credit"
            return ModelError(.payment, "\(server) has no credit left for this request (402 Payment Required)\(said): \(fix)")
        case 404:
            let models = endpoint.isOpenRouter ? " (https://openrouter.ai/models)" : ""
            return ModelError(
                .notFound,
                "\(server) has no model '\(endpoint.model)' or no chat-completions API at \(endpoint.url) (404 Not Found)\(said): "
                    + "check --model\(models), and --endpoint, the API's base ending in /v1 or /api/v1")
        case 429:
            return ModelError(
                .unavailable,
                "\(server) is still limiting requests (429 Too Many Requests) after \(endpoint.retries) retries\(said): try again later")
        case 500...599:
            return ModelError(
                .unavailable,
                "\(server) failed (\(status) \(reason(status))) after \(endpoint.retries) retries\(said): try again later, or another --model"
            )
        default:
            return ModelError(.protocolError, "\(server) refused the request (\(status) \(reason(status)))\(said)")
        }
    }

    /// The standard reason phrase of the statuses a chat-completions server answers with.
    static func reason(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 402: "Payment Required"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 408: "Request Timeout"
        case 413: "Payload Too Large"
        case 422: "Unprocessable Entity"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "HTTP \(status)"
        }
    }
}
