import FoundationEssentials
import Glibc

/// What the server answered to one request.
public struct ChatReply: Sendable {
    public var text: String
    /// Why the model stopped: "stop", or "length" when it reached its output limit.
    public var finishReason: String?
    public var promptTokens: Int?
    public var completionTokens: Int?
    /// What the request cost, in the server's credits (OpenRouter's are US dollars), when it says.
    public var cost: Double?
    /// The bytes sent, and how long the request took, retries included.
    public var requestBytes: Int
    public var seconds: Double

    /// Whether the model stopped at its output limit, its reply cut short.
    public var wasCutOff: Bool { finishReason == "length" }
}

/// The tokens and cost of every request a command made, added up.
public struct ModelUsage: Sendable {
    public var requests = 0
    public var promptTokens = 0
    public var completionTokens = 0
    /// Nil when the server reported no cost for some request.
    public var cost: Double? = 0
    public var requestBytes = 0
    public var seconds = 0.0

    public init() {}

    public mutating func add(_ reply: ChatReply) {
        requests += 1
        promptTokens += reply.promptTokens ?? 0
        completionTokens += reply.completionTokens ?? 0
        cost = cost.flatMap { total in reply.cost.map { total + $0 } }
        requestBytes += reply.requestBytes
        seconds += reply.seconds
    }

    /// "4 requests: 25,000 tokens in, 12,000 out; cost $0.1234 as OpenRouter reports it", or without the cost when the
    /// server did not report it.
    public func summary(_ endpoint: ModelEndpoint) -> String {
        let counted = requests == 1 ? "1 request" : "\(requests) requests"
        let tokens = "\(ChatRequest.count(promptTokens)) tokens in, \(ChatRequest.count(completionTokens)) out"
        let reporter = endpoint.isOpenRouter ? "OpenRouter" : "the server"
        let price = cost.map { "; cost $\(Self.fixed($0, digits: 4)) as \(reporter) reports it" } ?? "; no cost reported"
        return "\(counted): \(tokens)\(price)"
    }

    /// `value` with `digits` decimals: 0.01234 → "0.0123".
    static func fixed(_ value: Double, digits: Int) -> String {
        var scale = 1
        for _ in 0..<digits { scale *= 10 }
        let units = Int((abs(value) * Double(scale)).rounded())
        let fraction = String(units % scale)
        return (value < 0 ? "-" : "") + "\(units / scale)." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
}

/// A client of an OpenAI-compatible chat-completions server: sends a conversation, waits for the reply, and
/// retries with growing pauses while the server is busy (429) or failing (5xx).
///
/// The key goes in the Authorization header and nowhere else: errors name where it came from, never what it is,
/// and a server message that quotes it has it blanked. A user and password in the address go to libcurl alone:
/// messages show them as "***".
public struct ChatClient: Sendable {
    public let endpoint: ModelEndpoint
    /// Where the configuration file is, for errors that point to it.
    let configFile: String
    /// Told of each retry and its pause, in one line.
    let notice: @Sendable (String) -> Void

    public init(endpoint: ModelEndpoint, configFile: String, notice: @escaping @Sendable (String) -> Void) {
        self.endpoint = endpoint
        self.configFile = configFile
        self.notice = notice
    }

    /// The longest pause before a retry, in seconds. A server whose Retry-After asks for longer (a quota spent for the
    /// hour or the day) is not waited for: the command ends at once and says how long it asked for.
    static let longestPause = 60.0

