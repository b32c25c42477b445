import ArgumentParser

/// `--part LINE`, the same in every command that names a line; `LineSelector` reads it against the score.
struct Parts: ParsableArguments {
    @Option(
        name: .customLong("part"),
        help: ArgumentHelp(
            "A line: its name, a unique start of it, S/A/T/B or a number from `choir info`, in any case (\"tenor\", \"T\", \"T2\", \"sop\"). Repeatable.",
            valueName: "line"))
    var names: [String] = []

    var isEmpty: Bool { names.isEmpty }
}
