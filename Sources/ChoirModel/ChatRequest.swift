import FoundationEssentials

/// A conversation to send to a chat-completions server: text and images, by role.
public struct ChatRequest: Sendable {
    public enum Role: String, Sendable {
        case system, user, assistant
    }

    /// A piece of a message: text, or an image as a data URL.
    public enum Part: Sendable {
        case text(String)
        /// An image the server is given inline: `data:image/jpeg;base64,…`, and what `--dry-run` calls it.
        case image(dataURL: String, label: String)
    }

    public struct Message: Sendable {
        public var role: Role
        public var parts: [Part]

        public init(_ role: Role, _ parts: [Part]) {
            self.role = role
            self.parts = parts
        }

        public init(_ role: Role, _ text: String) { self.init(role, [.text(text)]) }

        /// The message's text parts, joined.
        public var text: String {
            parts.compactMap { if case .text(let text) = $0 { text } else { nil } }.joined(separator: "\n")
        }
    }

    public var messages: [Message]

    public init(_ messages: [Message]) { self.messages = messages }

    /// The JSON body for `endpoint`: the model, the messages (a message of text alone as a plain string, as every
    /// server takes it; one with images as a list of parts) and the output limit when one is set.
    func body(for endpoint: ModelEndpoint) -> [UInt8] {
        let body = Body(
            model: endpoint.model, max_tokens: endpoint.maxTokens,
            messages: messages.map { message in
                let images = message.parts.contains { if case .image = $0 { true } else { false } }
                return Body.Message(
                    role: message.role.rawValue,
                    content: images
                        ? .parts(
                            message.parts.map { part in
                                switch part {
                                case .text(let text): Body.Part(type: "text", text: text, image_url: nil)
                                case .image(let url, _): Body.Part(type: "image_url", text: nil, image_url: .init(url: url))
                                }
                            }) : .text(message.text))
            })
        let encoder = JSONEncoder()
        // Base64 is full of slashes, which JSONEncoder would otherwise escape; sorted keys make a request's bytes the
        // same each time.
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return Array((try? encoder.encode(body)) ?? Data())
    }

    /// What `--dry-run` shows: the address, the headers (the key named, not shown), and each message by role with
    /// its text and its images by name and size.
    public func preview(for endpoint: ModelEndpoint) -> String {
        var out = "POST \(endpoint.url)\n"
        out += "Authorization: " + (endpoint.key.map { "Bearer <\($0), not shown>" } ?? "(none: no key for this server)") + "\n"
        out += "Content-Type: application/json (\(Self.count(body(for: endpoint).count)) bytes)\n"
        out += "model: \(endpoint.model)\n"
        if let limit = endpoint.maxTokens { out += "max_tokens: \(limit)\n" }
        for message in messages {
            out += "\(message.role.rawValue):\n"
            for part in message.parts {
                switch part {
                case .text(let text):
                    out += text.split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)\n" }.joined()
                case .image(let url, let label):
                    out += "  [image: \(label); a data URL of \(Self.count(url.utf8.count)) bytes]\n"
                }
            }
        }
        return out
    }

    /// 1234567 → "1,234,567".
    public static func count(_ value: Int) -> String {
        let digits = Array(String(value.magnitude))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return (value < 0 ? "-" : "") + out
    }

    /// The wire format (field names as the protocol spells them).
    private struct Body: Encodable {
        var model: String
        var max_tokens: Int?
        var messages: [Message]

        struct Message: Encodable {
            var role: String
            var content: Content
        }

        enum Content: Encodable {
            case text(String)
            case parts([Part])

            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                switch self {
                case .text(let text): try container.encode(text)
                case .parts(let parts): try container.encode(parts)
                }
            }
        }

        struct Part: Encodable {
            var type: String
            var text: String?
            var image_url: ImageURL?
        }

        struct ImageURL: Encodable {
            var url: String
        }
    }
}
