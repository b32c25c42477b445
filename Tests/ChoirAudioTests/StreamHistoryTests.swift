import Testing

@testable import ChoirAudio

/// The history of a stream, kept by frame number.
struct StreamHistoryTests {
    @Test func keepsTheLatestFramesByNumber() {
        let ring = SPSCRing<Float>(minimumCapacity: 64, filler: 0)
        let history = StreamHistory(capacity: 100)
        var next: Float = 0
        for _ in 0..<7 {
            let frames = (0..<40).map { _ in
                next += 1
                return next
            }
            frames.withUnsafeBufferPointer { _ = ring.write($0) }
            history.append(from: ring)
        }
        #expect(history.end == 280 && history.isIntact)
        // Frame n holds n + 1; frames older than the last 100, and frames not played yet, are silence.
        var out = [Float](repeating: -1, count: 10)
        out.withUnsafeMutableBufferPointer { history.copy(from: 175, into: $0) }
        #expect(out == [0, 0, 0, 0, 0, 181, 182, 183, 184, 185])
        out.withUnsafeMutableBufferPointer { history.copy(from: 275, into: $0) }
        #expect(out == [276, 277, 278, 279, 280, 0, 0, 0, 0, 0])
        let rms = history.rms(from: 278, count: 4)
        #expect(abs(rms - ((279.0 * 279 + 280 * 280) / 4).squareRoot()) < 1e-9)
    }

    @Test func framesDroppedByTheRingAreOwnedUpTo() {
        let ring = SPSCRing<Float>(minimumCapacity: 16, filler: 0)
        let history = StreamHistory(capacity: 64)
        [Float](repeating: 1, count: 20).withUnsafeBufferPointer { _ = ring.write($0) }
        history.append(from: ring)
        #expect(history.end == 16 && !history.isIntact)
    }
}
