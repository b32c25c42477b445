import ChoirSession

/// The one line `choir play` and `choir view` keep up to date on a terminal, and the lines they print without one.
public enum PlaybackLine {
    /// "♩ = 72", and the session's speed in percent when it is not the score's: "♩ = 58 (80%)".
    public static func tempo(_ tempo: Double, percent: Int) -> String {
        "♩ = \(Int(tempo.rounded()))" + (percent == 100 ? "" : " (\(percent)%)")
    }

    /// `choir play`'s line: measure and beat, the time round a `--loop`, playing or paused, and `tempo`, the
    /// score's; "starting" until the music is heard.
    public static func playing(_ now: SessionSnapshot, tempo: Double) -> String {
        let pass = now.passes > 1 ? "  pass \(now.pass) of \(now.passes)" : ""
        let shown = now.measure == "-" ? "starting" : "\(now.measure):\(now.beat)\(pass)  " + (now.paused ? "paused" : "playing")
        return shown + "  ♩ = \(Int(tempo.rounded()))"
    }

    /// `choir play`'s line for each measure without a terminal: "measure 5", or "measure 5, pass 2 of 3".
    public static func measure(_ now: SessionSnapshot) -> String {
        "measure \(now.measure)" + (now.passes > 1 ? ", pass \(now.pass) of \(now.passes)" : "")
    }

    /// `choir view`'s line: where the music is ("starting" until it is heard), the tempo, and playing or paused
    /// with what else differs from playing on.
    public static func viewing(_ now: SessionSnapshot) -> String {
        var flags = now.flags
        if !now.paused { flags.insert("playing", at: 0) }
        let place = now.measure == "-" ? "starting" : "m. \(now.measure):\(now.beat)"
        return "\(place)  \(tempo(now.tempo, percent: now.tempoPercent))  " + flags.joined(separator: ", ")
    }
}
