/// The latest stretch of a stream, kept by frame number: what a session played, for the thread that needs to
/// know what was playing when the microphone captured a frame. For one thread; allocates at construction only.
public final class StreamHistory {
    /// Frames kept.
    public let capacity: Int
    private let storage: UnsafeMutablePointer<Float>
    /// Frames appended so far: the number the next frame gets.
    public private(set) var end = 0
    /// Whether frame numbers still match the stream's: false once the ring it is fed from dropped frames.
    public private(set) var isIntact = true

    public init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
        storage.initialize(repeating: 0, count: capacity)
    }

    deinit { storage.deallocate() }

    /// Moves everything `ring` holds into the history. Frames the ring dropped leave a hole whose place is not
    /// known, so after that the history no longer claims to be intact.
    public func append(from ring: SPSCRing<Float>) {
        if ring.dropped > 0 { isIntact = false }
        while true {
            let at = end % capacity
            let read = ring.read(into: UnsafeMutableBufferPointer(start: storage + at, count: capacity - at))
            end += read
            if read < capacity - at { return }
        }
    }

    /// Copies frames `start ..< start + destination.count`; frames not held (too old, or not appended yet) are 0.
    public func copy(from start: Int, into destination: UnsafeMutableBufferPointer<Float>) {
        let held = max(0, end - capacity)..<end
        for i in 0..<destination.count {
            let frame = start + i
            destination[i] = held.contains(frame) ? storage[frame % capacity] : 0
        }
    }

    /// Frame `frame`, or 0 when it is not held.
    public func sample(_ frame: Int) -> Float {
        frame >= max(0, end - capacity) && frame < end ? storage[frame % capacity] : 0
    }

    /// The RMS of frames `start ..< start + count`, frames not held counting as silence.
    public func rms(from start: Int, count: Int) -> Double {
        guard count > 0 else { return 0 }
        let held = max(0, end - capacity)..<end
        let first = max(start, held.lowerBound), last = min(start + count, held.upperBound)
        var sum = 0.0
        for frame in first..<max(first, last) {
            let sample = Double(storage[frame % capacity])
            sum += sample * sample
        }
        return (sum / Double(count)).squareRoot()
    }
}
