/// Where a renderer's frames go, at the pace the music is heard: an ALSA device (``ALSAPlayback``), or nowhere on
/// the monotonic clock (``SilentPlayback``). Either runs a thread of its own and says which frame is heard when.
public protocol PlaybackStream: AnyObject, Sendable {
    var sampleRate: Int { get }
    /// Which source frame is heard when.
    var clock: AudioClock { get }
    /// Rung after each period played (handed to the device, or rendered on the monotonic clock) and when the stream
    /// ends: a thread following the stream waits on it.
    var doorbell: Doorbell { get }
    /// The source frame being heard now, or nil before the stream plays.
    var heardFrame: Double? { get }
    /// Whether the source has run out and its last frames have been heard.
    var isFinished: Bool { get }
    var underruns: Int { get }
    /// How long after the stream started each of its first underruns came, in seconds.
    var underrunTimes: [Double] { get }
    /// The error that ended playback, if the device failed.
    var error: AudioDeviceError? { get }
    func start() throws(AudioDeviceError)
    /// Waits (up to a second) until the stream is playing.
    func waitUntilPlaying()
    func stop()
}

extension ALSAPlayback: PlaybackStream {}
