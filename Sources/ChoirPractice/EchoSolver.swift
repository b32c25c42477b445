import ChoirPitch
import Foundation
import Synchronization

/// Solves a live session's echo path on a thread of its own, so that the thread that listens never waits for
/// the few tens of milliseconds a solution takes: it hands over the latest correlations when the solver is idle,
/// and picks up the filter when it is done. Allocates at construction only.
final class EchoSolver: @unchecked Sendable {
    private let solver: ToeplitzSolver
    private let filter: UnsafeMutableBufferPointer<Float>
    /// 0: idle; 1: solving what it was handed; 2: a filter waits to be picked up. Stored releasing and loaded
    /// acquiring, so that each side sees the buffers the other filled.
    private let state = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)

    init(taps: Int) {
        solver = ToeplitzSolver(count: taps)
        filter = .allocate(capacity: taps)
        filter.initialize(repeating: 0)
        let thread = Thread { [self] in
            while true {
                wake.wait()
                if stopping.load(ordering: .acquiring) { return }
                solver.solve(into: filter)
                state.store(2, ordering: .releasing)
            }
        }
        thread.name = "choir echo solver"
        thread.start()
    }

    deinit { filter.deallocate() }

    /// Hands `path`'s correlations over if the solver is idle.
    func request(_ path: EchoPath) {
        guard state.load(ordering: .acquiring) == 0 else { return }
        path.copyCorrelations(cross: solver.rightHandSide, auto: solver.firstRow)
        state.store(1, ordering: .releasing)
        wake.signal()
    }

    /// Calls `body` with the latest filter if one is done, and lets the solver take the next request.
    func collect(_ body: (UnsafeBufferPointer<Float>) -> Void) {
        guard state.load(ordering: .acquiring) == 2 else { return }
        body(UnsafeBufferPointer(filter))
        state.store(0, ordering: .releasing)
    }

    /// Ends the solver's thread once it has finished what it is doing.
    func stop() {
        stopping.store(true, ordering: .releasing)
        wake.signal()
    }
}
