import Foundation
import Testing

@testable import ChoirAudio

struct SPSCRingTests {
    /// Every capacity and start offset, so wrap-around is always exercised.
    @Test(arguments: [1, 2, 4, 8, 16])
    func wrapsAroundAtEveryOffset(capacity: Int) {
        for start in 0..<capacity {
            let ring = SPSCRing<Int>(minimumCapacity: capacity, filler: 0)
            var scratch = [Int](repeating: 0, count: capacity)
            // Move the indices to `start`.
            let lead = Array(0..<start)
            lead.withUnsafeBufferPointer { _ = ring.write($0) }
            scratch.withUnsafeMutableBufferPointer { _ = ring.read(into: UnsafeMutableBufferPointer(rebasing: $0[0..<start])) }
            let values = Array(100..<(100 + capacity))
            #expect(values.withUnsafeBufferPointer { ring.write($0) } == capacity)
            #expect(ring.available == capacity)
            let got = scratch.withUnsafeMutableBufferPointer { ring.read(into: $0) }
            #expect(got == capacity)
            #expect(scratch == values)
            #expect(ring.dropped == 0)
        }
    }

    @Test func fullRingDropsAndCounts() {
        let ring = SPSCRing<Float>(minimumCapacity: 5, filler: 0)
        #expect(ring.capacity == 8)
        let ten = [Float](repeating: 1, count: 10)
        #expect(ten.withUnsafeBufferPointer { ring.write($0) } == 8)
        #expect(ring.dropped == 2)
        #expect(ten.withUnsafeBufferPointer { ring.write($0) } == 0)
        #expect(ring.dropped == 12)
    }

    /// A producer and a consumer thread pass a counting sequence through a small ring: nothing is lost or
    /// reordered when nothing is dropped.
    @Test func producerAndConsumerThreads() async {
        let ring = SPSCRing<Int>(minimumCapacity: 64, filler: -1)
        let total = 200_000
        let producer = Thread {
            var next = 0
            var chunk = [Int](repeating: 0, count: 7)
            while next < total {
                let count = min(7, total - next, ring.capacity - ring.available)
                if count == 0 { continue }
                for i in 0..<count { chunk[i] = next + i }
                next += chunk.withUnsafeBufferPointer { ring.write(UnsafeBufferPointer(rebasing: $0[0..<count])) }
            }
        }
        producer.start()
        var expected = 0
        var ordered = true
        var buffer = [Int](repeating: 0, count: 13)
        while expected < total {
            let got = buffer.withUnsafeMutableBufferPointer { ring.read(into: $0) }
            for (offset, value) in buffer[0..<got].enumerated() where value != expected + offset { ordered = false }
            expected += got
        }
        #expect(ordered)
        #expect(ring.dropped == 0)
    }
}

struct SlidingWindowTests {
    /// Samples arrive in odd-sized pieces; the window moves one hop at a time and always holds the latest
    /// `window` samples, oldest first.
    @Test func movesOneHopAtATimeWhateverArrives() {
        let ring = SPSCRing<Float>(minimumCapacity: 64, filler: 0)
        let frames = SlidingWindow(window: 8, hop: 4)
        var next: Float = 1
        var moves = 0
        for piece in [3, 2, 5, 1, 7] {
            let samples = (0..<piece).map { Float($0) + next }
            next += Float(piece)
            _ = samples.withUnsafeBufferPointer { ring.write($0) }
            while frames.advance(from: ring) { moves += 1 }
        }
        // 18 samples: four whole hops; the last two samples wait for the next.
        #expect(moves == 4 && frames.consumed == 16 && frames.isFull)
        #expect(frames.withSamples(Array.init) == (9...16).map(Float.init))
        #expect(frames.centre(sampleRate: 4) == 3)
        #expect(!frames.advance(from: ring))
    }
}
