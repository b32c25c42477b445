import Glibc

/// Attributes for `posix_spawn` that start a child with no signal blocked and every signal at its default action.
///
/// choir blocks SIGINT, SIGTERM and SIGHUP on its threads so that one thread takes them in order; a child inherits
/// the blocked set, and a browser or pdftoppm started that way could not be interrupted or terminated.
public enum SpawnAttributes {
    /// Calls `body` with attributes that reset the child's signal mask and dispositions.
    public static func withSignalsReset<Result>(_ body: (UnsafePointer<posix_spawnattr_t>) -> Result) -> Result {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return withUnsafePointer(to: &attributes) { body($0) }
    }
}
