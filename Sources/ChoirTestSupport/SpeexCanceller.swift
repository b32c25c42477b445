import CSpeexDSP
import ChoirPractice

/// The speexdsp library's acoustic echo canceller (Valin's multidelay block frequency-domain adaptive filter,
/// the one PulseAudio's and many VoIP programs' echo cancellers are built on), as the field's reference beside
/// choir's own (``EchoPath``, ``EchoCanceller``): it adapts sample block by sample block, where choir's solves for
/// the echo path from everything heard.
public enum SpeexCanceller {
    /// `microphone` with `mix`'s echo taken out by speexdsp (blocks of about 10 ms, a filter of 120 ms), and the
    /// echo it took out, both as long as `microphone`.
    public static func cancel(_ microphone: [Float], mix: [Float], sampleRate: Double) -> (cleaned: [Float], echo: [Float]) {
        var frame = 64
        while Double(frame * 2) <= sampleRate / 100 { frame *= 2 }
        guard let state = speex_echo_state_init(Int32(frame), Int32(0.12 * sampleRate)) else { return (microphone, []) }
        defer { speex_echo_state_destroy(state) }
        var rate = Int32(sampleRate)
        _ = speex_echo_ctl(state, SPEEX_ECHO_SET_SAMPLING_RATE, &rate)
        // speexdsp works on 16-bit samples: a tenth of full scale to spare, for the sum of voice and echo.
        func sample(_ x: Float) -> Int16 { Int16(max(-32767, min(32767, (x * 29000).rounded()))) }
        var recorded = [Int16](repeating: 0, count: frame), played = recorded, out = recorded
        var cleaned = microphone, echo = [Float](repeating: 0, count: microphone.count)
        for start in stride(from: 0, through: microphone.count - frame, by: frame) {
            for i in 0..<frame {
                recorded[i] = sample(microphone[start + i])
                played[i] = start + i < mix.count ? sample(mix[start + i]) : 0
            }
            speex_echo_cancellation(state, recorded, played, &out)
            for i in 0..<frame {
                cleaned[start + i] = Float(out[i]) / 29000
                echo[start + i] = microphone[start + i] - cleaned[start + i]
            }
        }
        return (cleaned, echo)
    }
}
