/// Tests of `UnicodeNormalization`: NFC for every name and link path, with a quick answer for text that is
/// NFC already (every scalar below U+0300, found from the bytes alone) and the full normalizer otherwise.
import Testing
@testable import RhizomeCore

@Suite struct UnicodeNormalizationTests {
    @Test(arguments: [
        ("Note", "Note"), ("Zürich", "Zürich"), ("Caf\u{E9}", "Caf\u{E9}"), ("Cafe\u{301}", "Caf\u{E9}"), ("Ёлка", "Ёлка"),
        ("\u{415}\u{308}лка", "Ёлка"), ("\u{1100}\u{1161}", "\u{AC00}"), ("\u{212B}", "\u{C5}"), ("東京", "東京"), ("ǅ", "ǅ"), ("", ""),
        ("e\u{301}\u{301}", "\u{E9}\u{301}"), ("q\u{307}\u{323}", "q\u{323}\u{307}"),
    ])
    func `text is returned in NFC, as it is when it already was`(text: String, nfc: String) {
        let result = UnicodeNormalization.nfc(text)
        #expect(Array(result.unicodeScalars) == Array(nfc.unicodeScalars))
    }

    @Test(arguments: ["Note", "Zürich", "Caf\u{E9}", "ǅ", "\u{2FF}"])
    func `text whose scalars all come before U+0300 is known to be NFC`(text: String) {
        #expect(UnicodeNormalization.isKnownNFC(text))
    }

    @Test(arguments: ["Cafe\u{301}", "\u{1100}\u{1161}", "\u{212B}", "a\u{300}"])
    func `text with a combining mark, a jamo or a singleton is not known to be NFC`(text: String) {
        #expect(!UnicodeNormalization.isKnownNFC(text))
    }

    @Test(arguments: [("a", "a"), (" a", "a"), ("a\t", "a"), (" \t a b \t ", "a b"), ("", ""), ("  ", ""), ("é ", "é"), ("a\u{301}", "a\u{301}")])
    func `trimming removes spaces and tabs at both ends only`(text: String, trimmed: String) {
        #expect(Array(text.trimmingSpaces.unicodeScalars) == Array(trimmed.unicodeScalars))
    }
}
