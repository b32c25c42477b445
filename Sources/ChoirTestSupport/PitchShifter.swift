import ChoirPitch
import CRubberBand
import Glibc

/// Moves the pitch of a recording by an amount that may change as it goes, keeping its formants (the singer's
/// vowels and voice), through Rubber Band (Breakfast Quay's library, the field's pitch shifter), in its
/// real-time mode with the finer engine: the one mode that follows a pitch scale that changes while it runs.
public enum PitchShifter {
    /// `samples` (mono) with the pitch moved by `cents(t)` at every second t of the input, and stretched in time by
    /// `timeRatio`; Rubber Band's delay taken out, so that the result lines up with the input (stretched) sample
    /// for sample.
    public static func shift(_ samples: [Float], sampleRate: Int, timeRatio: Double = 1, cents: (Double) -> Double) -> [Float] {
        let options =
            RubberBandOptionProcessRealTime.rawValue | RubberBandOptionEngineFiner.rawValue
            | RubberBandOptionFormantPreserved.rawValue | RubberBandOptionPitchHighConsistency.rawValue
            | RubberBandOptionThreadingNever.rawValue
        guard let state = rubberband_new(UInt32(sampleRate), 1, Int32(bitPattern: UInt32(options)), timeRatio, 1) else { return samples }
        defer { rubberband_delete(state) }
        let block = 256
        rubberband_set_max_process_size(state, UInt32(block))
        let pad = Int(rubberband_get_preferred_start_pad(state))
        let delay = Int(rubberband_get_start_delay(state))
        // Silence before (the pad Rubber Band asks for) and after (to flush its delay).
        var input = [Float](repeating: 0, count: pad)
        input += samples
        input += [Float](repeating: 0, count: Int(Double(delay) / timeRatio) + 4 * block)
        var output: [Float] = []
        output.reserveCapacity(input.count + block)
        var chunk = [Float](repeating: 0, count: 4096)
        var start = 0
        func drain() {
            while rubberband_available(state) > 0 {
                let wanted = min(chunk.count, Int(rubberband_available(state)))
                let count = chunk.withUnsafeMutableBufferPointer { buffer -> Int in
                    var channel: UnsafeMutablePointer<Float>? = buffer.baseAddress
                    return Int(rubberband_retrieve(state, &channel, UInt32(wanted)))
                }
                output += chunk[0..<count]
            }
        }
        while start < input.count {
            let count = min(block, input.count - start)
            // A new pitch scale takes effect on what Rubber Band processes next: the input it holds, as old as its
            // start pad and its delay together (measured: a pitch curve is followed within 1 cent RMS so).
            let held = pad + Int(Double(delay) / timeRatio)
            let centre = Double(start - pad + count / 2 - held) / Double(sampleRate)
            rubberband_set_pitch_scale(state, PitchMath.ratio(cents: cents(centre)))
            input.withUnsafeBufferPointer { buffer in
                var channel: UnsafePointer<Float>? = buffer.baseAddress! + start
                rubberband_process(state, &channel, UInt32(count), start + count >= input.count ? 1 : 0)
            }
            start += count
            drain()
        }
        drain()
        let length = Int((Double(samples.count) * timeRatio).rounded())
        let aligned = output.dropFirst(delay)
        return Array(aligned.prefix(length)) + [Float](repeating: 0, count: max(0, length - aligned.count))
    }
}
