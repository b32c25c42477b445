import Testing

@testable import ChoirBase

/// The text helpers every report and command prints through.
struct FormattingTests {
    /// A value that rounds to zero prints as zero, never "-0": "-0.0 ms", "-0 dB" and "-0 cents" were seen.
    @Test(arguments: [
        ("%.1f ms", -0.04, "0.0 ms"), ("%.0f dB", -0.2, "0 dB"), ("%+.0f cents", -0.3, "+0 cents"),
        ("%+5.0f¢", -0.4, "   +0¢"), ("%.0f dB", -0.6, "-1 dB"), ("%.1f", -0.0, "0.0"), ("%.2f", -1e-9, "0.00"),
        ("%+.0f", 0.3, "+0"), ("%.1f", -Double.infinity, "-inf"),
    ])
    func negativeZeroPrintsAsZero(format: String, value: Double, expected: String) {
        #expect(String(printf: format, value) == expected)
    }

    @Test func argumentsAfterOthersAreCheckedByTheirOwnConversion() {
        #expect(String(printf: "%d of %d: %+.0f cents, %.1f%%", 1, 2, -0.2, -0.01) == "1 of 2: +0 cents, 0.0%")
        #expect(String(printf: "%5d %.1f", 3, -0.5) == "    3 -0.5")
    }

    @Test(arguments: [
        ("Tenor", "Tenor"), ("Tenor 2", "'Tenor 2'"), ("my scores/a.musicxml", "'my scores/a.musicxml'"),
        ("it's", "'it'\\''s'"), ("", "''"), ("Sop.1", "Sop.1"),
    ])
    func shellQuotingKeepsOneWord(text: String, quoted: String) {
        #expect(text.shellQuoted == quoted)
    }

    @Test func aCountIsPluralUnlessOne() {
        #expect(String(count: 1, "item") == "1 item")
        #expect(String(count: 0, "item") == "0 items")
        #expect(String(count: 3, "run") == "3 runs")
        #expect(String(count: 2, "damaged stretch", plural: "damaged stretches") == "2 damaged stretches")
        #expect(String(count: 1, "library entry", plural: "library entries") == "1 library entry")
    }
}
