/// Solves R x = b where R is a symmetric Toeplitz matrix (R[i][j] = r[|i − j|]), by Levinson's recursion: about
/// 2n² operations for n unknowns, where elimination would take n³. Building a solver allocates its vectors;
/// `solve` allocates nothing and takes no lock.
public final class ToeplitzSolver: @unchecked Sendable {
    public let count: Int
    /// r: R's first row. Fill it, and ``rightHandSide``, before calling `solve`.
    public let firstRow: UnsafeMutableBufferPointer<Double>
    /// b.
    public let rightHandSide: UnsafeMutableBufferPointer<Double>
    private let predictor: UnsafeMutablePointer<Double>
    private let solution: UnsafeMutablePointer<Double>

    public init(count: Int) {
        precondition(count > 0)
        self.count = count
        firstRow = .allocate(capacity: count)
        firstRow.initialize(repeating: 0)
        rightHandSide = .allocate(capacity: count)
        rightHandSide.initialize(repeating: 0)
        predictor = .allocate(capacity: count)
        predictor.initialize(repeating: 0, count: count)
        solution = .allocate(capacity: count)
        solution.initialize(repeating: 0, count: count)
    }

    deinit {
        firstRow.deallocate()
        rightHandSide.deallocate()
        predictor.deallocate()
        solution.deallocate()
    }

    /// Writes x into `result`. R's diagonal is loaded by a thousandth, so that a signal with little in some band
    /// (a mix of a few notes) does not make the solution large there. An empty system (r[0] = 0) gives zeros.
    public func solve(into result: UnsafeMutableBufferPointer<Float>) {
        let n = count
        precondition(result.count == n)
        guard firstRow[0] > 0 else {
            result.update(repeating: 0)
            return
        }
        let diagonal = firstRow[0] * 1.001
        func r(_ m: Int) -> Double { m == 0 ? diagonal : firstRow[m] }
        // The predictor a (a[0] = 1) and its error, order by order, and the solution beside them: the reversed
        // predictor over its error is the column that corrects the solution's newest row.
        predictor[0] = 1
        var error = diagonal
        solution[0] = rightHandSide[0] / diagonal
        for order in 1..<n {
            var reflection = 0.0
            for i in 0..<order { reflection += predictor[i] * r(order - i) }
            reflection = -reflection / error
            predictor[order] = 0
            var i = 0, j = order
            while i <= j {
                let (low, high) = (predictor[i], predictor[j])
                predictor[i] = low + reflection * high
                if i != j { predictor[j] = high + reflection * low }
                i += 1
                j -= 1
            }
            error *= 1 - reflection * reflection
            guard error > 0 else {
                (solution + order).update(repeating: 0, count: n - order)
                break
            }
            var residual = rightHandSide[order]
            for i in 0..<order { residual -= r(order - i) * solution[i] }
            let step = residual / error
            solution[order] = 0
            for i in 0...order { solution[i] += step * predictor[order - i] }
        }
        for m in 0..<n { result[m] = Float(solution[m]) }
    }
}
