import ChoirAudio
import ChoirPitch

/// What a live session needs to tell the singer from the loudspeakers: the mix as it was played (from the
/// playback thread's tap), kept by frame; its level over each analysis window; and how loud it comes through
/// the microphone, measured as the session goes. For the analysis thread; allocates at construction only.
public final class LiveBleed {
    private let tap: SPSCRing<Float>
    private let history: StreamHistory
    private let meter: BleedMeter
    private var block: [Float]
    private var heard: [Float]
    private var filled = 0
    private var blocks = 0
    /// Samples captured so far.
    private var listened = 0
    /// The mix frame playing when the first sample was captured, by the latest word of the streams' clocks.
    private var offset: Double?

    /// Listens to `tap`, which the playback thread fills with every mix frame it plays, mono.
    public init(tap: SPSCRing<Float>, sampleRate: Int) {
        self.tap = tap
        history = StreamHistory(capacity: sampleRate * 8)
        // Four seconds: long enough to average the singer out, short enough to follow a delay that drifts.
        meter = BleedMeter.forPractice(sampleRate: Double(sampleRate), memory: 4)
        block = [Float](repeating: 0, count: meter.block)
        heard = [Float](repeating: 0, count: meter.block + 2 * meter.maximumLag)
    }

    /// Takes in newly captured samples; `heardFrame` is the mix frame that was playing when the first of them
    /// was captured (by the streams' clocks, the round trip subtracted; see ``StreamAlignment`` for why it must be
    /// steady).
    public func listen(_ captured: UnsafeBufferPointer<Float>, heardFrame: Double) {
        history.append(from: tap)
        offset = heardFrame - Double(listened)
        for sample in captured {
            block[filled] = sample
            filled += 1
            listened += 1
            guard filled == block.count else { continue }
            filled = 0
            let start = Int((Double(listened - block.count) + offset!).rounded())
            heard.withUnsafeMutableBufferPointer { history.copy(from: start - meter.maximumLag, into: $0) }
            block.withUnsafeBufferPointer { captured in
                heard.withUnsafeBufferPointer { meter.add(microphone: captured, mix: $0) }
            }
            blocks += 1
        }
    }

    /// The RMS, over `window` frames, of the mix the microphone heard around captured sample `index` (counted
    /// from the first one listened to): where the loudspeakers' sound arrives later than the clocks say (a room,
    /// a sound server's loopback), that much later.
    public func level(aroundCaptured index: Double, window: Int) -> Double {
        guard let offset else { return 0 }
        return history.rms(from: Int((index + offset).rounded()) - window / 2 - (gain > 0 ? meter.delay : 0), count: window)
    }

    /// How loud the mix comes through the microphone (see ``NoteComparator/bleed``), once four blocks (about
    /// half a second) have been heard; 0 before, or if the tap lost frames and the mix's place is unknown.
    public var gain: Double { history.isIntact && blocks >= 4 ? meter.gain : 0 }
}
