import ArgumentParser

/// The SCORE argument of every command that takes one score: a file, or a title in the library.
struct ScoreArgument: ParsableArguments {
    @Argument(help: "A MusicXML (.musicxml, .xml) or compressed MusicXML (.mxl) file, or a title in the library (or the start of one).")
    var score: String

    /// The score's file (a title named in the library is looked up), or a one-line error.
    func path() throws -> String { try LibraryTitles.path(score) }
}

/// `--from` and `--to`: the measures played, by their printed numbers.
struct MeasureRange: ParsableArguments {
    @Option(help: "First measure to play (its printed number).")
    var from: String?

    @Option(help: "Last measure to play (its printed number).")
    var to: String?
}

/// `--json`, for the commands that print JSON instead of text.
struct JSONFlag: ParsableArguments {
    @Flag(help: "Print JSON instead of text.")
    var json = false
}

/// The order a score is played in and the verse its lyrics follow: for playing it and for listing its notes.
struct PlayingOrder: ParsableArguments {
    @Flag(help: "Keep written order: play every measure once, ignoring repeats and jumps.")
    var noRepeats = false

    @Option(help: "The lyric verse sung (shown, listed and kept), from 1; a repeat goes on to the next verse.")
    var verse = 1

    func validate() throws {
        if verse < 1 { throw ValidationError("--verse \(verse): expected a verse number from 1") }
    }
}
