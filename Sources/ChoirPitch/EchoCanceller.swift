import CFFTW

/// Takes the mix's echo out of the microphone, hop by hop: the mix, filtered by the echo path (``EchoPath``),
/// subtracted from what was captured. The filter runs as a uniformly partitioned convolution (overlap-save, one
/// partition per hop), so each hop comes out as soon as it goes in, whatever the filter's length.
///
/// Building a canceller allocates every buffer and plans the transforms; `cancel` and `load` allocate nothing
/// and take no lock.
public final class EchoCanceller: @unchecked Sendable {
    /// Samples per hop.
    public let hop: Int
    /// Taps of the filter, the first `lead` of them before the clocks' moment (see ``EchoPath``).
    public let taps: Int
    public let lead: Int
    /// Hops the filter spans: how many it takes a canceller to fill its history after a new filter.
    public let partitions: Int
    private let transform: Int
    private let bins: Int
    private let buffer: UnsafeMutablePointer<Float>
    private let spectrum: UnsafeMutablePointer<fftwf_complex>
    /// The filter's partitions, transformed, and the latest input hops' spectra (newest first, in a ring).
    private let filterSpectra: UnsafeMutablePointer<fftwf_complex>
    private let inputSpectra: UnsafeMutablePointer<fftwf_complex>
    private var newest = 0
    /// The previous hop of mix: overlap-save transforms two hops at a time.
    private let previousHop: UnsafeMutablePointer<Float>
    private let forward: fftwf_plan
    private let inverse: fftwf_plan
    /// The echo taken out of the latest hop.
    public private(set) var echo: UnsafeMutableBufferPointer<Float>

    public init(hop: Int, taps: Int, lead: Int) {
        precondition(hop > 0 && taps > 0 && lead >= 0 && lead < taps)
        self.hop = hop
        self.taps = taps
        self.lead = lead
        partitions = (taps + hop - 1) / hop
        transform = 2 * hop
        bins = hop + 1
        let buffer = fftwf_alloc_real(2 * hop)!, spectrum = fftwf_alloc_complex(hop + 1)!
        (self.buffer, self.spectrum) = (buffer, spectrum)
        filterSpectra = fftwf_alloc_complex(bins * partitions)!
        filterSpectra.initialize(repeating: (0, 0), count: bins * partitions)
        inputSpectra = fftwf_alloc_complex(bins * partitions)!
        inputSpectra.initialize(repeating: (0, 0), count: bins * partitions)
        previousHop = .allocate(capacity: hop)
        previousHop.initialize(repeating: 0, count: hop)
        echo = .allocate(capacity: hop)
        echo.initialize(repeating: 0)
        (forward, inverse) = FFTWPlanner.withLock {
            let flags = UInt32(FFTW_ESTIMATE)
            return (
                fftwf_plan_dft_r2c_1d(Int32(2 * hop), buffer, spectrum, flags)!,
                fftwf_plan_dft_c2r_1d(Int32(2 * hop), spectrum, buffer, flags)!
            )
        }
    }

    deinit {
        FFTWPlanner.withLock {
            fftwf_destroy_plan(forward)
            fftwf_destroy_plan(inverse)
        }
        fftwf_free(buffer)
        fftwf_free(spectrum)
        fftwf_free(filterSpectra)
        fftwf_free(inputSpectra)
        previousHop.deallocate()
        echo.deallocate()
    }

    /// Uses `filter` (``taps`` long, as ``EchoPath/solve(into:)`` gives it) from the next hop on.
    public func load(_ filter: UnsafeBufferPointer<Float>) {
        precondition(filter.count == taps)
        let scale = 1 / Float(transform)
        for p in 0..<partitions {
            buffer.update(repeating: 0, count: transform)
            for i in 0..<min(hop, taps - p * hop) { buffer[i] = filter[p * hop + i] * scale }
            fftwf_execute(forward)
            (filterSpectra + p * bins).update(from: spectrum, count: bins)
        }
    }

    /// Removes the echo from one hop of the microphone, in place. `mix` is the hop of the mix `lead` samples ahead
    /// of the microphone's: `mix[i]` played `lead` samples after the clocks say `microphone[i]` was captured.
    public func cancel(_ microphone: UnsafeMutableBufferPointer<Float>, mix: UnsafeBufferPointer<Float>) {
        precondition(microphone.count == hop && mix.count == hop)
        buffer.update(from: previousHop, count: hop)
        (buffer + hop).update(from: mix.baseAddress!, count: hop)
        previousHop.update(from: mix.baseAddress!, count: hop)
        fftwf_execute(forward)
        newest = (newest + partitions - 1) % partitions
        (inputSpectra + newest * bins).update(from: spectrum, count: bins)
        // Σ over partitions of the filter's partition p times the input p hops ago.
        for k in 0..<bins { spectrum[k] = (0, 0) }
        for p in 0..<partitions {
            let input = inputSpectra + ((newest + p) % partitions) * bins, filter = filterSpectra + p * bins
            for k in 0..<bins {
                let (a, b) = (input[k], filter[k])
                spectrum[k].0 += a.0 * b.0 - a.1 * b.1
                spectrum[k].1 += a.0 * b.1 + a.1 * b.0
            }
        }
        fftwf_execute(inverse)
        for i in 0..<hop {
            echo[i] = buffer[hop + i]
            microphone[i] -= echo[i]
        }
    }
}
