import ChoirAudio
import ChoirFiles
import ChoirPractice
import ChoirScore
import FoundationEssentials

/// Everything a practice session needs to start: what plays, where the singer's voice comes from and where the
/// mix goes, how strictly notes are judged, and whether the session is kept in the history.
public struct PracticePlan: Sendable {
    /// Where the singer's voice comes from.
    public enum Input: Sendable, Equatable {
        /// A capture device, live.
        case device(String)
        /// A recorded take (its time 0 is the first beat, or the count-in's start), judged as fast as it goes.
        case take(String)

        /// What a person means by `name`: a take when it names a recording (by its extension) or an existing
        /// file, else a capture device.
        public init(_ name: String) {
            self = AudioFile.isRecording(name) || FileName.exists(name) ? .take(name) : .device(name)
        }

        public var isTake: Bool { if case .take = self { true } else { false } }
    }

    public var playback: PlaybackPlan
    public var input: Input = .device("default")
    /// Where the mix goes. Unless set, nowhere for a take (judged as fast as the machine allows, without playback),
    /// and the default device live.
    public var output: MixDestination {
        get { chosenOutput ?? (input.isTake ? .none : .device("default")) }
        set { chosenOutput = newValue }
    }
    private var chosenOutput: MixDestination?
    public var options = NoteComparator.Options()
    /// Which note of a chord in the singer's line they sing.
    public var divisi = Divisi.upper
    /// Round trip from loudspeaker to microphone to take off, in seconds; nil for the calibrated value of the two
    /// devices when the mix plays on one, else 0.
    public var latency: Double?
    /// Whether the microphone may hear the mix from loudspeakers, to be told apart from the singer.
    public var loudspeakers = true
    /// The pitch tracker that judges: `auto` takes YIN guided by the learned one where other sound than the mix is
    /// expected (``accompanied``), else YIN: the mix's own echo is taken out, and YIN hears the voice in what is left
    /// as well as the learned tracker does. Live, YIN drives the needle whichever judges.
    public var tracker = PitchTrackerKind.auto
    /// Whether the singer has other sound around them than the mix (a piano or a guitar in the room).
    public var accompanied = false
    /// Sample rate of live audio and of a written mix, in Hz.
    public var sampleRate = 48000
    /// Whether a take is moved to where its singing fits the score best (``TakeAlignment``), up to 3 s either way.
    public var aligns = true
    /// Performance lock: only pause and quit are obeyed.
    public var locked = false
    /// The practice history to keep the session in; nil keeps it out.
    public var history: String? = PracticePlan.defaultHistory
    /// Where a live session keeps what the microphone heard (FLAC, Ogg, Opus, MP3, AIFF or WAV, by extension), on
    /// the mix's time line: `input = .take(record)` with the session's latency judges it again.
    public var record: String?

    public init(playback: PlaybackPlan) {
        self.playback = playback
    }

    /// Why a recording cannot be kept at `path`, or nil: its extension names no format choir writes.
    public static func problem(recording path: String) -> String? {
        let suffix = AudioFile.suffix(path)
        guard !AudioFile.writable.contains(suffix) else { return nil }
        return "\(path): "
            + NearestName.unknown(
                "audio format", suffix.isEmpty ? "(none)" : suffix, among: AudioFile.writable,
                expected: "a name ending in .flac, .ogg, .opus, .mp3, .aiff or .wav")
    }

    /// Why the stored latency table cannot be used (`stored`, ``LatencyStore/problem``), when this plan would use
    /// it: a live microphone with the mix played on a device and no latency given.
    public func latencyProblem(stored: String? = LatencyStore.problem) -> String? {
        guard case .device = input, latency == nil, output.isDevice else { return nil }
        return stored
    }

    /// `$XDG_DATA_HOME/choir/history.sqlite`, else under `~/.local/share`.
    public static var defaultHistory: String {
        PracticeHistory.defaultPath(environment: ProcessInfo.processInfo.environment)
    }

    /// Notes every temporary file this process writes in `writing/` beside the history, first removing those of
    /// choirs that were killed while writing, wherever they were (``ReplacingFile/keepLedger(in:)``): for a front
    /// end to call as it starts.
    public static func keepLedgerOfTemporaryFiles() {
        ReplacingFile.keepLedger(in: String(defaultHistory.dropLast("history.sqlite".count)) + "writing")
    }
}
