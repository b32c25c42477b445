import ChoirBase
import Foundation
import Glibc
import Testing

/// Starts `path` directly rather than through Foundation's Process. A daemon (pulseaudio, a tmux server) closes
/// or keeps the descriptors it inherits, which Process takes for its child's exit and then waits on, blocking
/// until the daemon ends. Its standard streams are /dev/null: a server left to exit when idle would otherwise hold
/// the test run's output open, and whatever reads it (`tee` in the Justfile) would wait for the server. Its signals
/// are reset: tests run on Dispatch's threads, which block most signals, and a tmux server that inherited that mask
/// ignored `kill-server` (a SIGTERM it sends itself), so that a failed test left its server, and the choir in it,
/// waiting for a key forever.
func spawn(_ path: String, _ arguments: [String], environment: [String: String]) throws -> pid_t {
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    let status = SpawnAttributes.withSignalsReset { posix_spawn(&pid, path, &actions, $0, argv, envp) }
    try #require(status == 0, "cannot start \(path): \(String(cString: strerror(status)))")
    return pid
}

/// Runs a tool that ends by itself and returns its status and its output and errors, interleaved.
func runTool(_ path: String, _ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String) {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: path)
    child.arguments = arguments
    child.environment = environment
    let pipe = Pipe()
    child.standardOutput = pipe
    child.standardError = pipe
    try child.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    child.waitUntilExit()
    return (child.terminationStatus, String(decoding: output, as: UTF8.self))
}
