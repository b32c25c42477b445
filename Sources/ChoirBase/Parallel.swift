import Dispatch

/// Whole-file analyses split across threads. Each worker takes one consecutive slice and does exactly what a
/// single pass would do there, so the result does not depend on how many workers there were.
public enum Parallel {
    /// Calls `body` with each of `workers` consecutive slices of `0..<count` (together all of it) and the
    /// worker's number, all at once on as many threads; returns when every slice is done.
    public static func slices(of count: Int, workers: Int, _ body: (_ worker: Int, _ slice: Range<Int>) -> Void) {
        let workers = max(1, min(workers, count))
        withoutActuallyEscaping(body) { body in
            nonisolated(unsafe) let body = body
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                body(worker, (worker * count / workers)..<((worker + 1) * count / workers))
            }
        }
    }
}
