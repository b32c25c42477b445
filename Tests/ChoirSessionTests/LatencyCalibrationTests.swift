import Testing

@testable import ChoirSession

/// Calibration keeps only sweeps that agree within 5 ms, from the earliest of them to the latest: a result whose
/// sweeps agreed only within 8.8 ms was stored before, because each was measured from their median.
struct LatencyCalibrationTests {
    @Test func sweepsAgreeWithinFiveMillisecondsEndToEnd() {
        let ms = 0.001
        // Within 5 ms of the median (4.4) each, but 8.8 ms from first to last: the largest group within 5 ms is
        // the first five.
        let spread = [0, 1, 2, 3, 4.4, 8.8].map { $0 * ms }
        #expect(Array(LatencyCalibration.agreeing(spread)) == [0, 1, 2, 3, 4.4].map { $0 * ms })
        // One late outlier (the server settling) is left out.
        #expect(Array(LatencyCalibration.agreeing([10, 11, 11.5, 12, 13, 40].map { $0 * ms })) == [10, 11, 11.5, 12, 13].map { $0 * ms })
        // Of two groups as large, the tighter.
        #expect(Array(LatencyCalibration.agreeing([0, 4.9, 10, 11].map { $0 * ms })) == [10, 11].map { $0 * ms })
        #expect(Array(LatencyCalibration.agreeing([0, 4.9, 7, 8].map { $0 * ms })) == [4.9, 7, 8].map { $0 * ms })
        #expect(LatencyCalibration.agreeing([0, 3, 6, 9, 12, 15].map { $0 * ms }).count == 2)
        #expect(LatencyCalibration.agreeing([]).isEmpty)
    }
}
