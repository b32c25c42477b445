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
        let row = firstRow.baseAddress!
        // The predictor a (a[0] = 1) and its error, order by order, and the solution beside them: the reversed
        // predictor over its error is the column that corrects the solution's newest row.
        predictor[0] = 1
        var error = diagonal
        solution[0] = rightHandSide[0] / diagonal
        for order in 1..<n {
            // Both products run over the row backwards from r[order] to r[1] (never the loaded diagonal), with four
            // partial sums each, so that each addition need not wait for the one before.
            let back = row + order
            var (p0, p1, p2, p3) = (0.0, 0.0, 0.0, 0.0), (s0, s1, s2, s3) = (0.0, 0.0, 0.0, 0.0)
            var i = 0
            while i + 3 < order {
                p0 += predictor[i] * back[-i]
                p1 += predictor[i + 1] * back[-i - 1]
                p2 += predictor[i + 2] * back[-i - 2]
                p3 += predictor[i + 3] * back[-i - 3]
                s0 += solution[i] * back[-i]
                s1 += solution[i + 1] * back[-i - 1]
                s2 += solution[i + 2] * back[-i - 2]
                s3 += solution[i + 3] * back[-i - 3]
                i += 4
            }
            while i < order {
                p0 += predictor[i] * back[-i]
                s0 += solution[i] * back[-i]
                i += 1
            }
            let reflection = -((p0 + p1) + (p2 + p3)) / error
            let residual = rightHandSide[order] - ((s0 + s1) + (s2 + s3))
            predictor[order] = 0
            var (front, rear) = (0, order)
            while front <= rear {
                let (low, high) = (predictor[front], predictor[rear])
                predictor[front] = low + reflection * high
                if front != rear { predictor[rear] = high + reflection * low }
                front += 1
                rear -= 1
            }
            error *= 1 - reflection * reflection
            guard error > 0 else {
                (solution + order).update(repeating: 0, count: n - order)
                break
            }
            let step = residual / error
            solution[order] = 0
            for i in 0...order { solution[i] += step * predictor[order - i] }
        }
        for m in 0..<n { result[m] = Float(solution[m]) }
    }
}
