import ChoirModel
import ChoirPractice

extension ModelCoach {
    /// The request that asks a model for advice: the coach's instructions, then the figures of `reports` (never
    /// audio).
    public static func request(_ reports: [SessionReport], piece: String) -> ChatRequest {
        ChatRequest([.init(.system, instructions), .init(.user, figures(reports, piece: piece))])
    }

    /// What `choir coach --model` says of `endpoint`'s `reply` to ``request(_:piece:)``, with what it took.
    public static func advice(_ reply: ChatReply, from endpoint: ModelEndpoint, _ reports: [SessionReport], piece: String) -> String {
        var usage = ModelUsage()
        usage.add(reply)
        return text(reply.text, model: endpoint.model, cost: usage.summary(endpoint), reports, piece: piece)
    }
}
