import ChoirSession
import ChoirTerminal
import Testing

/// What the terminal's bytes mean: keys read whole from their escape sequences, and the session command each key
/// sends.
struct KeyPressTests {
    /// Every key pressed in `bytes`, read as a raw terminal reads them.
    static func presses(_ bytes: [UInt8]) -> [RawTerminal.KeyPress] {
        var iterator = bytes.makeIterator()
        var presses: [RawTerminal.KeyPress] = []
        while let press = RawTerminal.press(reading: { iterator.next() }) { presses.append(press) }
        return presses
    }

    @Test func arrowsAreReadWholeAndOtherEscapesAreEscape() {
        let escape: UInt8 = 0x1B, bracket = UInt8(ascii: "[")
        #expect(Self.presses([]) == [])
        #expect(Self.presses(Array("q +".utf8)) == [.character(UInt8(ascii: "q")), .character(0x20), .character(UInt8(ascii: "+"))])
        #expect(
            Self.presses([escape, bracket, 0x41, escape, bracket, 0x42, escape, bracket, 0x43, escape, bracket, 0x44])
                == [.up, .down, .right, .left])
        // ESC then another key, ESC [ then an unknown final byte, and ESC at the end of the input.
        #expect(Self.presses([escape, UInt8(ascii: "x")]) == [.escape])
        #expect(Self.presses([escape, bracket, UInt8(ascii: "Z"), UInt8(ascii: "m")]) == [.escape, .character(UInt8(ascii: "m"))])
        #expect(Self.presses([escape]) == [.escape])
    }

    /// The keys the live screen's footer lists send the commands it names; any other key sends nothing.
    @Test(arguments: [
        ("q", SessionCommand.quit), (" ", .togglePause), ("l", .toggleLoop), ("+", .tempo(by: 5)), ("=", .tempo(by: 5)),
        ("-", .tempo(by: -5)), ("m", .toggleMute), ("p", .promptNextNote),
    ])
    func eachKeySendsItsCommand(key: String, command: SessionCommand) {
        #expect(SessionScreen.command(for: .character(key.utf8.first!)) == command)
    }

    @Test func arrowsStepAndChangeTheTempoAndOtherKeysSendNothing() {
        #expect(SessionScreen.command(for: .left) == .step(measures: -1))
        #expect(SessionScreen.command(for: .right) == .step(measures: 1))
        #expect(SessionScreen.command(for: .up) == .tempo(by: 5))
        #expect(SessionScreen.command(for: .down) == .tempo(by: -5))
        #expect(SessionScreen.command(for: .escape) == nil)
        #expect(SessionScreen.command(for: .character(UInt8(ascii: "Q"))) == nil)
        #expect(SessionScreen.command(for: .character(UInt8(ascii: "x"))) == nil)
    }
}
