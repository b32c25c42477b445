import CSpeexDSP

/// A streaming resampler (speexdsp's, quality 5): audio at one rate in, the same sound at another out, sample 0 of
/// the output at the time of sample 0 of the input. Building one allocates its filter; `process` allocates nothing.
public final class Resampler: @unchecked Sendable {
    public let from: Int
    public let to: Int
    private let state: OpaquePointer

    /// Input samples by which the output trails the input: what ``flush(into:)`` feeds as silence.
    public let latency: Int

    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
        var error: Int32 = 0
        state = speex_resampler_init(1, spx_uint32_t(from), spx_uint32_t(to), 5, &error)
        speex_resampler_skip_zeros(state)
        latency = Int(speex_resampler_get_input_latency(state))
    }

    deinit { speex_resampler_destroy(state) }

    /// The most output `count` input samples can give.
    public func capacity(for count: Int) -> Int { (count * to + from - 1) / from + 2 }

    /// Resamples all of `input` into `output` (at least ``capacity(for:)`` long); returns how many samples it wrote.
    public func process(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) -> Int {
        var consumed = 0, written = 0
        while consumed < input.count && written < output.count {
            var inCount = spx_uint32_t(input.count - consumed), outCount = spx_uint32_t(output.count - written)
            speex_resampler_process_float(state, 0, input.baseAddress! + consumed, &inCount, output.baseAddress! + written, &outCount)
            consumed += Int(inCount)
            written += Int(outCount)
            if inCount == 0 && outCount == 0 { break }
        }
        return written
    }

    /// The whole of `signal` at the new rate, as long as the signal lasts (meant for files: it allocates).
    public func resample(_ signal: [Float]) -> [Float] {
        let length = Int((Double(signal.count) * Double(to) / Double(from)).rounded())
        var out = [Float](repeating: 0, count: capacity(for: signal.count + latency))
        let padded = signal + [Float](repeating: 0, count: latency)
        let written = padded.withUnsafeBufferPointer { input in out.withUnsafeMutableBufferPointer { process(input, into: $0) } }
        out.removeLast(out.count - min(written, length))
        if out.count < length { out += [Float](repeating: 0, count: length - out.count) }
        return out
    }
}
