import Testing
@testable import RhizomeStore

/// CJK text is stored with a space around each character; snippets must read as the original text.
@Suite struct FullTextSegmenterTests {
    @Test(arguments: ["日本語メモ", "a 日", "日本語 メモ", "Café カフェ で", "[[日本語メモ#便利なフレーズ]]", "한국어 메모\n\n다음", "plain ascii", "x日y本z"])
    func readableUndoesIndexable(text: String) {
        #expect(FullTextSegmenter.readable(FullTextSegmenter.indexable(text)) == text)
    }

    @Test func aCJKWordBecomesAPhraseOfItsCharacters() {
        #expect(FullTextSegmenter.term("カフェ") == "\"カ フ ェ\"")
        #expect(FullTextSegmenter.term("café") == "\"café\"")
        #expect(FullTextSegmenter.term("say \"hi\"") == "\"say \"\"hi\"\"\"")
    }
}
