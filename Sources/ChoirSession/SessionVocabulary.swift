import ChoirPitch
import ChoirPlayback

// The lower modules' types that ChoirSession's API hands to front ends, named here so that a front end imports
// ChoirSession and never ChoirPitch or ChoirPlayback (LayeringTests holds the command line to that).

/// What a session's pitch tracker listens for and how (``PitchFile``, ``Tuner``).
public typealias PitchTrackerConfiguration = ChoirPitch.PitchTrackerConfiguration
/// Which pitch tracker listens: YIN, the learned one, or the one that suits what else may sound.
public typealias PitchTrackerKind = ChoirPitch.PitchTrackerKind
/// One decided frame of a pitch track.
public typealias PitchFrame = ChoirPitch.PitchFrame
/// A line's event schedule, whose sung syllables a front end shows as lyrics.
public typealias Schedule = ChoirPlayback.Schedule
