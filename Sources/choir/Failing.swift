import ArgumentParser
import ChoirSession
import ChoirTerminal

extension ExitCode {
    /// Exits with `status`, the kind of failure that ends choir (``ExitStatus``, listed in `choir --help`).
    init(_ status: ExitStatus) { self.init(status.rawValue) }
}

/// Prints `error` on standard error as one line and exits with the status of its kind.
func fail(_ error: any Error) -> ExitCode {
    warn(error)
    return ExitCode(ExitStatus(of: error))
}

/// What `work` gives; an error it throws is said in one line (``fail(_:)``), to exit with its kind's status.
func failing<T>(_ work: () throws -> T) throws -> T {
    do { return try work() } catch let exit as ExitCode { throw exit } catch { throw fail(error) }
}

/// What `work` gives, as ``failing(_:)`` does, for work that awaits.
func failingAsync<T>(_ work: () async throws -> T) async throws -> T {
    do { return try await work() } catch let exit as ExitCode { throw exit } catch { throw fail(error) }
}

/// "OPTION VALUE: expected LOW to HIGH UNIT" for a value outside the engine's `limits`, given in the option's unit
/// (`scale` of the limits' own, as milliseconds for seconds).
func expected(_ option: String, _ value: Any, _ limits: ClosedRange<Double>, scale: Double = 1, unit: String = "") -> String {
    "\(option) \(value): expected \(Int(limits.lowerBound * scale)) to \(Int(limits.upperBound * scale))\(unit)"
}

/// ``expected(_:_:_:scale:unit:)`` for whole-number limits.
func expected(_ option: String, _ value: Any, _ limits: ClosedRange<Int>, unit: String = "") -> String {
    expected(option, value, Double(limits.lowerBound)...Double(limits.upperBound), unit: unit)
}

/// Prints `message` on standard error as one line and exits with `status`.
func fail(_ message: String, _ status: ExitStatus) -> ExitCode {
    warn(message)
    return ExitCode(status)
}

/// Prints `message` as one line and exits with ``ExitStatus/usage``: the command line asks for what cannot be.
func usage(_ message: String) -> ExitCode { fail(message, .usage) }

/// Prints "choir: `message`" on standard error, as one line.
func warn(_ message: Any) {
    FileOutput.write("choir: \(message)\n", to: 2)
}
