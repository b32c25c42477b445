import ChoirBase
import CFFTW

/// Linear convolution of a whole signal with a long response, by FFT (overlap-save), for recordings rather than a
/// real-time thread: it allocates. A response of thousands of taps (a room's path) costs about a hundred operations
/// a sample this way, against thousands directly, and a third of what a partitioned canceller's short hops take,
/// which are sized for a live session's latency, not for throughput.
public enum Convolution {
    /// `y[n] = Σ_m response[m] · signal[n − m]` for each n in `outputs`, with silence outside `signal`. The blocks
    /// are shared among `threads`; each block is transformed the same whichever thread takes it, so the result does
    /// not depend on how many there were.
    public static func convolve(_ signal: [Float], _ response: [Float], outputs: Range<Int>, threads: Int = 2) -> [Float] {
        var out = [Float](repeating: 0, count: outputs.count)
        guard !response.isEmpty, !outputs.isEmpty else { return out }
        let taps = response.count
        // Four times the response: each block's transform then yields three quarters of its length as output.
        let length = FFTW.fastLength(atLeast: max(4 * taps, 1024))
        let block = length - taps + 1, bins = length / 2 + 1
        let filter = Transform(length: length)
        for (i, h) in response.enumerated() { filter.buffer[i] = h / Float(length) }
        filter.forward()
        let blocks = (outputs.count + block - 1) / block
        out.withUnsafeMutableBufferPointer { out in
            Parallel.slices(of: blocks, workers: threads) { _, slice in
                let work = Transform(length: length)
                for number in slice {
                    let first = number * block, start = outputs.lowerBound + first - (taps - 1)
                    for j in 0..<length {
                        let i = start + j
                        work.buffer[j] = i >= 0 && i < signal.count ? signal[i] : 0
                    }
                    work.forward()
                    for k in 0..<bins {
                        let (a, b) = (work.spectrum[k], filter.spectrum[k])
                        work.spectrum[k] = (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0)
                    }
                    work.inverse()
                    // The first taps − 1 samples wrapped around the block; the rest are the linear convolution.
                    for i in 0..<min(block, outputs.count - first) { out[first + i] = work.buffer[taps - 1 + i] }
                }
            }
        }
        return out
    }

    /// A real transform of one length both ways, in place between its two buffers.
    private final class Transform {
        let buffer: UnsafeMutablePointer<Float>
        let spectrum: UnsafeMutablePointer<fftwf_complex>
        private let forwardPlan: fftwf_plan
        private let inversePlan: fftwf_plan

        init(length: Int) {
            let buffer = fftwf_alloc_real(length)!, spectrum = fftwf_alloc_complex(length / 2 + 1)!
            buffer.initialize(repeating: 0, count: length)
            (self.buffer, self.spectrum) = (buffer, spectrum)
            (forwardPlan, inversePlan) = FFTWPlanner.withLock {
                (
                    fftwf_plan_dft_r2c_1d(Int32(length), buffer, spectrum, UInt32(FFTW_ESTIMATE))!,
                    fftwf_plan_dft_c2r_1d(Int32(length), spectrum, buffer, UInt32(FFTW_ESTIMATE))!
                )
            }
        }

        deinit {
            FFTWPlanner.withLock {
                fftwf_destroy_plan(forwardPlan)
                fftwf_destroy_plan(inversePlan)
            }
            fftwf_free(buffer)
            fftwf_free(spectrum)
        }

        func forward() { fftwf_execute(forwardPlan) }
        func inverse() { fftwf_execute(inversePlan) }
    }
}
