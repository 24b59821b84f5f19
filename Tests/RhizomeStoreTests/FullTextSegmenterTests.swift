import Testing
@testable import RhizomeStore

/// CJK text is stored with a space around each character; snippets must read as the original text.
@Suite struct FullTextSegmenterTests {
    @Test(arguments: ["日本語メモ", "a 日", "日本語 メモ", "Café カフェ で", "[[日本語メモ#便利なフレーズ]]", "한국어 메모\n\n다음", "plain ascii", "x日y本z"])
    func readableUndoesIndexable(text: String) {
        #expect(FullTextSegmenter.readable(FullTextSegmenter.indexable(text)) == text)
    }

    @Test func `each CJK character stands alone and every other byte is kept in place`() {
        #expect(FullTextSegmenter.indexable("日本") == " 日  本 ")
        #expect(FullTextSegmenter.indexable("Café 🙂 → 𠀋x") == "Café 🙂 →  𠀋 x")  // U+2000B is CJK; emoji and arrows are not
        #expect(FullTextSegmenter.indexable("é日é") == "é 日 é")
        #expect(FullTextSegmenter.indexable("한") == " 한 ")
        let long = String(repeating: "plain text, ", count: 1_000)
        #expect(FullTextSegmenter.indexable(long + "語") == long + " 語 ")
        #expect(FullTextSegmenter.indexable(long) == long)
    }

    @Test func aCJKWordBecomesAPhraseOfItsCharacters() {
        #expect(FullTextSegmenter.term("カフェ") == "\"カ フ ェ\"")
        #expect(FullTextSegmenter.term("café") == "\"café\"")
        #expect(FullTextSegmenter.term("say \"hi\"") == "\"say \"\"hi\"\"\"")
    }
}
