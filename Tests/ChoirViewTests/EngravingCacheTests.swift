import Testing

@testable import ChoirView

/// A cached engraving is found again only for the same document, transposition, page size and layout.
struct EngravingCacheTests {
    /// The key is FNV-1a (64 bits) of the document, the transposition, the layout version and the page's size, as
    /// computed apart (in Python, with the same code giving the published vector af63dc4c8601ec8c for "a").
    @Test func theKeyIsFNV1aOfTheDocumentAndTheLayout() {
        #expect(Engraving.layoutVersion == 3)
        #expect(Engraving.cacheKey([], transpose: 0) == "4e4873181d32900a")
        #expect(Engraving.cacheKey(Array("<a/>".utf8), transpose: -3) == "3e56ca3ee5ea4322")
        #expect(Engraving.cacheKey([], transpose: 0, page: .init(width: 1600, height: 540)) == "b99a47f563a20866")
    }

    /// A changed note, another key or another page size is another engraving.
    @Test func aChangedScoreOrKeyIsEngravedAgain() {
        let document = Array("<score-partwise><note><step>C</step></note></score-partwise>".utf8)
        let changed = Array("<score-partwise><note><step>D</step></note></score-partwise>".utf8)
        let key = Engraving.cacheKey(document, transpose: 0)
        #expect(key == Engraving.cacheKey(document, transpose: 0))
        #expect(key != Engraving.cacheKey(changed, transpose: 0))
        #expect(key != Engraving.cacheKey(document, transpose: 2))
        let page = Engraving.PageSize(width: 900, height: 520)
        #expect(key != Engraving.cacheKey(document, transpose: 0, page: page))
        #expect(
            Engraving.cacheKey(document, transpose: 0, page: page)
                != Engraving.cacheKey(document, transpose: 0, page: .init(width: 900, height: 530)))
    }
}
