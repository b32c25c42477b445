import CFFTW
import Glibc

/// The FFTW library choir is linked against.
public enum FFTW {
    /// The run-time version of single-precision FFTW, e.g. "fftw-3.3.10-sse2-avx".
    public static var version: String {
        // `fftwf_version` is an array of unknown size, which Swift cannot import; look it up by name.
        _ = fftwf_alignment_of  // keeps libfftw3f linked and loaded
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "fftwf_version") else { return "unknown" }
        return String(cString: symbol.assumingMemoryBound(to: CChar.self))
    }
}
