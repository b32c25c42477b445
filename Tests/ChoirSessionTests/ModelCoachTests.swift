import ChoirPractice
import ChoirTestSupport
import Testing

@testable import ChoirModel
@testable import ChoirSession

/// `choir coach --model`'s exchange with the model: what is asked, and what is said of the reply.
struct ModelCoachTests {
    /// The coach's instructions go first, as the system's; the sessions' figures alone follow, as the singer's.
    @Test func theRequestIsTheInstructionsThenTheFigures() {
        let reports = [PlantedSession.make()]
        let request = ModelCoach.request(reports, piece: "hymn")
        #expect(request.messages.map(\.role) == [.system, .user])
        #expect(request.messages[0].text == ModelCoach.instructions)
        #expect(request.messages[1].text == ModelCoach.figures(reports, piece: "hymn"))
    }

    /// The reply is said a line at a time under the heading, with the one request's tokens and cost.
    @Test func theAdviceSaysTheReplyAndWhatItTook() {
        let reports = [PlantedSession.make()]
        let endpoint = ModelEndpoint(base: ModelEndpoint.openRouter, model: "m/coach", key: nil)
        let reply = ChatReply(
            text: "Breathe earlier.\nLean less.", promptTokens: 1200, completionTokens: 80, cost: 0.002, requestBytes: 10, seconds: 1)
        let advice = ModelCoach.advice(reply, from: endpoint, reports, piece: "hymn")
        #expect(
            advice.hasSuffix(
                ", in the words of m/coach (from the figures alone):\n  Breathe earlier.\n  Lean less.\n"
                    + "Model: 1 request: 1,200 tokens in, 80 out; cost $0.0020 as OpenRouter reports it.\n"))
    }
}
