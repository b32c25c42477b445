import Testing

@testable import ChoirView

/// A cached engraving is found again only for the same document, transposition and layout.
struct EngravingCacheTests {
    /// The key is FNV-1a (64 bits) of the document, the transposition and the layout version, as computed apart
    /// (in Python, with the same code giving the published vector af63dc4c8601ec8c for "a").
    @Test func theKeyIsFNV1aOfTheDocumentAndTheLayout() {
        #expect(Engraving.layoutVersion == 2)
        #expect(Engraving.cacheKey([], transpose: 0) == "4e4874181d3291bd")
        #expect(Engraving.cacheKey(Array("<a/>".utf8), transpose: -3) == "3e56cb3ee5ea44d5")
    }

    /// A changed note or another key is another engraving.
    @Test func aChangedScoreOrKeyIsEngravedAgain() {
        let document = Array("<score-partwise><note><step>C</step></note></score-partwise>".utf8)
        let changed = Array("<score-partwise><note><step>D</step></note></score-partwise>".utf8)
        let key = Engraving.cacheKey(document, transpose: 0)
        #expect(key == Engraving.cacheKey(document, transpose: 0))
        #expect(key != Engraving.cacheKey(changed, transpose: 0))
        #expect(key != Engraving.cacheKey(document, transpose: 2))
    }
}
