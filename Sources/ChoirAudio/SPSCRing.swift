import Synchronization

/// A lock-free ring between exactly one producer thread and one consumer thread.
///
/// The producer publishes with a releasing store of its write index and the consumer frees space with a
/// releasing store of its read index; each side reads the other's index with an acquiring load, so the
/// elements it sees are complete. Storage is allocated once; a full ring drops what does not fit and counts
/// it, never blocking the producer.
public final class SPSCRing<Element: BitwiseCopyable>: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Element>
    private let mask: Int
    /// Total elements ever written; only the producer stores it.
    private let written = Atomic<Int>(0)
    /// Total elements ever read; only the consumer stores it.
    private let read = Atomic<Int>(0)
    private let droppedTotal = Atomic<Int>(0)

    /// Capacity in elements, a power of two at least `minimumCapacity`.
    public let capacity: Int

    public init(minimumCapacity: Int, filler: Element) {
        var capacity = 1
        while capacity < max(1, minimumCapacity) { capacity <<= 1 }
        self.capacity = capacity
        mask = capacity - 1
        storage = .allocate(capacity: capacity)
        storage.initialize(repeating: filler, count: capacity)
    }

    deinit { storage.deallocate() }

    /// Elements dropped because the ring was full.
    public var dropped: Int { droppedTotal.load(ordering: .relaxed) }

    /// Elements waiting to be read (a snapshot, from either side).
    public var available: Int { written.load(ordering: .acquiring) - read.load(ordering: .acquiring) }

    /// Producer side: copies in as much of `elements` as fits and drops the rest. Returns how many were kept.
    @discardableResult
    public func write(_ elements: UnsafeBufferPointer<Element>) -> Int {
        let head = written.load(ordering: .relaxed)
        let tail = read.load(ordering: .acquiring)
        let count = min(elements.count, capacity - (head - tail))
        for i in 0..<count { storage[(head + i) & mask] = elements[i] }
        written.store(head + count, ordering: .releasing)
        if count < elements.count { droppedTotal.add(elements.count - count, ordering: .relaxed) }
        return count
    }

    /// Consumer side: moves up to `destination.count` elements out. Returns how many.
    @discardableResult
    public func read(into destination: UnsafeMutableBufferPointer<Element>) -> Int {
        let tail = read.load(ordering: .relaxed)
        let head = written.load(ordering: .acquiring)
        let count = min(destination.count, head - tail)
        for i in 0..<count { destination[i] = storage[(tail + i) & mask] }
        read.store(tail + count, ordering: .releasing)
        return count
    }
}
