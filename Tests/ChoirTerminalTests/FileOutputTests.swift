import ChoirTerminal
import Testing

/// What choir prints where the locale is not UTF-8: each symbol as its nearest ASCII.
struct FileOutputTests {
    @Test func symbolsBecomeTheirNearestASCII() {
        #expect("C♯5 ♩ = 80 – B♭3 ±10¢ ●".ascii == "C#5 q = 80 - Bb3 +/-10c o")
        #expect("plain text, 100%".ascii == "plain text, 100%")
        // What has no ASCII counterpart is a question mark, one per character.
        #expect("日本".ascii == "??")
    }
}
