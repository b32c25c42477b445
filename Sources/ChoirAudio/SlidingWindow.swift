/// The latest `window` samples read from a ring, moved on `hop` samples at a time: what a frame-by-frame
/// analyser of live audio looks at. Allocates at construction only.
public final class SlidingWindow {
    public let window: Int
    public let hop: Int
    /// Samples read from the ring so far.
    public private(set) var consumed = 0
    private var samples: [Float]
    private var incoming: [Float]
    private var pending = 0

    public init(window: Int, hop: Int) {
        precondition(hop > 0 && hop <= window)
        self.window = window
        self.hop = hop
        samples = [Float](repeating: 0, count: window)
        incoming = [Float](repeating: 0, count: hop)
    }

    /// Whether every sample in the window was captured (the first few hops are partly the initial zeros).
    public var isFull: Bool { consumed >= window }

    /// Seconds from the first captured sample to the window's centre.
    public func centre(sampleRate: Double) -> Double { (Double(consumed) - Double(window) / 2) / sampleRate }

    /// Takes what the ring holds towards the next hop; true when the window has moved on by one hop. A whole
    /// hop goes through `prepare` (in place) before it joins the window. Never waits.
    public func advance(from ring: SPSCRing<Float>, prepare: (UnsafeMutableBufferPointer<Float>) -> Void = { _ in }) -> Bool {
        pending += incoming.withUnsafeMutableBufferPointer {
            ring.read(into: UnsafeMutableBufferPointer(rebasing: $0[pending..<hop]))
        }
        guard pending == hop else { return false }
        pending = 0
        incoming.withUnsafeMutableBufferPointer { prepare($0) }
        samples.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            base.update(from: base + hop, count: window - hop)
            incoming.withUnsafeBufferPointer { (base + window - hop).update(from: $0.baseAddress!, count: hop) }
        }
        consumed += hop
        return true
    }

    /// Calls `body` with the window's samples, oldest first.
    public func withSamples<Result>(_ body: (UnsafeBufferPointer<Float>) -> Result) -> Result {
        samples.withUnsafeBufferPointer(body)
    }
}