    /// Sends `request` and returns the model's reply.
    public func complete(_ request: ChatRequest) throws(ModelError) -> ChatReply {
        let body = request.body(for: endpoint)
        var headers = ["Content-Type: application/json", "Accept: application/json"]
        if let key = endpoint.key { headers.append("Authorization: Bearer \(key.value)") }
        // How OpenRouter names the application on the singer's activity page.
        if endpoint.isOpenRouter { headers.append("X-Title: choir") }
        let started = Self.now()
        var attempt = 0
        while true {
            let response: CurlTransport.Response
            do {
                response = try CurlTransport.post(
                    url: endpoint.requestURL, headers: headers, body: body, timeout: endpoint.timeout,
                    connectTimeout: endpoint.connectTimeout)
            } catch {
                switch error {
                case .timedOut:
                    // Not sent again: the server may still be writing (and charging for) the reply.
                    throw ModelError(
                        .unavailable,
                        "no answer from \(endpoint.base) within \(Self.seconds(endpoint.timeout)): try again, or a longer --timeout")
                case .unreachable(let detail):
                    throw ModelError(.unreachable, "cannot reach \(endpoint.base): \(scrub(detail))")
                case .dropped(let detail):
                    guard attempt < endpoint.retries else {
                        throw ModelError(.unavailable, "\(endpoint.base) kept dropping the connection (\(scrub(detail))): try again later")
                    }
                    attempt += 1
                    pause(nil, attempt: attempt, reason: "dropped the connection")
                    continue
                case .failed(let detail):
                    throw ModelError(.unreachable, "cannot send to \(endpoint.base): \(scrub(detail))")
                }
            }
            let answer = try? JSONDecoder().decode(Answer.self, from: Data(response.body))
            // OpenRouter may answer 200 with an error in the body (a provider failing mid-way), which then carries the status.
            var status = response.status
            if (200..<300).contains(status), let error = answer?.error, answer?.choices == nil { status = error.code?.status ?? 502 }
            if (200..<300).contains(status) {
                guard let answer, let choice = answer.choices?.first else {
                    throw ModelError(
                        .protocolError, "\(endpoint.base) answered with what is not a chat completion: expected choices[0].message")
                }
                return ChatReply(
                    text: choice.message?.content?.text ?? "", finishReason: choice.finish_reason,
                    promptTokens: answer.usage?.prompt_tokens, completionTokens: answer.usage?.completion_tokens, cost: answer.usage?.cost,
                    requestBytes: body.count, seconds: Self.now() - started)
            }
            let message = answer?.error?.message.map { scrub(Self.oneLine($0)) }
            if status == 429 || (500...599).contains(status), attempt < endpoint.retries {
                let reason = "answered \(status) \(ModelError.reason(status))"
                // Retry-After in seconds, as HTTP writes it: a whole number (a date, rare from these servers, is not read).
                let asked = response.headers["retry-after"].flatMap { Int($0.filter { !$0.isWhitespace }) }.map { max(0, $0) }
                if let asked, Double(asked) > Self.longestPause {
                    throw ModelError(
                        .unavailable,
                        "\(endpoint.base) \(reason) and asks for a pause of \(asked) s before the next request "
                            + "(Retry-After), longer than choir waits (\(Self.seconds(Self.longestPause)))"
                            + (message.map { ": the server says \"\($0)\"" } ?? "") + ": try again then")
                }
                attempt += 1
                pause(asked.map(Double.init), attempt: attempt, reason: reason)
                continue
            }
            throw ModelError.refusal(status: status, message: message, endpoint: endpoint, configFile: configFile)
        }
    }

    /// Waits before retry `attempt`: what the server asked for (Retry-After, in seconds), else 1, 2, 4… seconds.
    private func pause(_ asked: Double?, attempt: Int, reason: String) {
        let seconds = asked ?? Double(1 << (attempt - 1))
        notice("\(endpoint.base) \(reason): trying again in \(Self.seconds(seconds)) (\(attempt) of \(endpoint.retries))")
        var time = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var left = timespec()
        while nanosleep(&time, &left) != 0 && errno == EINTR { time = left }
    }

    private func scrub(_ text: String) -> String { endpoint.scrubbed(text) }

    static func oneLine(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > 300 ? String(line.prefix(300)) + "…" : line
    }

    /// "1 s", "2.5 s".
    public static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(ModelUsage.fixed(value, digits: 1)) s"
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// What a chat-completions server answers, as far as choir reads it.
    private struct Answer: Decodable {
        var choices: [Choice]?
        var usage: Usage?
        var error: ErrorBody?

        struct Choice: Decodable {
            var message: Message?
            var finish_reason: String?
        }

        struct Message: Decodable {
            var content: Content?
        }

        /// A string, or (some servers) a list of parts whose text is joined.
        struct Content: Decodable {
            var text: String

            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let text = try? container.decode(String.self) {
                    self.text = text
                } else {
                    text = try container.decode([Part].self).compactMap(\.text).joined()
                }
            }

            struct Part: Decodable {
                var text: String?
            }
        }

        struct Usage: Decodable {
            var prompt_tokens: Int?
            var completion_tokens: Int?
            var cost: Double?
        }

        struct ErrorBody: Decodable {
            var message: String?
            var code: Code?
        }

        /// OpenRouter gives the status as a number, OpenAI a name such as "invalid_api_key".
        struct Code: Decodable {
            var status: Int?

            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                status = try? container.decode(Int.self)
            }
        }
    }
}
