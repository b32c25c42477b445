import Testing

@testable import ChoirSession

/// Commands sent from other threads reach the session's thread each once, in the order sent; a cancel stays.
struct SessionInboxTests {
    @Test func commandsAreTakenOnceInOrder() async {
        let inbox = SessionInbox()
        // Two front ends at once: each one's commands keep their order.
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for step in 1...50 { inbox.send(.step(measures: step)) } }
            group.addTask { for _ in 1...50 { inbox.send(.togglePause) } }
        }
        let taken = inbox.take()
        #expect(taken.count == 100)
        #expect(taken.compactMap { if case .step(let measures) = $0 { measures } else { nil } } == Array(1...50))
        #expect(inbox.take().isEmpty)
        inbox.send(.quit)
        #expect(inbox.take() == [.quit])
        #expect(!inbox.isCancelled)
        inbox.cancel()
        #expect(inbox.isCancelled && inbox.isCancelled)
    }
}
