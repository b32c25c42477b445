import CFFTW
import Glibc
import Synchronization

/// The FFTW library choir is linked against.
public enum FFTW {
    /// The run-time version of single-precision FFTW, e.g. "fftw-3.3.10-sse2-avx".
    public static var version: String {
        // `fftwf_version` is an array of unknown size, which Swift cannot import; look it up by name.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "fftwf_version") else { return "unknown" }
        return String(cString: symbol.assumingMemoryBound(to: CChar.self))
    }

    /// The smallest length at least `minimum` whose only prime factors are 2, 3 and 5: planned with
    /// FFTW_ESTIMATE (which costs microseconds rather than FFTW_MEASURE's tenth of a second), such lengths
    /// transform about as fast per point as powers of two, and come closer to what is needed.
    static func fastLength(atLeast minimum: Int) -> Int {
        var best = Int.max
        var two = 1
        while two < best {
            var three = two
            while three < best {
                var five = three
                while five < minimum { five *= 5 }
                best = min(best, five)
                three *= 3
            }
            two *= 2
        }
        return best
    }
}

/// FFTW's planner keeps global state, so plans are made and destroyed under one lock, by every user of FFTW in
/// the process; executing a plan needs none.
public enum FFTWPlanner {
    private static let lock = Mutex(())

    public static func withLock<T>(_ body: () -> T) -> T {
        lock.withLock { _ in body() }
    }
}
