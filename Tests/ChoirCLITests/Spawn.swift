import Foundation
import Glibc
import Testing

/// Starts `path` directly rather than through Foundation's Process. A daemon (pulseaudio, a tmux server) closes
/// or keeps the descriptors it inherits, which Process takes for its child's exit and then waits on, blocking
/// until the daemon ends.
func spawn(_ path: String, _ arguments: [String], environment: [String: String]) throws -> pid_t {
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, path, nil, nil, argv, envp)
    try #require(status == 0, "cannot start \(path): \(String(cString: strerror(status)))")
    return pid
}
